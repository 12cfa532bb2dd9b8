// Adding files to a library: copied once into `<data>/library/<id>/` (never moved: the person's
// original stays where it was). A second file of the same name gets a suffix, as task sources do;
// bytes the library already holds are not copied again (the existing file is returned).
import { createHash } from 'node:crypto';
import { constants, createReadStream, mkdirSync, statSync } from 'node:fs';
import { copyFile, rm } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import { PERSONAL_LIBRARY, type LibraryId } from '../../shared/contract/projects';
import { FolioError } from '../../shared/errors';
import type { LibraryFileRow } from '../store';
import type { StorePort } from '../store/port';
import { libraryDir } from '../workspace/library-paths';

export async function sha256Of(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** The library's id in the store: null for the personal library. */
export function storeIdOf(library: LibraryId): string | null {
  return library === PERSONAL_LIBRARY ? null : library;
}

/** File names no file system refuses, without folders; letters of any script are kept. */
function safeName(name: string): string {
  const cleaned = basename(name.replace(/\\/gu, '/')).replace(/[\u0000-\u001f<>:"|?*]/gu, '_').replace(/^\.+/u, '').trim();
  if (!cleaned) throw new FolioError('invalid_input', `Unusable file name: ${JSON.stringify(name)}`);
  return cleaned;
}

/** `a.pdf` → `a-2.pdf`, `a-3.pdf`, ... until neither the store nor the folder has it. */
async function freeName(taken: (name: string) => Promise<boolean>, name: string): Promise<string> {
  if (!(await taken(name))) return name;
  const ext = extname(name);
  const stem = name.slice(0, name.length - ext.length);
  for (let i = 2; ; i += 1) {
    const candidate = `${stem}-${i}${ext}`;
    if (!(await taken(candidate))) return candidate;
  }
}

export interface AddedFile {
  row: LibraryFileRow;
  /** false: the library already had these bytes; nothing was copied. */
  added: boolean;
}

/**
 * Copies `from` into the library under `name` and records it (status pending, for the indexer).
 * `sha256`: the file's hash when the caller has already read it (the team service does, for the
 * storage quota), so a large upload is not read twice.
 */
export async function addLibraryFile(store: StorePort, dataDir: string, library: LibraryId, from: string, name: string, newId: () => string, sha256?: string): Promise<AddedFile> {
  let stat;
  try {
    stat = statSync(from);
  } catch {
    throw new FolioError('not_found', `File not found: ${basename(from)}`);
  }
  if (!stat.isFile()) throw new FolioError('invalid_input', `Not a file: ${basename(from)}`);
  const projectId = storeIdOf(library);
  const hash = sha256 ?? (await sha256Of(from));
  const same = await store.library.findBySha(projectId, hash);
  if (same) return { row: same, added: false };

  const dir = libraryDir(dataDir, library);
  mkdirSync(dir, { recursive: true });
  const target = await freeName(async (n) => (await store.library.get(projectId, n)) !== undefined || exists(join(dir, n)), safeName(name));
  const abs = join(dir, target);
  // EXCL: never writes over a file (or through a link) that appeared meanwhile.
  await copyFile(from, abs, constants.COPYFILE_EXCL);
  try {
    const copied = statSync(abs);
    const row = await store.library.add({ id: newId(), project_id: projectId, path: target, size: copied.size, mtime_ms: Math.trunc(copied.mtimeMs), sha256: hash });
    return { row, added: true };
  } catch (err) {
    await rm(abs, { force: true });
    throw err;
  }
}

function exists(abs: string): boolean {
  try {
    statSync(abs);
    return true;
  } catch {
    return false;
  }
}
