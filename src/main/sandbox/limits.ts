// How much one sandboxed program may take: processes, memory, the size of any file it writes, its
// private /tmp and its open files. Two layers, because neither is enough alone:
//   - rlimits (`prlimit`, set soft = hard inside the sandbox so the program cannot raise them): file
//     size, open files, no core dumps, data memory per process, and processes where the kernel
//     counts them (it never does for root, whose process count is exempt);
//   - a cgroup per run where Folio may create one (cgroup.ts): a process count and a memory total
//     for everything the program started, /tmp included (tmpfs pages are charged to the writer).
// The private /tmp is a tmpfs of a fixed size, so filling it ends in ENOSPC, not in host memory.
import { findOnPath } from './which';

export interface SandboxLimits {
  /** Processes and threads the program and everything it starts may hold at once. */
  processes: number;
  /** Memory for the whole run (cgroup), and private writable memory per process (rlimit). */
  memoryBytes: number;
  /** The largest file the program may write (RLIMIT_FSIZE: SIGXFSZ / EFBIG past it). */
  fileSizeBytes: number;
  /** The private /tmp's size. */
  tmpBytes: number;
  /** Open files per process. */
  openFiles: number;
}

const MiB = 1024 * 1024;

export const DEFAULT_LIMITS: Readonly<SandboxLimits> = Object.freeze({
  processes: 512,
  memoryBytes: 2048 * MiB,
  fileSizeBytes: 512 * MiB,
  tmpBytes: 512 * MiB,
  openFiles: 4096,
});

/** Which limit a run ran into, as far as it can be told afterwards. */
export type LimitKind = 'processes' | 'memory' | 'file_size' | 'tmp';

export function resolveLimits(overrides: Partial<SandboxLimits> | undefined): SandboxLimits {
  return { ...DEFAULT_LIMITS, ...overrides };
}

/**
 * The `prlimit … --` prefix that applies the rlimits to the program, or [] when prlimit is missing
 * (util-linux, Essential on Debian; the status then says the limits are the cgroup's only).
 * `countProcesses` is false for root, where RLIMIT_NPROC is never enforced.
 */
export function rlimitPrefix(limits: SandboxLimits, countProcesses: boolean): string[] {
  const prlimit = findOnPath('prlimit');
  if (!prlimit) return [];
  const both = (n: number): string => `${n}:${n}`;
  const args = [
    prlimit,
    `--fsize=${both(limits.fileSizeBytes)}`,
    `--nofile=${both(limits.openFiles)}`,
    '--core=0:0',
    // Data (private writable mappings), not address space: V8 reserves many GB of inaccessible
    // address space for WebAssembly (Node's fetch needs it), which RLIMIT_AS would refuse.
    `--data=${both(limits.memoryBytes)}`,
  ];
  if (countProcesses) args.push(`--nproc=${both(limits.processes)}`);
  args.push('--');
  return args;
}

const MIB = (n: number): string => `${Math.round(n / MiB)} MiB`;

/** One line for the model per limit hit: what stopped the program and what to do instead. */
export function limitNote(kind: LimitKind, limits: SandboxLimits): string {
  switch (kind) {
    case 'processes':
      return `[stopped by the sandbox: more than ${limits.processes} processes at once; start fewer processes (no fork loops, bounded xargs -P)]`;
    case 'memory':
      return `[stopped by the sandbox: the memory limit (${MIB(limits.memoryBytes)}) was reached and the program was killed; process the data in smaller pieces]`;
    case 'file_size':
      return `[stopped by the sandbox: a file grew past the file size limit (${MIB(limits.fileSizeBytes)})]`;
    case 'tmp':
      return `[no space left: the sandbox's private /tmp holds at most ${MIB(limits.tmpBytes)} (or the disk is full); write large files into the task folder instead]`;
  }
}

/**
 * What a run's ending and output say about the limits, for runs without a cgroup to ask: SIGXFSZ is
 * the file size limit; fork failures the process count; a kill with the memory rlimit's messages the
 * memory; ENOSPC the bounded /tmp.
 */
export function limitsFromOutput(output: string, exit: { exitCode: number | null; signal: NodeJS.Signals | null }): LimitKind[] {
  const hits = new Set<LimitKind>();
  // A shell reports a child killed by SIGXFSZ (25) as 128 + 25.
  if (exit.signal === 'SIGXFSZ' || exit.exitCode === 153 || /File size limit exceeded/u.test(output)) hits.add('file_size');
  if (/Cannot fork|fork: (?:retry: )?Resource temporarily unavailable|can't fork|BlockingIOError: \[Errno 11\]/u.test(output)) hits.add('processes');
  if (/MemoryError|Cannot allocate memory|JavaScript heap out of memory|std::bad_alloc/u.test(output)) hits.add('memory');
  // Usually the bounded /tmp (a full disk reads the same; the note names both).
  if (/No space left on device/u.test(output)) hits.add('tmp');
  return [...hits];
}
