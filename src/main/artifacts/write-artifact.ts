// Artifacts are written atomically and never replace an existing file: a temp file in the same
// folder is fsynced and renamed into place; if the name is taken, the next free `-v2`, `-v3`...
// is used. Rename within one folder is atomic on POSIX and NTFS, so a reader never sees half a file.
import { closeSync, fsyncSync, linkSync, openSync, unlinkSync, writeSync, mkdirSync, existsSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { PathEscapeError } from '../../shared/errors';
import { assertRealFolder, createExclusiveSync } from '../workspace/exclusive-create';

/** `deck.pptx` → `deck.pptx`, `deck-v2.pptx`, `deck-v3.pptx`, ... */
export function versionedName(fileName: string, version: number): string {
  if (version <= 1) return fileName;
  const ext = extname(fileName);
  return `${fileName.slice(0, fileName.length - ext.length)}-v${version}${ext}`;
}

/**
 * Writes `data` as `dir/fileName` or its next free version; returns the absolute path written.
 * The final step is link(2), which fails if the target exists, so two writers racing for the same
 * name never overwrite each other. `dir` is the path resolver's answer (a real path): a link put
 * in its place since is refused, the temporary file is created exclusively without following a
 * link, and link(2) never follows one at the target either.
 */
export function writeArtifactAtomic(dir: string, fileName: string, data: Uint8Array): string {
  mkdirSync(dir, { recursive: true });
  const real = assertRealFolder(dir);
  const safeName = basename(fileName);
  if (safeName === '' || safeName === '.' || safeName === '..') throw new PathEscapeError(`${JSON.stringify(fileName)} is not a file name.`);
  const tmpName = `.${safeName}.${randomBytes(6).toString('hex')}.tmp`;
  const tmp = join(real, tmpName);
  const fd = createExclusiveSync(real, tmpName);
  try {
    let offset = 0;
    while (offset < data.byteLength) offset += writeSync(fd, data, offset, data.byteLength - offset);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    for (let version = 1; version < 10_000; version++) {
      const target = join(real, versionedName(safeName, version));
      if (existsSync(target)) continue;
      try {
        linkSync(tmp, target);
        fsyncDir(dirname(target));
        return target;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'EEXIST') continue;
        throw err;
      }
    }
    throw new Error(`No free version of ${safeName} in ${basename(real)}`);
  } finally {
    unlinkSync(tmp);
  }
}

function fsyncDir(dir: string): void {
  try {
    const fd = openSync(dir, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Some platforms (Windows) cannot open a directory for fsync; the rename is still atomic there.
  }
}
