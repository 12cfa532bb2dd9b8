// Database health at start: each kind of damage is reported as DatabaseCorruptError (never a
// raw SqliteError, a store answering errors to everything, or a silently empty start), backups are
// kept daily and before migrations, and restoring brings the data back with the damaged file aside.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BACKUP_INTERVAL_MS, KEEP_BACKUPS, listBackups, restoreNewestBackup } from './backups';
import { DatabaseCorruptError, DatabaseLockedError, openStore, type Store } from './index';
import { FolioError } from '../../shared/errors';
import { type SqliteMigration, migrations } from './migrations';
import { openDatabase } from './open-database';
import { makeTempDir } from './test-helpers';

const DAY = BACKUP_INTERVAL_MS;
let temp: ReturnType<typeof makeTempDir>;
let store: Store | undefined;
let clock = 1_800_000_000_000;
const now = () => clock;

beforeEach(() => {
  temp = makeTempDir();
  clock = 1_800_000_000_000;
});
afterEach(() => {
  store?.close();
  store = undefined;
  temp.cleanup();
});

/** A store with enough rows to span many pages, backed up once, then closed (WAL checkpointed). */
async function storeWithDataAndBackup(): Promise<void> {
  const s = openStore(temp.dbPath, { now });
  s.tasks.create({ id: 'keep', mode: 'general', title: '要保留的任务', description: '', model: null });
  s.transaction(() => {
    for (let i = 0; i < 1500; i++) s.messages.append({ id: `m${i}`, task_id: 'keep', run_id: null, role: 'user', content: `message ${i} `.repeat(40) });
  });
  expect(await s.backupIfDue()).not.toBeNull();
  s.close();
}

function openError(): unknown {
  try {
    store = openStore(temp.dbPath, { now });
  } catch (err) {
    return err;
  }
  return null;
}

function expectRestoreBringsBack(): void {
  clock += 1000;
  const result = restoreNewestBackup(temp.dbPath, clock);
  expect(result).not.toBeNull();
  expect(result?.corruptCopy).toMatch(/folio\.db\.corrupt-\d{4}-\d\d-\d\dT/);
  expect(fs.existsSync(result?.corruptCopy ?? '')).toBe(true);
  store = openStore(temp.dbPath, { now });
  expect(store.tasks.get('keep')?.title).toBe('要保留的任务');
  expect(store.messages.list('keep', { limit: 500 }).messages.length).toBe(500);
  expect(store.integrityCheck()).toBe('ok');
}

describe('corruption at start', () => {
  it('garbage written over pages in the middle', async () => {
    await storeWithDataAndBackup();
    const size = fs.statSync(temp.dbPath).size;
    const fd = fs.openSync(temp.dbPath, 'r+');
    fs.writeSync(fd, Buffer.alloc(16 * 1024, 0x5a), 0, 16 * 1024, Math.floor(size / 2 / 4096) * 4096);
    fs.closeSync(fd);

    const err = openError();
    expect(err).toBeInstanceOf(DatabaseCorruptError);
    expect(err).toMatchObject({ code: 'database_corrupt', kind: 'damaged', name: 'DatabaseCorruptError' });
    expect((err as DatabaseCorruptError).backup?.reason).toBe('daily');
    expect((err as Error).message).toMatch(/is damaged .*A backup from .* can be restored/);
    expectRestoreBringsBack();
  });

  it('a file truncated to half its size', async () => {
    await storeWithDataAndBackup();
    fs.truncateSync(temp.dbPath, Math.floor(fs.statSync(temp.dbPath).size / 2));
    const err = openError();
    expect(err).toBeInstanceOf(DatabaseCorruptError);
    expect(err).not.toBeInstanceOf(Database.SqliteError);
    expect(err).toMatchObject({ kind: 'damaged' });
    expectRestoreBringsBack();
  });

  it('a 0-byte file where a database existed: never a silently empty start', async () => {
    await storeWithDataAndBackup();
    fs.truncateSync(temp.dbPath, 0);
    expect(openError()).toMatchObject({ code: 'database_corrupt', kind: 'empty' });
    // Reporting changed nothing: the empty file is still there for the person to restore over.
    expect(fs.statSync(temp.dbPath).size).toBe(0);
    expectRestoreBringsBack();
  });

  it('a header overwritten with garbage, when Folio had saved data there', async () => {
    await storeWithDataAndBackup();
    const fd = fs.openSync(temp.dbPath, 'r+');
    fs.writeSync(fd, Buffer.from('not sqlite at all'), 0, 17, 0);
    fs.closeSync(fd);
    expect(openError()).toMatchObject({ code: 'database_corrupt', kind: 'not_sqlite' });
    expectRestoreBringsBack();
  });

  it('a 0-byte file with no backup is a new database (nothing says data was lost)', () => {
    fs.writeFileSync(temp.dbPath, '');
    store = openStore(temp.dbPath, { now });
    expect(store.tasks.list({})).toEqual([]);
  });

  it('restores the newest backup that is itself sound, and reports when there is none', async () => {
    await storeWithDataAndBackup();
    expect(restoreNewestBackup(path.join(temp.dir, 'elsewhere', 'folio.db'), clock)).toBeNull();
    // A newer backup that is damaged is skipped.
    fs.writeFileSync(path.join(temp.dir, 'backups', `folio-${clock + 5000}-daily.db`), 'garbage');
    fs.truncateSync(temp.dbPath, 0);
    expectRestoreBringsBack();
  });
});

/** Flips every bit of `length` bytes at `offset` of folio.db. */
function flip(offset: number, length = 1): void {
  const fd = fs.openSync(temp.dbPath, 'r+');
  const buf = Buffer.alloc(length);
  fs.readSync(fd, buf, 0, length, offset);
  for (let i = 0; i < length; i++) buf[i] = (buf[i] ?? 0) ^ 0xff;
  fs.writeSync(fd, buf, 0, length, offset);
  fs.closeSync(fd);
}

function fingerprint(p: string): string {
  const stat = fs.statSync(p, { throwIfNoEntry: false });
  if (!stat) return 'absent';
  if (stat.isDirectory()) return `dir:${fs.readdirSync(p).join(',')}`;
  return `file:${fs.readFileSync(p).toString('base64')}`;
}

type Expected = { kind: string } | { code: string } | 'opens_with_data';

/** Each kind of damage tried against a folder where Folio had saved data and made a backup. */
const damages: [string, () => void, Expected][] = [
  ['missing (deleted, backups left)', () => fs.rmSync(temp.dbPath), { kind: 'missing' }],
  ['zero bytes', () => fs.truncateSync(temp.dbPath, 0), { kind: 'empty' }],
  ['a blank SQLite file put in its place', () => {
    fs.rmSync(temp.dbPath);
    const blank = new Database(temp.dbPath);
    blank.pragma('journal_mode = WAL');
    blank.close();
  }, { kind: 'blank' }],
  ['a blank SQLite file with one unrelated table', () => {
    fs.rmSync(temp.dbPath);
    const other = new Database(temp.dbPath);
    other.exec('CREATE TABLE notes (x TEXT)');
    other.close();
  }, { kind: 'wrong_schema' }],
  ['truncated to half', () => fs.truncateSync(temp.dbPath, Math.floor(fs.statSync(temp.dbPath).size / 2)), { kind: 'damaged' }],
  ['truncated to its first page', () => fs.truncateSync(temp.dbPath, 4096), { kind: 'damaged' }],
  ['truncated inside the header', () => fs.truncateSync(temp.dbPath, 50), { kind: 'not_sqlite' }],
  ['garbage over the header', () => flip(0, 16), { kind: 'not_sqlite' }],
  ['garbage over the whole file', () => fs.writeFileSync(temp.dbPath, Buffer.alloc(64 * 1024, 0x41)), { kind: 'not_sqlite' }],
  ['garbage in the middle', () => flip(Math.floor(fs.statSync(temp.dbPath).size / 2 / 4096) * 4096, 16 * 1024), { kind: 'damaged' }],
  ['a dropped table', () => {
    const db = new Database(temp.dbPath);
    db.exec('DROP TABLE settings');
    db.close();
  }, { kind: 'wrong_schema' }],
  ['a folder named folio.db', () => {
    fs.rmSync(temp.dbPath);
    fs.mkdirSync(temp.dbPath);
  }, { kind: 'not_a_file' }],
  ['a newer schema version', () => {
    const db = new Database(temp.dbPath);
    db.pragma(`user_version = ${Math.max(...migrations.map((m) => m.version)) + 1}`);
    db.close();
  }, { code: 'schema_too_new' }],
  ['a garbage WAL beside a sound file', () => fs.writeFileSync(`${temp.dbPath}-wal`, Buffer.alloc(32 * 1024, 0x33)), 'opens_with_data'],
  ['a byte flip in the page size', () => flip(16), { kind: 'damaged' }],
  ['a byte flip in the schema page type', () => flip(100), { kind: 'damaged' }],
  ['a byte flip in the second page type', () => flip(4096), { kind: 'damaged' }],
  ['byte flips in the last page', () => flip(fs.statSync(temp.dbPath).size - 4096, 8), { kind: 'damaged' }],
];

describe('every kind of damage at start', () => {
  it.each(damages)('%s: a typed error with the restore offer, the damaged file untouched, or the data intact', async (_label, damage, expected) => {
    await storeWithDataAndBackup();
    damage();
    const before = fingerprint(temp.dbPath);
    const err = openError();
    expect(err).not.toBeInstanceOf(Database.SqliteError);
    if (expected === 'opens_with_data') {
      expect(err).toBeNull();
      expect(store?.tasks.get('keep')?.title).toBe('要保留的任务');
      return;
    }
    expect(err).toBeInstanceOf(FolioError);
    if ('code' in expected) {
      expect(err).toMatchObject(expected);
      expect(fingerprint(temp.dbPath)).toBe(before);
      return;
    }
    expect(err).toBeInstanceOf(DatabaseCorruptError);
    expect(err).toMatchObject({ code: 'database_corrupt', ...expected });
    expect((err as Error).message).toMatch(/can be restored \(Settings, or `folio db restore`/u);
    // Reporting changed nothing, and restoring keeps the damaged file beside the restored one.
    expect(fingerprint(temp.dbPath)).toBe(before);
    clock += 1000;
    const restored = restoreNewestBackup(temp.dbPath, clock);
    expect(restored).not.toBeNull();
    if (before !== 'absent') expect(fingerprint(restored?.corruptCopy ?? '')).toBe(before);
    store = openStore(temp.dbPath, { now });
    expect(store.tasks.get('keep')?.title).toBe('要保留的任务');
  });

  it('a database another program holds locked: a typed error, nothing changed', async () => {
    await storeWithDataAndBackup();
    const holder = new Database(temp.dbPath);
    holder.pragma('locking_mode = EXCLUSIVE');
    holder.exec('BEGIN EXCLUSIVE');
    try {
      const err = openError();
      expect(err).toBeInstanceOf(DatabaseLockedError);
      expect((err as Error).message).toMatch(/locked by another program/u);
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
    }
    store = openStore(temp.dbPath, { now });
    expect(store.tasks.get('keep')?.title).toBe('要保留的任务');
  }, 20_000);
});

describe('file modes', () => {
  it.skipIf(process.platform === 'win32')('folio.db, its WAL files and every backup are 0600, the backups folder 0700', async () => {
    const old = process.umask(0o022);
    try {
      await storeWithDataAndBackup();
      store = openStore(temp.dbPath, { now });
      for (const file of [temp.dbPath, `${temp.dbPath}-wal`, `${temp.dbPath}-shm`]) expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      const backups = listBackups(temp.dbPath);
      expect(backups.length).toBeGreaterThan(0);
      for (const b of backups) expect(fs.statSync(b.path).mode & 0o777).toBe(0o600);
      expect(fs.statSync(path.dirname(backups[0]?.path ?? '')).mode & 0o777).toBe(0o700);
    } finally {
      process.umask(old);
    }
  });
});

describe('backups', () => {
  it('one a day, the newest few kept, each a standalone sound file', async () => {
    store = openStore(temp.dbPath, { now });
    store.tasks.create({ id: 't1', mode: 'general', title: 'one', description: '', model: null });
    expect(await store.backupIfDue()).not.toBeNull();
    clock += DAY / 2;
    expect(await store.backupIfDue()).toBeNull();
    for (let i = 0; i < KEEP_BACKUPS + 2; i++) {
      clock += DAY;
      expect(await store.backupIfDue()).not.toBeNull();
    }
    const backups = listBackups(temp.dbPath);
    expect(backups).toHaveLength(KEEP_BACKUPS);
    expect(backups[0].created_at).toBe(clock);
    expect(fs.readdirSync(path.join(temp.dir, 'backups')).sort()).toEqual(backups.map((b) => path.basename(b.path)).sort());
    const copy = new Database(backups[0].path, { readonly: true });
    expect(copy.pragma('journal_mode', { simple: true })).toBe('delete');
    expect(copy.prepare('SELECT title FROM tasks').pluck().get()).toBe('one');
    copy.close();
  });

  it('a copy before each migration, holding the schema as it was', () => {
    const v1 = migrations.filter((m) => m.version === 1);
    const next: SqliteMigration = { version: 2, sql: 'CREATE TABLE extra (x INTEGER) STRICT;' };
    const first = openDatabase(temp.dbPath, v1, { now });
    first.prepare("INSERT INTO settings (key, value) VALUES ('language', '\"en\"')").run();
    first.close();
    expect(listBackups(temp.dbPath)).toEqual([]);

    clock += 1000;
    const second = openDatabase(temp.dbPath, [...v1, next], { now });
    expect(second.pragma('user_version', { simple: true })).toBe(2);
    second.close();
    const [backup] = listBackups(temp.dbPath);
    expect(backup).toMatchObject({ reason: 'migration', created_at: clock });
    expect(path.basename(backup.path)).toBe(`folio-${clock}-before-v2.db`);
    const copy = new Database(backup.path, { readonly: true });
    expect(copy.pragma('user_version', { simple: true })).toBe(1);
    expect(copy.prepare("SELECT name FROM sqlite_master WHERE name = 'extra'").get()).toBeUndefined();
    expect(copy.prepare('SELECT value FROM settings').pluck().get()).toBe('"en"');
    copy.close();
  });
});
