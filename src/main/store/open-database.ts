// Opens Folio's one SQLite file: refuses data written by a newer schema before touching it, checks
// the file is sound (a damaged one raises DatabaseCorruptError, never a raw SqliteError or a
// silently empty start), then sets the connection pragmas, backs up and applies pending migrations.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { FolioError } from '../../shared/errors';
import { type BackupInfo, backupBeforeMigration, listBackups } from './backups';
import { type SqliteMigration, migrations } from './migrations';

export type CorruptionKind = 'damaged' | 'empty' | 'blank' | 'not_sqlite' | 'missing' | 'not_a_file' | 'wrong_schema';

/** folio.db cannot be used as it is; `backup` is the newest backup that restoring would bring back. */
export class DatabaseCorruptError extends FolioError {
  readonly kind: CorruptionKind;
  readonly dbPath: string;
  readonly backup: BackupInfo | null;
  constructor(kind: CorruptionKind, dbPath: string, detail: string) {
    const backup = listBackups(dbPath)[0] ?? null;
    const what = {
      damaged: 'is damaged',
      empty: 'is empty (0 bytes) although Folio had saved data in it',
      blank: 'is a blank database although Folio had saved data in it',
      not_sqlite: 'is no longer an SQLite database',
      missing: 'is missing although Folio had saved data in it',
      not_a_file: 'is not a file',
      wrong_schema: 'lacks tables Folio keeps its data in',
    }[kind];
    const offer = backup
      ? `A backup from ${new Date(backup.created_at).toISOString()} can be restored (Settings, or \`folio db restore\` with Folio closed); the damaged file is kept beside it.`
      : 'No backup was found; nothing was changed.';
    super('database_corrupt', `Folio's database ${dbPath} ${what} (${detail}). ${offer}`, { name: 'DatabaseCorruptError' });
    this.kind = kind;
    this.dbPath = dbPath;
    this.backup = backup;
  }
}

/** Another program holds folio.db locked past the busy timeout; nothing was changed. */
export class DatabaseLockedError extends FolioError {
  constructor(dbPath: string) {
    super('unavailable', `Folio's database ${dbPath} is locked by another program (another Folio, or a database tool holding it open). Close it and start Folio again; nothing was changed.`, {
      name: 'DatabaseLockedError',
    });
  }
}

/** The most errors quick_check reports: one proves damage, and stopping there bounds its time on a bad file. */
const QUICK_CHECK_LIMIT = 1;

export interface OpenDatabaseOptions {
  /** Clock for backup names (ms epoch); tests pin it. */
  now?: () => number;
}

const SQLITE_MAGIC = 'SQLite format 3\0';
const USER_VERSION_OFFSET = 60;

export function openDatabase(dbPath: string, known: readonly SqliteMigration[] = migrations, opts: OpenDatabaseOptions = {}): Database.Database {
  const newest = Math.max(0, ...known.map((m) => m.version));
  const now = opts.now ?? Date.now;
  // Backups exist only once Folio has saved data here: they tell a damaged file from a new one.
  const hadData = () => listBackups(dbPath).length > 0;
  let stat: fs.Stats | null = null;
  try {
    stat = fs.statSync(dbPath);
  } catch {
    // Absent: a new database, unless backups say data was saved here.
  }
  if (stat === null && hadData()) throw new DatabaseCorruptError('missing', dbPath, 'the file is gone');
  if (stat !== null && !stat.isFile()) throw new DatabaseCorruptError('not_a_file', dbPath, stat.isDirectory() ? 'a folder has its name' : 'something other than a file has its name');
  if (stat !== null) {
    if (fs.statSync(dbPath).size === 0 && !walHasContent(dbPath) && hadData()) {
      throw new DatabaseCorruptError('empty', dbPath, 'the file was emptied');
    }
    // Setting journal_mode=WAL or running a migration writes to the file, so the version check has to
    // happen on a path that cannot write: an older Folio must leave a newer Folio's data exactly as it was.
    let version: number;
    try {
      version = readUserVersion(dbPath);
      assertNotTooNew(version, newest);
    } catch (err) {
      if (err instanceof NotSqliteError && hadData()) throw new DatabaseCorruptError('not_sqlite', dbPath, 'its header is not an SQLite header');
      throw asCorrupt(err, dbPath);
    }
    // Folio's own file always has a schema version once it holds data: a version-0 file where backups
    // prove data was saved is another file put in its place (blank, or some other program's). Checked
    // read-only, before anything (journal mode, migrations) writes to it.
    if (version === 0 && stat.size > 0 && hadData()) {
      let tables: Set<string>;
      try {
        tables = readOnly(dbPath, tableNames);
      } catch (err) {
        throw asCorrupt(err, dbPath);
      }
      if (tables.size === 0) throw new DatabaseCorruptError('blank', dbPath, 'it holds no tables');
      throw new DatabaseCorruptError('wrong_schema', dbPath, 'it has no Folio schema version');
    }
  }
  fs.mkdirSync(path.dirname(dbPath), { recursive: true, mode: 0o700 });

  let db: Database.Database;
  try {
    db = new Database(dbPath);
  } catch (err) {
    throw asCorrupt(err, dbPath);
  }
  keepPrivate(dbPath);
  try {
    db.pragma('busy_timeout = 5000');
    db.pragma('journal_mode = WAL');
    // In WAL mode with synchronous=NORMAL a commit is in the WAL (in the OS page cache) when the call
    // returns, and the WAL is fsynced at checkpoints. A crash of the Folio process therefore loses
    // nothing that was committed; only an OS crash or power loss can drop the last few transactions,
    // and even then the database stays consistent. That trade buys far fewer fsyncs per message.
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    const problems = db.prepare<[], string>(`PRAGMA quick_check(${QUICK_CHECK_LIMIT})`).pluck().all();
    if (problems.join() !== 'ok') throw new DatabaseCorruptError('damaged', dbPath, problems.join('; ').replace(/\s+/g, ' ').trim());
    const current = userVersion(db);
    if (current > 0 && current < newest) backupBeforeMigration(db, dbPath, newest, now());
    migrate(db, known, newest);
    // The WAL and its index exist once the journal mode is set: they hold the same data.
    keepPrivate(dbPath);
    const missing = [...expectedTables(known)].filter((t) => !tableNames(db).has(t));
    if (missing.length > 0) throw new DatabaseCorruptError('wrong_schema', dbPath, `missing: ${missing.slice(0, 5).join(', ')}`);
    return db;
  } catch (err) {
    db.close();
    throw asCorrupt(err, dbPath);
  }
}

/** SQLite's own "this file is damaged" errors become the typed error; everything else passes through. */
function asCorrupt(err: unknown, dbPath: string): unknown {
  if (err instanceof Database.SqliteError && /^SQLITE_(CORRUPT|NOTADB)/.test(err.code)) {
    return new DatabaseCorruptError('damaged', dbPath, err.message);
  }
  if (err instanceof Database.SqliteError && /^SQLITE_(BUSY|LOCKED)/.test(err.code)) return new DatabaseLockedError(dbPath);
  // A schema that does not match the migrations (a table dropped or changed by hand): a migration or a
  // check fails on it. Reported as damage with the restore offer, never as a raw SqliteError.
  if (err instanceof Database.SqliteError && /^SQLITE_(ERROR|CONSTRAINT)/.test(err.code)) {
    return new DatabaseCorruptError('wrong_schema', dbPath, err.message);
  }
  return err;
}

/** folio.db and its WAL files readable by the person alone (SQLite creates them with the umask's mode). */
function keepPrivate(dbPath: string): void {
  for (const file of [dbPath, `${dbPath}-wal`, `${dbPath}-shm`]) {
    try {
      fs.chmodSync(file, 0o600);
    } catch {
      // Not there (yet), or a file system without modes.
    }
  }
}

function tableNames(db: Database.Database): Set<string> {
  return new Set(db.prepare<[], string>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").pluck().all());
}

const expectedCache = new WeakMap<readonly SqliteMigration[], Set<string>>();
/** The tables the migrations make, found by applying them to a scratch in-memory database once. */
function expectedTables(known: readonly SqliteMigration[]): Set<string> {
  let tables = expectedCache.get(known);
  if (!tables) {
    const scratch = new Database(':memory:');
    try {
      for (const m of [...known].sort((a, b) => a.version - b.version)) scratch.exec(m.sql);
      tables = tableNames(scratch);
    } finally {
      scratch.close();
    }
    expectedCache.set(known, tables);
  }
  return tables;
}

function walHasContent(dbPath: string): boolean {
  const walPath = `${dbPath}-wal`;
  return fs.existsSync(walPath) && fs.statSync(walPath).size > 0;
}

class NotSqliteError extends FolioError {
  constructor(dbPath: string) {
    super('unsupported', `${dbPath} is not a Folio database (not an SQLite file); it was left untouched.`);
  }
}

function migrate(db: Database.Database, known: readonly SqliteMigration[], newest: number): void {
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
  if (!walHasContent(dbPath)) {
    const header = Buffer.alloc(100);
    const fd = fs.openSync(dbPath, 'r');
    let read: number;
    try {
      read = fs.readSync(fd, header, 0, header.length, 0);
    } finally {
      fs.closeSync(fd);
    }
    if (read === 0) return 0; // an empty file is a new database
    if (read < header.length || header.toString('latin1', 0, SQLITE_MAGIC.length) !== SQLITE_MAGIC) throw new NotSqliteError(dbPath);
    return header.readInt32BE(USER_VERSION_OFFSET);
  }
  return readOnly(dbPath, userVersion);
}

function readOnly<T>(dbPath: string, read: (db: Database.Database) => T): T {
  const ro = new Database(dbPath, { readonly: true, fileMustExist: true });
  try {
    return read(ro);
  } finally {
    ro.close();
  }
}
