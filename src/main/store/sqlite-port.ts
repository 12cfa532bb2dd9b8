// The async store port over the synchronous SQLite store. Every repository method is
// the sync one lifted to a promise; transactions are real SQLite transactions held open across the
// awaits of the caller's function.
//
// better-sqlite3's own transactions cannot span an await, so a transaction here is BEGIN IMMEDIATE
// … COMMIT issued by hand, and transactions are serialised by an async mutex (one connection holds
// one transaction at a time). Nested ones (tx.transaction) are savepoints.
//
// The caveat of one connection: while a transaction's function awaits, other async chains keep
// running, and a write they make through the plain port (not through a transaction) lands inside
// the open transaction — it commits with it, or vanishes if it rolls back. On SQLite every lifted
// call settles at once (no I/O), so a transaction whose function only awaits the store holds it for
// a few microtasks; keep transactions to store work and do slow I/O (files, network) outside them.
import type Database from 'better-sqlite3';
import { FolioError } from '../../shared/errors';
import { openStore, type Store } from './index';
import { LOCAL_SCOPE, type AsyncRepo, type OpenedStorePort, type Scope, type StorePort } from './port';

/** A repository whose methods return promises of the sync ones' results (a sync throw rejects). */
function lift<R extends object>(repo: R): AsyncRepo<R> {
  const lifted: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(repo)) {
    if (typeof value !== 'function') {
      lifted[key] = value;
      continue;
    }
    const method = value as (...args: unknown[]) => unknown;
    // async: a sync throw (a constraint, NotFoundError) becomes a rejection, as on PostgreSQL.
    lifted[key] = async (...args: unknown[]) => method.apply(repo, args);
  }
  return lifted as AsyncRepo<R>;
}

/** One waiter at a time, in arrival order. */
class Mutex {
  private tail: Promise<void> = Promise.resolve();

  async lock(): Promise<() => void> {
    let release!: () => void;
    const next = new Promise<void>((resolve) => (release = resolve));
    const previous = this.tail;
    this.tail = previous.then(() => next);
    await previous;
    return release;
  }
}

/** The sync store behind each SQLite port (and its transaction ports), for SQLite-only features. */
const backing = new WeakMap<StorePort, Store>();

export function sqlitePort(store: Store, scope: Scope = LOCAL_SCOPE): StorePort {
  const repos = {
    tasks: lift(store.tasks),
    messages: lift(store.messages),
    runs: lift(store.runs),
    files: lift(store.files),
    approvals: lift(store.approvals),
    grants: lift(store.grants),
    settings: lift(store.settings),
    projects: lift(store.projects),
    library: lift(store.library),
  };
  const usage = async () => store.usage();
  const topLevel = new Mutex();
  let savepoints = 0;

  const portAt = (depth: number): StorePort => {
    // Savepoints of one transaction are serialised too: two at once from one transaction would
    // interleave their RELEASEs.
    const nested = new Mutex();
    const port: StorePort = {
      dialect: 'sqlite',
      scope,
      ...repos,
      usage,
      // One transaction at a time already (the mutex above): nothing more to wait for.
      lockTenant: () => Promise.resolve(),
      async transaction<T>(fn: (tx: StorePort) => Promise<T>): Promise<T> {
        const release = await (depth === 0 ? topLevel : nested).lock();
        const name = `folio_sp_${++savepoints}`;
        try {
          store.db.exec(depth === 0 ? 'BEGIN IMMEDIATE' : `SAVEPOINT ${name}`);
          let result: T;
          try {
            result = await fn(portAt(depth + 1));
          } catch (err) {
            if (depth === 0) {
              if (store.db.inTransaction) store.db.exec('ROLLBACK');
            } else {
              store.db.exec(`ROLLBACK TO ${name}`);
              store.db.exec(`RELEASE ${name}`);
            }
            throw err;
          }
          if (depth > 0) {
            store.db.exec(`RELEASE ${name}`);
            return result;
          }
          try {
            store.db.exec('COMMIT');
          } catch (err) {
            if (store.db.inTransaction) store.db.exec('ROLLBACK');
            throw err;
          }
          return result;
        } finally {
          release();
        }
      },
    };
    backing.set(port, store);
    return port;
  };
  return portAt(0);
}

function sqliteStore(port: StorePort, what: string): Store {
  const store = backing.get(port);
  if (port.dialect !== 'sqlite' || !store) throw new FolioError('unsupported', `${what} is not available on PostgreSQL yet`);
  return store;
}

/** The raw SQLite connection under a port, for what is SQLite-only (the backups' folder, tests' queries). */
export function sqliteDatabase(port: StorePort): Database.Database {
  return sqliteStore(port, 'The SQLite connection').db;
}

/** The desktop's database maintenance (integrity check, daily backups), SQLite-only. */
export function sqliteMaintenance(port: StorePort): Pick<Store, 'integrityCheck' | 'backupIfDue'> {
  return sqliteStore(port, 'Database maintenance');
}

/** Opens (creating and migrating) the SQLite database at dbPath as a port; see openStore for the errors. */
export function openSqliteStorePort(dbPath: string, scope: Scope = LOCAL_SCOPE): OpenedStorePort & { store: Store } {
  const store = openStore(dbPath);
  return {
    store,
    port: sqlitePort(store, scope),
    close: () => {
      store.close();
      return Promise.resolve();
    },
  };
}
