// Library files and their extracted pages. A file belongs to a project's library or, with
// project_id NULL, to the personal library. Its pages are replaced in one transaction per file, and
// the FTS index follows the pages through triggers (migration 7), so a deleted file leaves no hits.
import type Database from 'better-sqlite3';
import type { IndexProgress, LibraryFileStatus } from '../../shared/contract/projects';
import { FolioError } from '../../shared/errors';
import { sqliteLibrarySearch } from './library-search';

import type { IndexedResult, LibraryFileRow, LibraryRepo, NewLibraryFile, PageText } from './library-types';

export type { LibraryFileRow, NewLibraryFile, IndexedResult, PageText, SearchScope, RankedPage, FoundPage, PageVector, PageToEmbed, LibraryRepo } from './library-types';

// NULL-safe library match: `IS` compares NULL to NULL as equal.
const inLibrary = 'project_id IS ?';

export function createLibraryRepo(db: Database.Database, now: () => number): LibraryRepo {
  const insert = db.prepare<NewLibraryFile & { now: number }, LibraryFileRow>(`
    INSERT INTO library_files (id, project_id, path, size, mtime_ms, sha256, status, created_at, updated_at)
    VALUES (@id, @project_id, @path, @size, @mtime_ms, @sha256, 'pending', @now, @now) RETURNING *`);
  const selectOne = db.prepare<[string | null, string], LibraryFileRow>(`SELECT * FROM library_files WHERE ${inLibrary} AND path = ?`);
  const selectById = db.prepare<[string], LibraryFileRow>('SELECT * FROM library_files WHERE id = ?');
  const selectList = db.prepare<[string | null], LibraryFileRow>(`SELECT * FROM library_files WHERE ${inLibrary} ORDER BY path`);
  const selectAll = db.prepare<[], LibraryFileRow>('SELECT * FROM library_files ORDER BY created_at, id');
  const selectBySha = db.prepare<[string | null, string], LibraryFileRow>(`SELECT * FROM library_files WHERE ${inLibrary} AND sha256 = ? ORDER BY created_at LIMIT 1`);
  const selectQueued = db.prepare<[], LibraryFileRow>(`SELECT * FROM library_files WHERE status IN ('pending', 'indexing') ORDER BY created_at, id`);
  // Bytes the stored pages already come from (a file changed and changed back) need no extraction.
  const updateChanged = db.prepare(`
    UPDATE library_files SET size = @size, mtime_ms = @mtime_ms, sha256 = @sha256, updated_at = @now,
      status = CASE WHEN indexed_sha256 IS @sha256 AND status NOT IN ('pending', 'indexing') THEN status ELSE 'pending' END
    WHERE id = @id`);
  const updateMtime = db.prepare<[number, string]>('UPDATE library_files SET mtime_ms = ? WHERE id = ?');
  const updateStatus = db.prepare<[LibraryFileStatus, number, string]>('UPDATE library_files SET status = ?, updated_at = ? WHERE id = ?');
  const deletePages = db.prepare<[string]>('DELETE FROM library_pages WHERE file_id = ?');
  const insertPage = db.prepare<[string, number, string]>('INSERT INTO library_pages (file_id, page, text) VALUES (?, ?, ?)');
  const updateIndexed = db.prepare(`
    UPDATE library_files SET status = @status, pages = @pages, message = @message, indexed_sha256 = @sha256, updated_at = @now
    WHERE id = @id AND sha256 = @sha256`);
  const selectPages = db.prepare<[string], PageText>('SELECT page, text FROM library_pages WHERE file_id = ? ORDER BY page');
  const deleteOne = db.prepare<[string | null, string]>(`DELETE FROM library_files WHERE ${inLibrary} AND path = ?`);
  const selectProgress = db.prepare<[string | null, string | null, string | null], IndexProgress>(`
    SELECT
      (SELECT count(*) FROM library_files WHERE ${inLibrary}) AS total_files,
      (SELECT count(*) FROM library_files WHERE ${inLibrary} AND status IN ('pending', 'indexing')) AS queued_files,
      count(p.id) AS indexed_pages,
      count(p.embedding) AS embedded_pages
    FROM library_pages p JOIN library_files f ON f.id = p.file_id WHERE f.project_id IS ?`);
  const selectCount = db.prepare<[string | null], number>(`SELECT count(*) FROM library_files WHERE ${inLibrary}`).pluck();

  const replace = db.transaction((id: string, pages: readonly PageText[], result: IndexedResult): boolean => {
    // Checked inside the transaction: a file deleted or changed while it was extracted keeps no stale pages.
    const changed = updateIndexed.run({ id, status: result.status, pages: result.pages, message: result.message, sha256: result.sha256, now: now() });
    if (changed.changes === 0) return false;
    deletePages.run(id);
    for (const p of pages) insertPage.run(id, p.page, p.text);
    return true;
  });

  return {
    add(file) {
      try {
        const row = insert.get({ ...file, now: now() });
        if (!row) throw new Error('INSERT ... RETURNING returned no row');
        return row;
      } catch (err) {
        if (err instanceof Error && 'code' in err && String(err.code).startsWith('SQLITE_CONSTRAINT')) {
          throw new FolioError('conflict', `The library already has ${file.path}`, { cause: err });
        }
        throw err;
      }
    },
    get: (projectId, path) => selectOne.get(projectId, path),
    byId: (id) => selectById.get(id),
    list: (projectId) => selectList.all(projectId),
    all: () => selectAll.all(),
    findBySha: (projectId, sha256) => selectBySha.get(projectId, sha256),
    queued: () => selectQueued.all(),
    changed(id, stat) {
      updateChanged.run({ id, ...stat, now: now() });
    },
    touched(id, mtimeMs) {
      updateMtime.run(mtimeMs, id);
    },
    setStatus(id, status) {
      updateStatus.run(status, now(), id);
    },
    replacePages: (id, pages, result) => replace(id, pages, result),
    pages: (id) => selectPages.all(id),
    delete: (projectId, path) => deleteOne.run(projectId, path).changes > 0,
    progress: (projectId) => selectProgress.get(projectId, projectId, projectId) ?? { total_files: 0, queued_files: 0, indexed_pages: 0, embedded_pages: 0 },
    fileCount: (projectId) => selectCount.get(projectId) ?? 0,
    ...sqliteLibrarySearch(db),
  };
}
