// Wraps a program in bubblewrap so that what the model wrote (shell commands, scripts, documents
// LibreOffice converts) runs isolated from Folio and the person's secrets:
//   - its own PID namespace with a fresh /proc: Folio's processes (their environments hold the API
//     token and keys) and `/proc/<pid>/root` are out of sight, and killing bwrap kills everything
//     inside, `setsid` children included (the namespace dies with its pid 1);
//   - no terminal to inject keystrokes into: callers start bwrap detached (a session of its own, with
//     no controlling terminal, inside its own process group), so the sandbox stays in the process
//     group they kill. bwrap's --new-session is not used: it moves the sandbox's pid 1 into a new
//     group before bwrap arms its parent-death signal, and a kill in that window left the sandbox
//     running (9 of 200 kills 0-30 ms after the start);
//   - no capabilities even when run as root (root could otherwise unmount the tmpfs that hides the
//     data folder), and under root a user namespace in which the program is `nobody`;
//   - no network unless the task allows it (a fresh network namespace holds only loopback);
//   - the file system read-only, Folio's data folder (keys, database, other tasks) and the usual
//     credential files under the home folder hidden, the writable root bound back on top, and a
//     private /tmp (a tmpfs of bounded size) with a private home inside it; `/etc/shadow`-class
//     files, /root and the host's socket folders (/run: D-Bus, docker, podman) hidden;
//   - rlimits on file size, open files, address space and (where the kernel counts them) processes,
//     set by `prlimit` inside; the executor adds a cgroup per run where it can (cgroup.ts).
// Where bwrap is missing or cannot set up namespaces, programs run unsandboxed and
// `sandboxStatus()` says why, so the tools and Settings can say so plainly.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findResourcesDir } from '../config/app-paths';
import { resolveLimits, rlimitPrefix, type SandboxLimits } from './limits';
import { runProbe } from './run-probe';
import { findOnPath } from './which';

export { findOnPath } from './which';

export interface SandboxOptions {
  /** The only folder (besides a private, empty /tmp) the program may write; it runs there. */
  writableRoot: string;
  /** Folders hidden behind an empty tmpfs (Folio's data folder); the writable root stays visible inside them. */
  hiddenPaths?: readonly string[];
  /** Files or folders bound back read-only after the hidden ones (an input inside the data folder). */
  readablePaths?: readonly string[];
  /** Whether the program may reach the network; off by default. */
  network?: boolean;
  /** Where the program starts (default: the writable root). */
  cwd?: string;
  /** Bounds on processes, memory, file size, /tmp and open files (limits.ts); defaults when unset. */
  limits?: Partial<SandboxLimits>;
}

export interface SandboxStatus {
  active: boolean;
  /** One line: what the sandbox does, or why programs run without one. */
  reason: string;
}

/**
 * Folders no sandboxed program of this process may see, whatever its caller hides: the team
 * service's storage root, which holds every tenant's folder (each call hides its own data folder;
 * this hides the others'). Set once at start by the process that serves them.
 */
const processHidden = new Map<string, number>();

/** Hides `dir` from every program this process sandboxes from now on; the returned function undoes it (once). */
export function hideFromEverySandbox(dir: string): () => void {
  const resolved = path.resolve(dir);
  processHidden.set(resolved, (processHidden.get(resolved) ?? 0) + 1);
  let undone = false;
  return () => {
    if (undone) return;
    undone = true;
    const left = (processHidden.get(resolved) ?? 1) - 1;
    if (left > 0) processHidden.set(resolved, left);
    else processHidden.delete(resolved);
  };
}

/** HOME inside the sandbox: private, writable, empty but for the person's git identity. */
export const SANDBOX_HOME = '/tmp/home';

const PROBE_TIMEOUT_MS = 5000;

/** Credential stores under the home folder that no sandboxed program has a reason to read. */
const HOME_SECRETS = [
  '.ssh', '.gnupg', '.aws', '.azure', '.kube', '.docker', '.netrc', '.git-credentials', '.npmrc', '.pypirc',
  '.config/gcloud', '.config/gh', '.config/folio', '.password-store',
];
/**
 * Host files a program has no reason to read. The sandbox runs as uid 0 outside its user namespace
 * when Folio is root, so files only root may read would otherwise be readable.
 */
const HOST_SECRETS = [
  '/etc/shadow', '/etc/shadow-', '/etc/gshadow', '/etc/gshadow-', '/etc/sudoers', '/etc/sudoers.d', '/etc/ssl/private',
  '/etc/security/opasswd', '/var/lib/sudo', '/root',
];
/**
 * Where the host's Unix sockets live (D-Bus, docker, podman, systemd, X11 under /tmp): connecting to
 * a socket needs no write access, so a read-only view is not enough; these are replaced by empty folders.
 */
const SOCKET_DIRS = ['/run', '/var/run'];
/** The identity inside the user namespace when Folio runs as root: `nobody`, with no capabilities. */
const SANDBOX_UID = 65534;
/** Read-only into the private home, so `git commit` still knows who the person is. */
const HOME_IDENTITY = ['.gitconfig', '.config/git/config'];

const isRoot = (): boolean => process.getuid?.() === 0;

/**
 * RLIMIT_NPROC counts per user namespace since Linux 5.14 (before, every process of the person's
 * account counted, a desktop's included), and never applies to root.
 */
function rlimitCountsProcesses(): boolean {
  if (isRoot()) return false;
  const [major = 0, minor = 0] = os.release().split('.').map((n) => Number.parseInt(n, 10));
  return major > 5 || (major === 5 && minor >= 14);
}

let cached: (SandboxStatus & { bwrap: string }) | null = null;

/** Namespaces and privileges: the same for the probe and every run, so a failure shows up at the probe. */
function isolationArgs(network: boolean): string[] {
  const args = ['--die-with-parent', '--unshare-pid', '--unshare-ipc', '--unshare-uts'];
  if (!network) args.push('--unshare-net');
  if (isRoot()) {
    // A user namespace in which the program is `nobody`: root's identity and privileges stay outside.
    // bwrap keeps every capability when started by root; without them the program cannot undo the mounts.
    args.push('--unshare-user', '--uid', String(SANDBOX_UID), '--gid', String(SANDBOX_UID), '--cap-drop', 'ALL');
  }
  return args;
}

const ACTIVE_REASON =
  "sandboxed with bubblewrap: own process namespace, no network unless the task allows it, only the task folder and a private /tmp writable, Folio's data folder and the host's sockets hidden, processes, memory and file sizes bounded";

/** The answer without running anything, or the bwrap command whose run decides it. */
function probeCommand(): (SandboxStatus & { bwrap: string }) | { bwrap: string; args: string[] } {
  if (process.env.FOLIO_BWRAP === '0') return { active: false, bwrap: '', reason: 'sandbox disabled (FOLIO_BWRAP=0)' };
  if (process.platform !== 'linux') return { active: false, bwrap: '', reason: `no sandbox on ${process.platform} (bubblewrap is Linux-only)` };
  const bwrap = findOnPath('bwrap');
  if (!bwrap) return { active: false, bwrap: '', reason: 'no sandbox: bubblewrap (bwrap) is not installed' };
  return { bwrap, args: [...isolationArgs(false), '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp', 'true'] };
}

function probeAnswer(bwrap: string, run: { error?: Error; status: number | null; stderr: string }): SandboxStatus & { bwrap: string } {
  if (run.error || run.status !== 0) {
    const why = run.error?.message ?? (run.stderr.trim().split('\n')[0] || `exit code ${run.status ?? 'unknown'}`);
    return { active: false, bwrap, reason: `no sandbox: bubblewrap does not work here (${why})` };
  }
  return { active: true, bwrap, reason: ACTIVE_REASON };
}

function probe(): SandboxStatus & { bwrap: string } {
  const command = probeCommand();
  if (!('args' in command)) return command;
  const run = spawnSync(command.bwrap, command.args, { stdio: ['ignore', 'ignore', 'pipe'], timeout: PROBE_TIMEOUT_MS, env: {} });
  return probeAnswer(command.bwrap, { ...(run.error ? { error: run.error } : {}), status: run.status, stderr: run.stderr.toString('utf8') });
}

let warming: Promise<void> | null = null;

/**
 * Runs the check as a child process in the background (the synchronous one holds the event loop,
 * about a second on a loaded machine); `sandboxStatus()` then answers from it.
 */
export function warmSandboxStatus(): Promise<void> {
  if (cached) return Promise.resolve();
  warming ??= (async () => {
    const command = probeCommand();
    const answer = 'args' in command ? probeAnswer(command.bwrap, await runProbe(command.bwrap, command.args, { timeoutMs: PROBE_TIMEOUT_MS, env: {} })) : command;
    cached ??= answer;
  })().finally(() => {
    warming = null;
  });
  return warming;
}

/** Whether programs run sandboxed, checked once per process. */
export function sandboxStatus(): SandboxStatus {
  cached ??= probe();
  return { active: cached.active, reason: cached.reason };
}

/** Forgets the cached check (tests flip FOLIO_BWRAP). */
export function resetSandboxStatus(): void {
  cached = null;
  warming = null;
  startup = null;
}

function realOrNull(p: string): string | null {
  try {
    return fs.realpathSync(p);
  } catch {
    return null;
  }
}

function isDirectory(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}

const isInside = (root: string, p: string): boolean => p === root || p.startsWith(`${root}${path.sep}`);

/**
 * The program and arguments that run `file args` inside the sandbox, or null when there is none.
 * Mount order matters: later mounts land on top, so the writable root is bound back after the data
 * folder that usually contains it is hidden. The caller spawns the result with the program's clean
 * environment (see env.ts): bwrap's own pid 1 inside the namespace keeps the environment it was
 * started with, and `/proc/1/environ` is readable from inside. The caller spawns it detached (see
 * the top of this file) and stops it by killing that process group.
 */
export function sandboxed(file: string, args: readonly string[], options: SandboxOptions): { file: string; args: string[] } | null {
  sandboxStatus();
  if (!cached?.active) return null;
  const root = realOrNull(options.writableRoot) ?? path.resolve(options.writableRoot);
  const home = os.homedir();
  const secrets = HOME_SECRETS.map((p) => path.join(home, p));
  const hidden = [...(options.hiddenPaths ?? []), ...processHidden.keys(), ...secrets].map(realOrNull).filter((p): p is string => p !== null);
  const limits = resolveLimits(options.limits);
  const hide = (p: string): string[] => (isDirectory(p) ? ['--tmpfs', p] : ['--ro-bind', '/dev/null', p]);
  const bwrapArgs = [...isolationArgs(options.network === true), '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc'];
  bwrapArgs.push('--size', String(limits.tmpBytes), '--tmpfs', '/tmp');
  const system = systemHiddenPaths();
  for (const p of system) bwrapArgs.push(...hide(p));
  // With /run hidden, name resolution still needs the resolver's file where systemd keeps it there.
  const resolv = realOrNull('/etc/resolv.conf');
  if (resolv && system.some((h) => isInside(h, resolv))) bwrapArgs.push('--ro-bind', resolv, resolv);
  // Hiding /tmp, /root and the rest must not hide what the program needs to start: Folio's own
  // install (its node_modules serve run_script's imports) and the node binary, wherever they live.
  for (const p of startupPaths(['/tmp', ...system])) bwrapArgs.push('--ro-bind', p, p);
  for (const p of hidden.filter((h) => !isInside(root, h))) bwrapArgs.push(...hide(p));
  bwrapArgs.push('--bind', root, root);
  for (const p of hidden.filter((h) => isInside(root, h) && h !== root)) bwrapArgs.push(...hide(p));
  for (const p of options.readablePaths ?? []) {
    const real = realOrNull(p);
    if (real) bwrapArgs.push('--ro-bind', real, real);
  }
  bwrapArgs.push('--dir', SANDBOX_HOME);
  for (const rel of HOME_IDENTITY) {
    const real = realOrNull(path.join(home, rel));
    if (real && !isDirectory(real)) bwrapArgs.push('--ro-bind', real, path.join(SANDBOX_HOME, rel));
  }
  bwrapArgs.push('--chdir', options.cwd === undefined ? root : (realOrNull(options.cwd) ?? path.resolve(options.cwd)), '--');
  bwrapArgs.push(...rlimitPrefix(limits, rlimitCountsProcesses()), file, ...args);
  return { file: cached.bwrap, args: bwrapArgs };
}

/** Host paths hidden from every program: secrets and socket folders that exist here (symlinks to them are covered by their target). */
let systemHidden: string[] | null = null;
function systemHiddenPaths(): string[] {
  systemHidden ??= [
    ...new Set(
      [...HOST_SECRETS, ...SOCKET_DIRS]
        .filter((p) => {
          try {
            return !fs.lstatSync(p).isSymbolicLink();
          } catch {
            return false;
          }
        })
        .map((p) => realOrNull(p) ?? p),
    ),
  ];
  return systemHidden;
}

let startup: string[] | null = null;
function startupPaths(hiddenRoots: readonly string[]): string[] {
  if (startup) return startup;
  const candidates = [path.dirname(process.execPath)];
  try {
    candidates.push(findResourcesDir());
  } catch {
    // not inside a Folio checkout (packaged app): nothing more to keep
  }
  const roots = hiddenRoots.map((p) => realOrNull(p) ?? p);
  startup = [...new Set(candidates.map((p) => realOrNull(p) ?? p))].filter((p) => roots.some((r) => p !== r && isInside(r, p)));
  return startup;
}

/** One sentence for a tool description: what the sandbox allows, or that there is none and why. */
export function sandboxNote(): string {
  const status = sandboxStatus();
  return status.active
    ? 'Sandboxed: only the task folder and a private, empty /tmp are writable; the rest of the file system is read-only; ' +
        'the network is off unless the person allows it for this task.'
    : `Not sandboxed (${status.reason}).`;
}
