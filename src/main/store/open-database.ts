// Opens Folio's one SQLite file: refuses data written by a newer schema before touching it, then sets
// the connection pragmas and applies pending migrations.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { FolioError } from '../../shared/errors';
import { type Migration, migrations } from './migrations';

const SQLITE_MAGIC = 'SQLite format 3\0';
const USER_VERSION_OFFSET = 60;

export function openDatabase(dbPath: string, known: readonly Migration[] = migrations): Database.Database {
  const newest = Math.max(0, ...known.map((m) => m.version));
  // Setting journal_mode=WAL or running a migration writes to the file, so the version check has to
  // happen on a path that cannot write: an older Folio must leave a newer Folio's data exactly as it was.
  if (fs.existsSync(dbPath)) assertNotTooNew(readUserVersion(dbPath), newest);
  fs.mkdirSync(path.dirname(dbPath), { recursive: true });

  const db = new Database(dbPath);
  try {
    db.pragma('busy_timeout = 5000');
    db.pragma('journal_mode = WAL');
    // In WAL mode with synchronous=NORMAL a commit is in the WAL (in the OS page cache) when the call
    // returns, and the WAL is fsynced at checkpoints. A crash of the Folio process therefore loses
    // nothing that was committed; only an OS crash or power loss can drop the last few transactions,
    // and even then the database stays consistent. That trade buys far fewer fsyncs per message.
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    migrate(db, known, newest);
    return db;
  } catch (err) {
    db.close();
    throw err;
  }
}

function migrate(db: Database.Database, known: readonly Migration[], newest: number): void {
  const pending = [...known].sort((a, b) => a.version - b.version);
  // IMMEDIATE takes the write lock before reading user_version, so two processes opening the same
  // folder cannot both decide to run the same migration.
  db.transaction(() => {
    const current = userVersion(db);
    assertNotTooNew(current, newest);
    for (const m of pending) {
      if (m.version <= current) continue;
      db.exec(m.sql);
      db.pragma(`user_version = ${m.version}`);
    }
  }).immediate();
}

function userVersion(db: Database.Database): number {
  const v: unknown = db.pragma('user_version', { simple: true });
  return typeof v === 'number' ? v : 0;
}

function assertNotTooNew(found: number, newest: number): void {
  if (found > newest) {
    throw new FolioError(
      'schema_too_new',
      `This data folder was written by a newer Folio (schema ${found}, this build knows ${newest}). Update Folio; the data was left untouched.`,
    );
  }
}

/**
 * Reads user_version without writing anything. With no WAL content the file header is authoritative and
 * is read directly; otherwise the newest header may live in the WAL, so a read-only connection reads it.
 */
function readUserVersion(dbPath: string): number {
  const walPath = `${dbPath}-wal`;
  const walHasContent = fs.existsSync(walPath) && fs.statSync(walPath).size > 0;
  if (!walHasContent) {
    const header = Buffer.alloc(100);
    const fd = fs.openSync(dbPath, 'r');
    let read: number;
    try {
      read = fs.readSync(fd, header, 0, header.length, 0);
    } finally {
      fs.closeSync(fd);
    }
    if (read === 0) return 0; // an empty file is a new database
    if (read < header.length || header.toString('latin1', 0, SQLITE_MAGIC.length) !== SQLITE_MAGIC) {
      throw new FolioError('unsupported', `${dbPath} is not a Folio database (not an SQLite file); it was left untouched.`);
    }
    return header.readInt32BE(USER_VERSION_OFFSET);
  }
  const ro = new Database(dbPath, { readonly: true, fileMustExist: true });
  try {
    return userVersion(ro);
  } finally {
    ro.close();
  }
}
