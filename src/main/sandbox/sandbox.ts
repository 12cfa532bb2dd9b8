// Wraps a program in bubblewrap so that what the model wrote (shell commands, scripts, documents
// LibreOffice converts) runs isolated from Folio and the person's secrets:
//   - its own PID namespace with a fresh /proc: Folio's processes (their environments hold the API
//     token and keys) and `/proc/<pid>/root` are out of sight, and killing bwrap kills everything
//     inside, `setsid` children included (the namespace dies with its pid 1);
//   - a new session (no terminal to inject keystrokes into), no capabilities even when run as root
//     (root could otherwise unmount the tmpfs that hides the data folder);
//   - no network unless the task allows it (a fresh network namespace holds only loopback);
//   - the file system read-only, Folio's data folder (keys, database, other tasks) and the usual
//     credential files under the home folder hidden, the writable root bound back on top, and a
//     private /tmp with a private home inside it.
// Where bwrap is missing or cannot set up namespaces, programs run unsandboxed and
// `sandboxStatus()` says why, so the tools and Settings can say so plainly.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findResourcesDir } from '../config/app-paths';

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
}

export interface SandboxStatus {
  active: boolean;
  /** One line: what the sandbox does, or why programs run without one. */
  reason: string;
}

/** HOME inside the sandbox: private, writable, empty but for the person's git identity. */
export const SANDBOX_HOME = '/tmp/home';

const PROBE_TIMEOUT_MS = 5000;

/** Credential stores under the home folder that no sandboxed program has a reason to read. */
const HOME_SECRETS = [
  '.ssh', '.gnupg', '.aws', '.azure', '.kube', '.docker', '.netrc', '.git-credentials', '.npmrc', '.pypirc',
  '.config/gcloud', '.config/gh', '.config/folio', '.password-store',
];
/** Read-only into the private home, so `git commit` still knows who the person is. */
const HOME_IDENTITY = ['.gitconfig', '.config/git/config'];

let cached: (SandboxStatus & { bwrap: string }) | null = null;

/** The executable `name` on PATH (or `name` itself when it is a path that exists), else null. */
export function findOnPath(name: string): string | null {
  if (name.includes('/')) return fs.existsSync(name) ? name : null;
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return candidate;
    } catch {
      // Not here.
    }
  }
  return null;
}

/** Namespaces and privileges: the same for the probe and every run, so a failure shows up at the probe. */
function isolationArgs(network: boolean): string[] {
  const args = ['--die-with-parent', '--new-session', '--unshare-pid', '--unshare-ipc', '--unshare-uts'];
  if (!network) args.push('--unshare-net');
  // bwrap keeps every capability when started by root; without them root cannot undo the mounts.
  if (process.getuid?.() === 0) args.push('--cap-drop', 'ALL');
  return args;
}

function probe(): SandboxStatus & { bwrap: string } {
  if (process.env.FOLIO_BWRAP === '0') return { active: false, bwrap: '', reason: 'sandbox disabled (FOLIO_BWRAP=0)' };
  if (process.platform !== 'linux') return { active: false, bwrap: '', reason: `no sandbox on ${process.platform} (bubblewrap is Linux-only)` };
  const bwrap = findOnPath('bwrap');
  if (!bwrap) return { active: false, bwrap: '', reason: 'no sandbox: bubblewrap (bwrap) is not installed' };
  const run = spawnSync(bwrap, [...isolationArgs(false), '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp', 'true'], {
    stdio: ['ignore', 'ignore', 'pipe'],
    timeout: PROBE_TIMEOUT_MS,
    env: {},
  });
  if (run.error || run.status !== 0) {
    const why = run.error?.message ?? (run.stderr.toString('utf8').trim().split('\n')[0] || `exit code ${run.status ?? 'unknown'}`);
    return { active: false, bwrap, reason: `no sandbox: bubblewrap does not work here (${why})` };
  }
  return {
    active: true,
    bwrap,
    reason: "sandboxed with bubblewrap: own process namespace, no network unless the task allows it, only the task folder and a private /tmp writable, Folio's data folder hidden",
  };
}

/** Whether programs run sandboxed, checked once per process. */
export function sandboxStatus(): SandboxStatus {
  cached ??= probe();
  return { active: cached.active, reason: cached.reason };
}

/** Forgets the cached check (tests flip FOLIO_BWRAP). */
export function resetSandboxStatus(): void {
  cached = null;
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
 * started with, and `/proc/1/environ` is readable from inside.
 */
export function sandboxed(file: string, args: readonly string[], options: SandboxOptions): { file: string; args: string[] } | null {
  sandboxStatus();
  if (!cached?.active) return null;
  const root = realOrNull(options.writableRoot) ?? path.resolve(options.writableRoot);
  const home = os.homedir();
  const secrets = HOME_SECRETS.map((p) => path.join(home, p));
  const hidden = [...(options.hiddenPaths ?? []), ...secrets].map(realOrNull).filter((p): p is string => p !== null);
  const hide = (p: string): string[] => (isDirectory(p) ? ['--tmpfs', p] : ['--ro-bind', '/dev/null', p]);
  const bwrapArgs = [...isolationArgs(options.network === true), '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp'];
  // The private /tmp must not hide what the program needs to start: Folio's own install (its
  // node_modules serve run_script's imports) and the node binary, when they live under /tmp.
  for (const p of startupPaths()) bwrapArgs.push('--ro-bind', p, p);
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
  bwrapArgs.push('--chdir', options.cwd === undefined ? root : (realOrNull(options.cwd) ?? path.resolve(options.cwd)), '--', file, ...args);
  return { file: cached.bwrap, args: bwrapArgs };
}

let startup: string[] | null = null;
function startupPaths(): string[] {
  if (startup) return startup;
  const candidates = [path.dirname(process.execPath)];
  try {
    candidates.push(findResourcesDir());
  } catch {
    // not inside a Folio checkout (packaged app): nothing more to keep
  }
  const tmp = realOrNull('/tmp') ?? '/tmp';
  startup = [...new Set(candidates.map((p) => realOrNull(p) ?? p))].filter((p) => p.startsWith(`${tmp}${path.sep}`));
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
