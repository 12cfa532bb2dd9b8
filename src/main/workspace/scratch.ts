// The data folder's scratch folder: where uploads, PDF conversions, page renders and other temporary
// folders are staged before their result lands. It sits under the data folder (0700) rather than the
// shared OS temp folder, so other users cannot read partial uploads or rendered pages, and whatever a
// killed process left there is removed at the next start.
//
// Every temporary folder is named `<prefix><host>.<pid>-XXXXXX`, so a process that shares the data
// folder (the team service's workers) can tell which leftovers belong to a process that is gone.
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';

/** The prefix of every upload's temporary folder. */
export const UPLOAD_DIR_PREFIX = 'folio-upload-';

/** The scratch folder of a data folder. */
export function scratchDir(dataDir: string): string {
  return join(dataDir, 'tmp');
}

/** This process's mark in a temporary folder's name: the host (letters, digits, `_`) and the pid. */
const HOST = hostname().replace(/[^A-Za-z0-9_]/gu, '_') || 'host';
const OWNER = `${HOST}.${process.pid}`;
const OWNED_NAME = /^folio-[a-z-]+?-([A-Za-z0-9_]+)\.(\d+)-[^-]+$/u;

let processRoot: string | null = null;

/**
 * Makes `dataDir`'s scratch folder the one this process's renders use (PDF conversions, page
 * images, resource staging). Called by whoever composes the process around a data folder; a
 * process without one (a CLI conversion, a unit test) stages in the OS temp folder. Returns the
 * way to stop (when the data folder closes).
 */
export function useScratchRoot(dataDir: string): () => void {
  const root = scratchDir(dataDir);
  processRoot = root;
  return () => {
    if (processRoot === root) processRoot = null;
  };
}

/** Where a temporary folder goes: the given data folder's scratch, else the process's. */
function rootFor(dataDir: string | undefined): string {
  if (dataDir !== undefined) return scratchDir(dataDir);
  return processRoot ?? tmpdir();
}

/**
 * A new private folder for temporary files, `<scratch>/<prefix><host>.<pid>-XXXXXX` (0700). The
 * caller removes it when done (`removeScratchDir`); a crash leaves it to the next start's sweep.
 * `prefix` is `folio-<what>-`.
 */
export function makeScratchDirSync(prefix: string, dataDir?: string): string {
  const root = rootFor(dataDir);
  mkdirSync(root, { recursive: true, mode: 0o700 });
  return mkdtempSync(join(root, `${prefix}${OWNER}-`));
}

export async function makeScratchDir(prefix: string, dataDir?: string): Promise<string> {
  const root = rootFor(dataDir);
  await mkdir(root, { recursive: true, mode: 0o700 });
  return mkdtemp(join(root, `${prefix}${OWNER}-`));
}

/** Removes a temporary folder; retries because a file in it may still be closing after a failure. */
export async function removeScratchDir(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true, maxRetries: 3 });
}

export function removeScratchDirSync(dir: string): void {
  rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Creates the scratch folder (0700) and removes leftovers from it. The process that owns the data
 * folder (`owner`) removes everything: nothing else may stage there. A process that shares the
 * folder (a team worker) removes only the folders of processes of this host that are gone.
 */
export function sweepScratch(dataDir: string, who: 'owner' | 'shared' = 'owner'): void {
  const dir = scratchDir(dataDir);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  for (const name of readdirSync(dir)) {
    if (who === 'shared') {
      const owner = OWNED_NAME.exec(name);
      if (!owner || owner[1] !== HOST || Number(owner[2]) === process.pid || isAlive(Number(owner[2]))) continue;
    }
    rmSync(join(dir, name), { recursive: true, force: true, maxRetries: 3 });
  }
}
