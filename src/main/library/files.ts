// Adding files to a library: copied once into `<data>/library/<id>/` (never moved: the person's
// original stays where it was). A second file of the same name gets a suffix, as task sources do;
// bytes the library already holds are not copied again (the existing file is returned).
import { constants, mkdirSync, statSync } from 'node:fs';
import { copyFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { PERSONAL_LIBRARY, type LibraryId } from '../../shared/contract/projects';
import type { LibraryFileRow } from '../store';
import type { StorePort } from '../store/port';
import { freeName, safeFileName, sha256File, statAddedFile } from '../workspace/added-files';
import { libraryDir } from '../workspace/library-paths';

/** The library's id in the store: null for the personal library. */
export function storeIdOf(library: LibraryId): string | null {
  return library === PERSONAL_LIBRARY ? null : library;
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
  statAddedFile(from);
  const projectId = storeIdOf(library);
  const hash = sha256 ?? (await sha256File(from));
  const same = await store.library.findBySha(projectId, hash);
  if (same) return { row: same, added: false };

  const dir = libraryDir(dataDir, library);
  mkdirSync(dir, { recursive: true });
  const target = await freeName(safeFileName(name), async (n) => (await store.library.get(projectId, n)) !== undefined || exists(join(dir, n)));
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
