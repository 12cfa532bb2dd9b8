// The core's database and its data folder: the folder's lock (one process owns it), the start-up
// clean-up only the owner may do, and the daily backup of a SQLite file.
import { chmodSync } from 'node:fs';
import { join } from 'node:path';
import { FolioError } from '../../shared/errors';
import { acquireDataLock, type DataLock } from '../config/data-lock';
import { sweepScratch } from '../workspace/scratch';
import type { OpenedStorePort, StorePort } from '../store/port';
import { openSqliteStorePort, sqliteMaintenance } from '../store/sqlite-port';

/** How long after start the daily database backup waits, so it does not delay the first requests. */
const BACKUP_DELAY_MS = 1000;

export interface CoreStore {
  store: StorePort;
  /** Whether this process owns the data folder (a team core never does; a second desktop process neither). */
  owned: boolean;
  close(): Promise<void>;
}

export interface CoreStoreOptions {
  dataDir: string;
  /** Already opened (tests, the team service's PostgreSQL); default: `folio.db` in the data folder. */
  store?: OpenedStorePort;
  /** false: a short-lived command may run beside the app that owns the folder. */
  exclusive?: boolean;
  /** A team core shares the tenant's folder between workers: no lock, no clean-up at start. */
  shared: boolean;
}

function keepFolderPrivate(dir: string): void {
  try {
    chmodSync(dir, 0o700);
  } catch {
    // A file system without modes: nothing to tighten.
  }
}

export async function openCoreStore(opts: CoreStoreOptions): Promise<CoreStore> {
  const lock: DataLock = opts.shared ? { owned: false, holder: null, release: () => undefined } : acquireDataLock(opts.dataDir);
  if (!lock.owned && opts.exclusive !== false && !opts.shared) {
    await opts.store?.close();
    throw new FolioError('conflict', `Folio is already running on ${opts.dataDir}${lock.holder ? ` (process ${lock.holder})` : ''}; close it first or use another FOLIO_DATA_DIR.`);
  }
  // The owner keeps the data folder (keys, database, every task) to the person alone.
  if (lock.owned) keepFolderPrivate(opts.dataDir);
  let opened: OpenedStorePort;
  try {
    opened = opts.store ?? openSqliteStorePort(join(opts.dataDir, 'folio.db'));
  } catch (err) {
    // A damaged database (DatabaseCorruptError) or a newer schema: the caller decides what to tell
    // the person, and restoring needs the folder free.
    lock.release();
    throw err;
  }
  const store = opened.port;
  let backup: Promise<unknown> = Promise.resolve();
  let backupTimer: NodeJS.Timeout | undefined;
  const startBackup = () => {
    backupTimer = undefined;
    // A failed backup is reported, never fatal.
    backup = sqliteMaintenance(store)
      .backupIfDue()
      .catch((err: unknown) => console.warn(`[folio] database backup failed: ${err instanceof Error ? err.message : String(err)}`));
  };
  if (lock.owned) {
    try {
      // Lazy creation: tasks nobody used leave nothing behind; runs cut off by a stop are marked.
      // Only the owner may do this: another process's runs may be live.
      await store.tasks.purgeUnmaterialized();
      await store.runs.markRunningAsInterrupted();
      sweepScratch(opts.dataDir, 'owner');
    } catch (err) {
      await opened.close();
      lock.release();
      throw err;
    }
    // The database has just passed quick_check (openStore), so it is sound: the daily backup of it
    // (online, so the app answers meanwhile) starts once the first requests are answered, or at
    // close() if that comes first. Backups are the desktop's (SQLite) concern.
    if (store.dialect === 'sqlite') {
      backupTimer = setTimeout(startBackup, BACKUP_DELAY_MS);
      backupTimer.unref();
    }
  } else {
    // A process sharing the folder (a team worker) clears only what dead processes of this host left.
    sweepScratch(opts.dataDir, 'shared');
  }
  return {
    store,
    owned: lock.owned,
    async close() {
      if (backupTimer !== undefined) {
        clearTimeout(backupTimer);
        startBackup();
      }
      await backup;
      await opened.close();
      lock.release();
    },
  };
}
