// Where libraries live and how a task names their files: the one place library paths are
// parsed and resolved. On disk: `<data>/library/<project_id>/<path>` and `<data>/library/personal/<path>`;
// in a task: `library/project/<path>` (the task's project) and `library/personal/<path>`.
import { join } from 'node:path';
import { LIBRARY_PREFIX, LIBRARY_SCOPES, PERSONAL_LIBRARY, type LibraryId } from '../../shared/contract/projects';
import { PathEscapeError } from '../../shared/errors';
import { resolveInside } from './task-paths';

export type LibraryScope = keyof typeof LIBRARY_SCOPES;

export interface LibraryPath {
  scope: LibraryScope;
  /** Inside the library's folder; '' for the library itself. */
  path: string;
}

export function librariesDir(dataDir: string): string {
  return join(dataDir, 'library');
}

/** A library's folder. Project ids never equal `personal` (they carry a prefix), so the names cannot clash. */
export function libraryDir(dataDir: string, library: LibraryId): string {
  return join(librariesDir(dataDir), library);
}

/** A library file's absolute path; throws PathEscapeError for a path that leaves the library's folder. */
export function libraryFilePath(dataDir: string, library: LibraryId, path: string): string {
  return resolveInside(libraryDir(dataDir, library), path);
}

/**
 * `library/project/a.pdf` → {scope: 'project', path: 'a.pdf'}; `library/personal` → the whole personal
 * library (path ''). Anything else → null: only these two folders are reserved, so a coding task's
 * repository may still have a `library/` folder of its own.
 */
export function parseLibraryPath(taskPath: string): LibraryPath | null {
  const p = taskPath.replace(/\\/gu, '/').replace(/^\.\//u, '').replace(/\/+$/u, '');
  for (const scope of Object.keys(LIBRARY_SCOPES) as LibraryScope[]) {
    const head = `${LIBRARY_PREFIX}/${LIBRARY_SCOPES[scope]}`;
    if (p === head) return { scope, path: '' };
    if (p.startsWith(`${head}/`)) {
      const rest = p.slice(head.length + 1);
      if (rest.split('/').some((s) => s === '..' || s === '.' || s === '')) throw new PathEscapeError(`${taskPath} is not a library path`);
      return { scope, path: rest };
    }
  }
  return null;
}

/** Whether a task path names the library (reserved: tools never write there). */
export function isLibraryPath(taskPath: string): boolean {
  try {
    return parseLibraryPath(taskPath) !== null;
  } catch {
    return true;
  }
}

/** The library a scope means for a task: its project's, or the personal one. */
export function libraryOfScope(scope: LibraryScope, projectId: string | null): LibraryId | null {
  return scope === 'personal' ? PERSONAL_LIBRARY : projectId;
}

/** How a task names a library file. */
export function libraryTaskPath(scope: LibraryScope, path: string): string {
  return `${LIBRARY_PREFIX}/${LIBRARY_SCOPES[scope]}/${path}`;
}

export const LIBRARY_READ_ONLY_MESSAGE =
  'library/ is read-only: the library is shared by every task of the project. Write your own files under work/.';
