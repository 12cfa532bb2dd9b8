// The executor on this machine: bubblewrap around each program (see sandbox.ts for what it isolates),
// or, where bwrap is missing or cannot set up namespaces, the program unsandboxed in its own process
// group, as `sandboxStatus()` reports. Nothing is held between runs, so release and close do nothing.
import type { Executor, ExecOptions, ExecResult } from './executor';
import { spawnCaptured } from './process';
import { sandboxed, sandboxNote, sandboxStatus } from './sandbox';

export class BubblewrapExecutor implements Executor {
  readonly kind = 'bubblewrap';
  readonly hostFilesystem = true;

  shownRoot(root: string): string {
    return root;
  }

  status(): ReturnType<typeof sandboxStatus> {
    return sandboxStatus();
  }

  note(): string {
    return sandboxNote();
  }

  run(argv: readonly string[], options: ExecOptions): Promise<ExecResult> {
    const [file, ...args] = argv;
    if (file === undefined) throw new RangeError('run needs a program');
    const confined = sandboxed(file, args, {
      writableRoot: options.root,
      hiddenPaths: options.hiddenPaths ?? [],
      // An allowlist is more than bubblewrap can enforce: it gets no network rather than all of it.
      network: options.network === 'open',
      readablePaths: options.readOnlyPaths ?? [],
      cwd: options.cwd,
    });
    return spawnCaptured({
      file: confined?.file ?? file,
      args: confined?.args ?? args,
      cwd: options.cwd,
      env: options.env,
      timeoutMs: options.timeoutMs,
      signal: options.signal,
      label: options.label,
    });
  }

  async release(): Promise<void> {
    // Nothing outlives a run.
  }

  async close(): Promise<void> {
    // Nothing outlives a run.
  }
}
