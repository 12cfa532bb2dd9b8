// Runs one program in its own process group and captures its output: the part every executor shares.
// A timeout or a cancel kills the whole group (pipelines, background jobs), not just the program.
import { spawn } from 'node:child_process';
import { ExecutorError, type ExecResult } from './executor';

export const DEFAULT_TIMEOUT_MS = 120_000;
export const MAX_TIMEOUT_MS = 600_000;
export const MAX_OUTPUT_BYTES = 100 * 1024;
/** How long a process group gets between SIGTERM and SIGKILL. */
const KILL_GRACE_MS = 1000;

export interface SpawnOptions {
  file: string;
  args: readonly string[];
  cwd: string;
  env: Record<string, string>;
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Names the program in the error when it cannot be started ("the shell", "node"). */
  label?: string;
  /**
   * Called once when the timeout or the signal fires, besides killing the local process group: an
   * executor whose program runs elsewhere (a container) stops it there, which killing the client does not.
   */
  onStop?: () => void;
}

/** Keeps the head and the tail of the output: the start shows what ran, the end shows how it failed. */
class CappedOutput {
  private readonly head: Buffer[] = [];
  private headBytes = 0;
  private tail: Buffer[] = [];
  private tailBytes = 0;
  private dropped = 0;

  constructor(
    private readonly headMax: number,
    private readonly tailMax: number,
  ) {}

  push(chunk: Buffer): void {
    if (this.headBytes < this.headMax) {
      const take = Math.min(chunk.length, this.headMax - this.headBytes);
      this.head.push(chunk.subarray(0, take));
      this.headBytes += take;
      chunk = chunk.subarray(take);
    }
    if (chunk.length === 0) return;
    this.tail.push(chunk);
    this.tailBytes += chunk.length;
    while (this.tailBytes > this.tailMax) {
      const first = this.tail[0];
      if (!first) break;
      const excess = this.tailBytes - this.tailMax;
      if (first.length <= excess) {
        this.tail.shift();
        this.tailBytes -= first.length;
        this.dropped += first.length;
      } else {
        this.tail[0] = first.subarray(excess);
        this.tailBytes -= excess;
        this.dropped += excess;
      }
    }
  }

  get truncated(): boolean {
    return this.dropped > 0;
  }

  /** The output, and where in it the note about the left-out middle sits (absent: nothing was left out). */
  read(): Pick<ExecResult, 'output' | 'omitted'> {
    const head = Buffer.concat(this.head).toString('utf8');
    const tail = Buffer.concat(this.tail).toString('utf8');
    if (!this.truncated) return { output: head + tail };
    const note = `[... ${this.dropped} bytes of output omitted; output is capped at ${MAX_OUTPUT_BYTES / 1024} KB ...]`;
    const from = head.length + 2;
    return { output: `${head}\n\n${note}\n\n${tail}`, omitted: { from, to: from + note.length, bytes: this.dropped } };
  }
}

/** The output with `change` applied to what the program printed, the note about a left-out middle kept as it is and found again. */
export function mapProgramOutput(result: Pick<ExecResult, 'output' | 'omitted'>, change: (text: string) => string): Pick<ExecResult, 'output' | 'omitted'> {
  if (!result.omitted) return { output: change(result.output) };
  const { from, to, bytes } = result.omitted;
  const head = change(result.output.slice(0, from));
  const note = result.output.slice(from, to);
  return { output: `${head}${note}${change(result.output.slice(to))}`, omitted: { from: head.length, to: head.length + note.length, bytes } };
}

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // ESRCH: the group is already gone.
  }
}

/** The timeout actually applied: the default when unset, never more than the maximum. */
export function effectiveTimeoutMs(timeoutMs: number | undefined): number {
  return Math.min(Math.max(timeoutMs ?? DEFAULT_TIMEOUT_MS, 1), MAX_TIMEOUT_MS);
}

/**
 * Runs a program in a new process group with an empty stdin. stdout and stderr are captured in
 * arrival order (two pipes, so writes racing each other may interleave differently than a terminal).
 */
export function spawnCaptured(options: SpawnOptions): Promise<ExecResult> {
  const timeoutMs = effectiveTimeoutMs(options.timeoutMs);
  const started = Date.now();
  const output = new CappedOutput(MAX_OUTPUT_BYTES * 0.4, MAX_OUTPUT_BYTES * 0.6);

  if (options.signal?.aborted) {
    return Promise.resolve({ output: '', exitCode: null, signal: null, durationMs: 0, timedOut: false, aborted: true, truncated: false });
  }

  return new Promise<ExecResult>((resolve, reject) => {
    // The program leads a new process group and the group is killed. Sandboxed, bwrap leads it and
    // the command runs in a new session inside a PID namespace: killing bwrap kills the namespace's
    // pid 1 and with it every process inside, `setsid` ones included; --die-with-parent covers
    // Folio itself dying.
    const child = spawn(options.file, options.args, {
      cwd: options.cwd,
      env: options.env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let timedOut = false;
    let aborted = false;
    let settled = false;
    let stopped = false;
    let killTimer: NodeJS.Timeout | undefined;
    let exit: { code: number | null; signal: NodeJS.Signals | null } | null = null;

    const finish = (): void => {
      if (settled || !exit) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(killTimer);
      options.signal?.removeEventListener('abort', onAbort);
      resolve({
        ...output.read(),
        exitCode: exit.code,
        signal: exit.signal,
        durationMs: Date.now() - started,
        timedOut,
        aborted,
        truncated: output.truncated,
      });
    };

    const terminate = (): void => {
      const pid = child.pid;
      if (pid === undefined) return;
      killGroup(pid, 'SIGTERM');
      killTimer ??= setTimeout(() => {
        killGroup(pid, 'SIGKILL');
        // A process that left the group (setsid) may still hold the pipes open; stop waiting for it.
        child.stdout.destroy();
        child.stderr.destroy();
        setTimeout(finish, 50);
      }, KILL_GRACE_MS);
    };

    const stop = (): void => {
      if (!stopped) {
        stopped = true;
        options.onStop?.();
      }
      terminate();
    };

    const onAbort = (): void => {
      aborted = true;
      stop();
    };

    const timer = setTimeout(() => {
      timedOut = true;
      stop();
    }, timeoutMs);
    options.signal?.addEventListener('abort', onAbort, { once: true });

    child.stdout.on('data', (chunk: Buffer) => output.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => output.push(chunk));
    child.on('error', (err) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      reject(new ExecutorError(`Could not start ${options.label ?? options.file}: ${err.message}`));
    });
    child.on('exit', (code, signal) => {
      exit = { code, signal };
      // Background jobs outlive the shell and would keep the pipes open: the command is over, so
      // everything it left behind in its group goes too.
      terminate();
    });
    child.on('close', finish);
  });
}
