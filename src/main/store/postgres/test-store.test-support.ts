// A PostgreSQL store port on a fresh database of the run's throwaway cluster, for suites that run
// against either backend (`FOLIO_TEST_STORE=postgres`, read by ../test-store.test-support.ts, which
// returns this when asked). Call only where pgSkipReason() is null.
import { createTestDatabase, pgSkipReason } from '../../../../testing/postgres/test-database';
import { LOCAL_SCOPE, type Scope, type StorePort } from '../port';
import { openPgStore, type PgBackend } from './index';

export { pgSkipReason };

export interface PgTestStore {
  port: StorePort;
  /** The backend, for a second scope (tenancy tests) or the pool (tables of other modules). */
  backend: PgBackend;
  /** Closes the pool and drops the database. */
  close(): Promise<void>;
}

export async function openPgTestStore(options: { now?: () => number; scope?: Scope } = {}): Promise<PgTestStore> {
  const db = await createTestDatabase();
  let backend: PgBackend;
  try {
    backend = await openPgStore(db.url, { now: options.now, poolSize: 4 });
  } catch (err) {
    await db.drop();
    throw err;
  }
  return {
    port: backend.scope(options.scope ?? LOCAL_SCOPE),
    backend,
    async close() {
      await backend.close();
      await db.drop();
    },
  };
}

