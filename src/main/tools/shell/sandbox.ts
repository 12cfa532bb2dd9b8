// Wraps a command in bubblewrap so it cannot read Folio's data folder (API keys, other tasks) nor
// write outside the task folder. Where bwrap is missing or cannot set up namespaces here, commands
// run unsandboxed and `sandboxStatus()` says why, so the tools can tell the model and the user.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { findResourcesDir } from '../../config/app-paths';

export interface SandboxOptions {
  /** The only folder (besides a private, empty /tmp) the command may write; it runs there. */
  writableRoot: string;
  /** Folders hidden behind an empty tmpfs (Folio's data folder); the writable root stays visible inside them. */
  hiddenPaths?: readonly string[];
}

export interface SandboxStatus {
  active: boolean;
  /** One line: what the sandbox does, or why commands run without one. */
  reason: string;
}

const PROBE_TIMEOUT_MS = 5000;
let cached: (SandboxStatus & { bwrap: string }) | null = null;

function findOnPath(name: string): string | null {
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

function probe(): SandboxStatus & { bwrap: string } {
  if (process.env.FOLIO_BWRAP === '0') return { active: false, bwrap: '', reason: 'sandbox disabled (FOLIO_BWRAP=0)' };
  if (process.platform !== 'linux') return { active: false, bwrap: '', reason: `no sandbox on ${process.platform} (bubblewrap is Linux-only)` };
  const bwrap = findOnPath('bwrap');
  if (!bwrap) return { active: false, bwrap: '', reason: 'no sandbox: bubblewrap (bwrap) is not installed' };
  // The same mounts a real run uses, so a kernel without user namespaces fails here, not mid-task.
  const run = spawnSync(bwrap, ['--die-with-parent', '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp', 'true'], {
    stdio: ['ignore', 'ignore', 'pipe'],
    timeout: PROBE_TIMEOUT_MS,
  });
  if (run.error || run.status !== 0) {
    const why = run.error?.message ?? (run.stderr.toString('utf8').trim().split('\n')[0] || `exit code ${run.status ?? 'unknown'}`);
    return { active: false, bwrap, reason: `no sandbox: bubblewrap does not work here (${why})` };
  }
  return {
    active: true,
    bwrap,
    reason: "sandboxed with bubblewrap: only the task folder and a private /tmp are writable; Folio's data folder is hidden",
  };
}

/** Whether commands run sandboxed, checked once per process. */
export function sandboxStatus(): SandboxStatus {
  cached ??= probe();
  return { active: cached.active, reason: cached.reason };
}

/** Forgets the cached check (tests flip FOLIO_BWRAP). */
export function resetSandboxStatus(): void {
  cached = null;
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

/**
 * The program and arguments that run `file args` inside the sandbox, or null when there is none.
 * Mount order matters: later mounts land on top, so the task folder is re-bound after the data
 * folder that usually contains it is hidden.
 */
export function sandboxed(file: string, args: readonly string[], options: SandboxOptions): { file: string; args: string[] } | null {
  sandboxStatus();
  if (!cached?.active) return null;
  const root = realOrNull(options.writableRoot) ?? path.resolve(options.writableRoot);
  const hidden = (options.hiddenPaths ?? []).map(realOrNull).filter((p): p is string => p !== null);
  const inside = (p: string): boolean => p === root || p.startsWith(`${root}${path.sep}`);
  const hide = (p: string): string[] => (isDirectory(p) ? ['--tmpfs', p] : ['--ro-bind', '/dev/null', p]);
  const bwrapArgs = ['--die-with-parent', '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp'];
  // The private /tmp must not hide what the command needs to start: Folio's own install (its
  // node_modules serve run_script's imports) and the node binary, when they live under /tmp.
  for (const p of startupPaths()) bwrapArgs.push('--ro-bind', p, p);
  for (const p of hidden.filter((h) => !inside(h))) bwrapArgs.push(...hide(p));
  bwrapArgs.push('--bind', root, root);
  for (const p of hidden.filter(inside)) bwrapArgs.push(...hide(p));
  bwrapArgs.push('--chdir', root, '--', file, ...args);
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
    ? 'Sandboxed: only the task folder and a private, empty /tmp are writable; the rest of the file system is read-only.'
    : `Not sandboxed (${status.reason}).`;
}
