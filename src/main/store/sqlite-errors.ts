// Turns the constraint failures a caller can cause into Folio's typed errors.
import Database from 'better-sqlite3';
import { FolioError, NotFoundError } from '../../shared/errors';

/** Runs a write that references a task; a missing task or a duplicate id becomes a typed error. */
export function withTaskConstraints<T>(taskId: string, what: string, write: () => T): T {
  try {
    return write();
  } catch (err) {
    if (err instanceof Database.SqliteError) {
      if (err.code === 'SQLITE_CONSTRAINT_FOREIGNKEY') throw new NotFoundError(`Task ${taskId} not found.`);
      if (err.code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || err.code === 'SQLITE_CONSTRAINT_UNIQUE') {
        throw new FolioError('conflict', `${what} already exists.`, { cause: err });
      }
    }
    throw err;
  }
}
