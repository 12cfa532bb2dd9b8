// Folio's own synchronous writes into a task (artifacts, preview sidecars): the folder must still be
// the real path the resolver gave, and a file is created exclusively, never through a link, with the
// descriptor checked for where it landed.
import fs from 'node:fs';
import path from 'node:path';
import { PathEscapeError } from '../../shared/errors';

const O_NOFOLLOW = fs.constants.O_NOFOLLOW ?? 0;
const O_NONBLOCK = fs.constants.O_NONBLOCK ?? 0;

function errnoCode(err: unknown): string | undefined {
  return err instanceof Error && 'code' in err && typeof err.code === 'string' ? err.code : undefined;
}

/**
 * The folder a write of Folio's own goes to (an artifact, its sidecar), given as the resolver
 * answered it: a real path. A link swapped in since (a command replacing `artifacts/` with a link
 * out of the task) makes the real path differ, and the write is refused.
 */
export function assertRealFolder(dir: string): string {
  const lexical = path.resolve(dir);
  let real: string;
  try {
    real = fs.realpathSync.native(lexical);
  } catch (err) {
    throw new PathEscapeError(`The folder ${path.basename(lexical)} is not accessible (${errnoCode(err) ?? 'error'}).`);
  }
  if (real !== lexical) throw new PathEscapeError(`The folder ${path.basename(lexical)} is now a symbolic link; Folio does not write through it.`);
  return real;
}

/**
 * Creates `dir/name` exclusively, never through a link, and checks where the descriptor landed
 * (Linux): the synchronous writers' openInside. Returns the descriptor; the caller closes it.
 */
export function createExclusiveSync(dir: string, name: string, mode = 0o644): number {
  if (name === '' || name === '.' || name === '..' || /[/\\\0]/u.test(name)) throw new PathEscapeError(`${JSON.stringify(name)} is not a plain file name.`);
  const real = assertRealFolder(dir);
  const fd = fs.openSync(path.join(real, name), fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | O_NOFOLLOW | O_NONBLOCK, mode);
  if (process.platform === 'linux') {
    let landed: string | null = null;
    try {
      landed = fs.readlinkSync(`/proc/self/fd/${fd}`);
    } catch {
      landed = null;
    }
    if (landed !== null && path.dirname(landed) !== real) {
      fs.closeSync(fd);
      throw new PathEscapeError(`${name} was redirected out of its folder while it was created.`);
    }
  }
  return fd;
}
