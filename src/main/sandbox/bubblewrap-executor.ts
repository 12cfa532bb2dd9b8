// The executor on this machine: bubblewrap around each program (see sandbox.ts for what it isolates)
// with a cgroup per run where one can be made (cgroup.ts), or, where bwrap is missing or cannot set
// up namespaces, the program unsandboxed in its own process group, as `sandboxStatus()` reports.
// Nothing is held between runs, so release and close do nothing.
import { createRunCgroup } from './cgroup';
import type { Executor, ExecOptions, ExecResult } from './executor';
import { limitNote, limitsFromOutput, resolveLimits, type SandboxLimits } from './limits';
import { spawnCaptured, type SpawnOptions } from './process';
import { type SandboxOptions, sandboxed, sandboxNote, sandboxStatus } from './sandbox';

/**
 * Runs `file args` in the sandbox with its limits (or unsandboxed where there is none) and says which
 * limits the run ran into. Shared by the executor and the tools' direct `runProcess`.
 */
export async function runConfined(
  file: string,
  args: readonly string[],
  sandbox: SandboxOptions,
  spawn: Omit<SpawnOptions, 'file' | 'args'>,
): Promise<ExecResult> {
  const limits: SandboxLimits = resolveLimits(sandbox.limits);
  const confined = sandboxed(file, args, { ...sandbox, limits });
  if (!confined) return spawnCaptured({ ...spawn, file, args });
  const cgroup = createRunCgroup(limits);
  const argv = [...(cgroup?.joinPrefix() ?? []), confined.file, ...confined.args];
  const [first = confined.file, ...rest] = argv;
  try {
    const result = await spawnCaptured({ ...spawn, file: first, args: rest });
    const hits = new Set([...(cgroup?.hits() ?? []), ...limitsFromOutput(result.output, result)]);
    return hits.size === 0 ? result : { ...result, limitNotes: [...hits].map((kind) => limitNote(kind, limits)) };
  } finally {
    cgroup?.remove();
  }
}

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
    return runConfined(
      file,
      args,
      {
        writableRoot: options.root,
        hiddenPaths: options.hiddenPaths ?? [],
        // An allowlist is more than bubblewrap can enforce: it gets no network rather than all of it.
        network: options.network === 'open',
        readablePaths: options.readOnlyPaths ?? [],
        cwd: options.cwd,
        limits: options.limits,
      },
      { cwd: options.cwd, env: options.env, timeoutMs: options.timeoutMs, signal: options.signal, label: options.label },
    );
  }

  async release(): Promise<void> {
    // Nothing outlives a run.
  }

  async close(): Promise<void> {
    // Nothing outlives a run.
  }
}
