// The index of a task's files (sources, working files, artifacts); the bytes live on disk.
import type Database from 'better-sqlite3';
import { type FileEntry } from '../../shared/contract/entities';
import { type FileRow, toFileEntry } from './rows';
import { withTaskConstraints } from './sqlite-errors';

export interface FilesRepo {
  /** Inserts or replaces the entry at (task_id, path); also marks the task materialized. */
  upsert(entry: FileEntry): FileEntry;
  /** Sorted by path. */
  list(taskId: string): FileEntry[];
  get(taskId: string, path: string): FileEntry | undefined;
  delete(taskId: string, path: string): boolean;
}

export function createFilesRepo(db: Database.Database): FilesRepo {
  const upsert = db.prepare<FileEntry, FileRow>(`
    INSERT INTO files (task_id, path, kind, size, sha256, created_at)
    VALUES (@task_id, @path, @kind, @size, @sha256, @created_at)
    ON CONFLICT (task_id, path) DO UPDATE SET
      kind = excluded.kind, size = excluded.size, sha256 = excluded.sha256, created_at = excluded.created_at
    RETURNING *`);
  const materialize = db.prepare<[string]>('UPDATE tasks SET materialized = 1 WHERE id = ? AND materialized = 0');
  const selectForTask = db.prepare<[string], FileRow>('SELECT * FROM files WHERE task_id = ? ORDER BY path');
  const selectOne = db.prepare<[string, string], FileRow>('SELECT * FROM files WHERE task_id = ? AND path = ?');
  const deleteOne = db.prepare<[string, string]>('DELETE FROM files WHERE task_id = ? AND path = ?');

  const upsertTx = db.transaction((entry: FileEntry): FileEntry => {
    const row = upsert.get({
      task_id: entry.task_id,
      path: entry.path,
      kind: entry.kind,
      size: entry.size,
      sha256: entry.sha256,
      created_at: entry.created_at,
    });
    if (row === undefined) throw new Error('INSERT ... RETURNING returned no row');
    materialize.run(entry.task_id);
    return toFileEntry(row);
  });

  return {
    upsert(entry) {
      return withTaskConstraints(entry.task_id, `File ${entry.path}`, () => upsertTx(entry));
    },
    list(taskId) {
      return selectForTask.all(taskId).map(toFileEntry);
    },
    get(taskId, path) {
      const row = selectOne.get(taskId, path);
      return row === undefined ? undefined : toFileEntry(row);
    },
    delete(taskId, path) {
      return deleteOne.run(taskId, path).changes > 0;
    },
  };
}
