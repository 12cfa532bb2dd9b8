// Backups of folio.db in `<data>/backups/`: one a day (SQLite's online backup API, so the app keeps
// working while it copies) and one before each migration. Only the newest few are kept. A backup is
// written under a temporary name and renamed when complete, so a listed backup is always whole.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';

export const BACKUP_FOLDER = 'backups';
/** How many backups are kept (newest first); older ones are removed after each new one. */
export const KEEP_BACKUPS = 3;
export const BACKUP_INTERVAL_MS = 24 * 60 * 60 * 1000;

export interface BackupInfo {
  path: string;
  /** ms epoch, from the name (the name is what orders them, not the file's mtime). */
  created_at: number;
  reason: 'daily' | 'migration';
}

const BACKUP_NAME = /^folio-(\d{13})-(daily|before-v\d+)\.db$/;

export function backupDir(dbPath: string): string {
  return path.join(path.dirname(dbPath), BACKUP_FOLDER);
}

/** Complete backups, newest first. */
export function listBackups(dbPath: string): BackupInfo[] {
  const dir = backupDir(dbPath);
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  const out: BackupInfo[] = [];
  for (const name of names) {
    const match = BACKUP_NAME.exec(name);
    if (!match) continue;
    out.push({ path: path.join(dir, name), created_at: Number(match[1]), reason: match[2] === 'daily' ? 'daily' : 'migration' });
  }
  return out.sort((a, b) => b.created_at - a.created_at || b.path.localeCompare(a.path));
}

function newBackupPath(dbPath: string, now: number, label: string): { final: string; partial: string } {
  const dir = backupDir(dbPath);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  fs.chmodSync(dir, 0o700);
  const final = path.join(dir, `folio-${String(now).padStart(13, '0')}-${label}.db`);
  return { final, partial: `${final}.partial` };
}

/**
 * Synchronous copy taken inside openDatabase, before a migration changes the schema. VACUUM INTO
 * writes a consistent snapshot through SQLite itself (the async backup API cannot run there: the
 * migration must wait for it).
 */
export function backupBeforeMigration(db: Database.Database, dbPath: string, toVersion: number, now: number): string {
  const { final, partial } = newBackupPath(dbPath, now, `before-v${toVersion}`);
  fs.rmSync(partial, { force: true });
  try {
    db.prepare('VACUUM INTO ?').run(partial);
    asStandaloneFile(partial);
    fs.chmodSync(partial, 0o600);
    fs.renameSync(partial, final);
  } finally {
    fs.rmSync(partial, { force: true });
  }
  pruneBackups(dbPath);
  return final;
}

/** The daily backup, with better-sqlite3's online backup API; null when the newest is recent enough. */
export async function backupIfDue(db: Database.Database, dbPath: string, now: number): Promise<string | null> {
  const newest = listBackups(dbPath)[0];
  if (newest !== undefined && now - newest.created_at < BACKUP_INTERVAL_MS) return null;
  const { final, partial } = newBackupPath(dbPath, now, 'daily');
  try {
    await db.backup(partial);
    asStandaloneFile(partial);
    fs.chmodSync(partial, 0o600);
    fs.renameSync(partial, final);
  } finally {
    fs.rmSync(partial, { force: true });
  }
  pruneBackups(dbPath);
  return final;
}

/** A backup is one self-contained file: rollback journal, not WAL (no -wal/-shm beside it). */
function asStandaloneFile(file: string): void {
  const db = new Database(file, { fileMustExist: true });
  try {
    db.pragma('journal_mode = DELETE');
  } finally {
    db.close();
  }
}

export function pruneBackups(dbPath: string, keep = KEEP_BACKUPS): void {
  for (const old of listBackups(dbPath).slice(keep)) fs.rmSync(old.path, { force: true });
}

/** True when the file opens read-only and passes quick_check. */
export function isSoundDatabase(file: string): boolean {
  try {
    const db = new Database(file, { readonly: true, fileMustExist: true });
    try {
      return db.prepare<[], string>('PRAGMA quick_check(1)').pluck().get() === 'ok';
    } finally {
      db.close();
    }
  } catch {
    return false;
  }
}

export interface RestoreResult {
  restored: BackupInfo;
  /** Where the damaged database was moved (kept for inspection, never deleted by Folio). */
  corruptCopy: string | null;
}

/**
 * Puts the newest sound backup in place of folio.db. The database must be closed. The damaged file
 * (and its WAL and shared-memory files) is moved aside as `folio.db.corrupt-<time>`, never deleted.
 */
export function restoreNewestBackup(dbPath: string, now: number): RestoreResult | null {
  const backup = listBackups(dbPath).find((b) => isSoundDatabase(b.path));
  if (backup === undefined) return null;
  const stamp = new Date(now).toISOString().replace(/[:.]/g, '-');
  let corruptCopy: string | null = null;
  if (fs.existsSync(dbPath)) {
    corruptCopy = `${dbPath}.corrupt-${stamp}`;
    fs.renameSync(dbPath, corruptCopy);
  }
  for (const suffix of ['-wal', '-shm']) {
    if (fs.existsSync(dbPath + suffix)) fs.renameSync(dbPath + suffix, `${dbPath}.corrupt-${stamp}${suffix}`);
  }
  const partial = `${dbPath}.restoring`;
  fs.copyFileSync(backup.path, partial);
  fs.renameSync(partial, dbPath);
  return { restored: backup, corruptCopy };
}
