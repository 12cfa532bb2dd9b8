// The one way code-running tools start a program the model wrote (a shell command, a script): an
// `Executor` runs it isolated from Folio and the person's secrets and reports how it ended. Which
// implementation runs it (bubblewrap on this machine, or one container per task) is chosen once, in
// select-executor.ts; the tools only see this interface.
import type { SandboxLimits } from './limits';
import type { NetworkPolicy } from './network';

export interface ExecOptions {
  /** The task the program belongs to: an executor that keeps state per task (a container) keys it by this. */
  taskId: string;
  /**
   * The task folder: the only folder (besides a private, empty /tmp) the program may write. Bubblewrap
   * keeps it at its path; a container mounts it at /workspace and rewrites the host paths of the call
   * (argv, cwd, environment) to container paths, so tools pass host paths either way.
   */
  root: string;
  /** Where the program starts: `root` or a folder inside it. */
  cwd: string;
  /** The program's whole environment, already allowlisted (see env.ts); nothing else of Folio's reaches it. */
  env: Record<string, string>;
  /** Kill the program (and everything it started) after this long; default and maximum in process.ts. */
  timeoutMs?: number;
  /** What the program may reach on the network (see network.ts); `none` unless the task allows more. */
  network: NetworkPolicy;
  /** Cancels the run: the program and everything it started are killed and the result says `aborted`. */
  signal?: AbortSignal;
  /** Folders inside `root` that stay read-only (the person's originals in `source/`). */
  readOnlyPaths?: readonly string[];
  /**
   * Folders the program must not see at all (Folio's data folder, holding keys and other tasks). A
   * container never sees them anyway: only `root` and the executor's own read-only mounts are in it.
   */
  hiddenPaths?: readonly string[];
  /** Names the program in the error when it cannot be started ("the shell", "node"). */
  label?: string;
  /** Bounds on processes, memory, file size and /tmp (limits.ts); the defaults when unset. */
  limits?: Partial<SandboxLimits>;
}

export interface ExecResult {
  /**
   * stdout and stderr interleaved in arrival order, capped (the head and the tail kept, a note in the
   * middle): one stream, because the order in which a program wrote to the two is what a reader needs.
   */
  output: string;
  /** Whether the output cap dropped bytes from the middle. */
  truncated: boolean;
  /** Where in `output` the note about the dropped middle sits (string offsets), and how many bytes it stands for. */
  omitted?: { from: number; to: number; bytes: number };
  /** null when the program was killed by a signal (or never exited on its own). */
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  durationMs: number;
  /** The timeout fired and the program, with everything it started, was killed. */
  timedOut: boolean;
  /** The signal fired and the program, with everything it started, was killed. */
  aborted: boolean;
  /** One line per sandbox limit the run ran into (limits.ts), for the model; absent when none. */
  limitNotes?: string[];
}

export interface ExecutorStatus {
  /** Whether programs run isolated (false: bubblewrap's unsandboxed fallback, or no container runtime). */
  active: boolean;
  /** One line: what the executor enforces, or why it does not. */
  reason: string;
}

export interface Executor {
  /** `bubblewrap` or `container`: for logs and status reports. */
  readonly kind: 'bubblewrap' | 'container';
  /**
   * Whether the program sees this machine's files (read-only) and programs, so host paths (Folio's
   * Node binary, its node_modules) work inside; false for a container, which has only its image.
   */
  readonly hostFilesystem: boolean;
  /**
   * The task folder as programs see it, and so as the model is told it: its host path, or a
   * container's /workspace (the worker's storage layout is none of the model's business).
   */
  shownRoot(root: string): string;
  /** Checked once and cached: whether it isolates programs, and how or why not. */
  status(): ExecutorStatus;
  /** One sentence for a tool description: what programs may do, or that they run unisolated and why. */
  note(): string;
  /**
   * Runs `argv` (a program and its arguments, never spliced into a shell line). Resolves with how it
   * ended, however it ended; rejects with an `ExecutorError` only when it could not be started at all.
   */
  run(argv: readonly string[], options: ExecOptions): Promise<ExecResult>;
  /** Frees what the executor holds for a task (its container); a later run starts afresh. */
  release(taskId: string): Promise<void>;
  /** Frees everything the executor holds; called when Folio shuts down. */
  close(): Promise<void>;
}

/** A program could not be started, or the executor cannot run anything (its reason in the message). */
export class ExecutorError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ExecutorError';
  }
}
