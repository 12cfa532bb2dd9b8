// Runs one shell command (or any program: `runProcess`) in its own process group, so a timeout or a
// cancel kills everything the command started (pipelines, background jobs), not just the shell. The
// tools go through an `Executor` (sandbox/executor.ts); these functions are the same machinery for
// callers that run a program on this machine directly.
import { ExecutorError, type ExecResult } from '../../sandbox/executor';
import { runConfined } from '../../sandbox/bubblewrap-executor';
import type { SandboxLimits } from '../../sandbox/limits';
import { spawnCaptured, type SpawnOptions } from '../../sandbox/process';
import { ToolError } from '../types';

export { DEFAULT_TIMEOUT_MS, MAX_OUTPUT_BYTES, MAX_TIMEOUT_MS } from '../../sandbox/process';
// Kept here for the tools' public surface; the allowlist lives with the sandbox.
export { stripSecrets } from '../../sandbox/env';

/** Where a sandbox is available (see sandbox.ts), a run given `writableRoot` is confined to it. */
export interface ConfineOptions {
  /** The only folder the command may write (normally the task folder); unset: no sandbox. */
  writableRoot?: string;
  /** Folders the command must not see at all (Folio's data folder, holding keys and other tasks). */
  hiddenPaths?: readonly string[];
  /** Whether the sandboxed command may use the network (off unless the task allows it). */
  network?: boolean;
  /** Folders inside the writable root that stay read-only (the person's originals in `source/`). */
  readOnlyPaths?: readonly string[];
  /** The sandbox's bounds (sandbox/limits.ts); the defaults when unset. */
  limits?: Partial<SandboxLimits>;
}

export interface RunOptions extends ConfineOptions {
  command: string;
  cwd: string;
  env: Record<string, string>;
  timeoutMs?: number;
  signal?: AbortSignal;
}

export interface ProcessOptions extends ConfineOptions, Omit<SpawnOptions, 'onStop'> {}

export type RunResult = ExecResult;

/**
 * The program and arguments that run a command line with /bin/sh. The command was parsed and
 * classified as written, so it is passed verbatim as an argument, never spliced into a script. The
 * outer sh only points stderr at stdout, so both arrive in one pipe in the order they were written.
 */
export function shellArgv(command: string): string[] {
  return ['/bin/sh', '-c', 'exec /bin/sh -c "$1" 2>&1', 'sh', command];
}

export function runShell(options: RunOptions): Promise<RunResult> {
  const [file = '/bin/sh', ...args] = shellArgv(options.command);
  return runProcess({
    file,
    args,
    cwd: options.cwd,
    env: options.env,
    timeoutMs: options.timeoutMs,
    signal: options.signal,
    label: 'the shell',
    writableRoot: options.writableRoot,
    hiddenPaths: options.hiddenPaths,
    network: options.network,
    readOnlyPaths: options.readOnlyPaths,
    limits: options.limits,
  });
}

/** Runs a program (sandboxed when given `writableRoot` and bubblewrap works); see spawnCaptured. */
export async function runProcess(options: ProcessOptions): Promise<RunResult> {
  const spawn = { cwd: options.cwd, env: options.env, timeoutMs: options.timeoutMs, signal: options.signal, label: options.label };
  try {
    if (options.writableRoot === undefined) return await spawnCaptured({ ...spawn, file: options.file, args: options.args });
    const sandbox = {
      writableRoot: options.writableRoot,
      hiddenPaths: options.hiddenPaths,
      network: options.network,
      readablePaths: options.readOnlyPaths,
      limits: options.limits,
    };
    return await runConfined(options.file, options.args, sandbox, spawn);
  } catch (err) {
    throw err instanceof ExecutorError ? new ToolError(err.message) : err;
  }
}
