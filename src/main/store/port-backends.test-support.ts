// The store port's backends as the contract suite (port-contract.test.ts) opens them: SQLite in a
// temp folder and PostgreSQL on the run's throwaway cluster (skipped, saying why, without it).
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { openStore } from './index';
import { LOCAL_SCOPE, type Scope, type StorePort } from './port';
import { sqlitePort } from './sqlite-port';
import { openPgStore, type PgBackend } from './postgres/index';
import { makeTempDir } from './test-helpers';
import { createTestDatabase, pgSkipReason } from '../../../testing/postgres/test-database';

export interface OpenedPort {
  port: StorePort;
  /** The same store seen by another tenant/user (PostgreSQL only scopes; SQLite has one tenant). */
  as(scope: Scope): StorePort;
  /** The first column of the first row of a query written to read the same in both dialects. */
  scalar(sql: string): Promise<unknown>;
  close(): Promise<void>;
}

export interface PortBackend {
  name: 'sqlite' | 'postgres';
  /** Why this backend cannot run here, or null. */
  skip(): string | null;
  /** Once per test file. */
  setUp(): Promise<void>;
  tearDown(): Promise<void>;
  /** A fresh, empty store per test. */
  open(options?: { now?: () => number }): Promise<OpenedPort>;
}

export const sqliteBackend: PortBackend = {
  name: 'sqlite',
  skip: () => null,
  setUp: () => Promise.resolve(),
  tearDown: () => Promise.resolve(),
  open(options = {}) {
    const temp = makeTempDir();
    const store = openStore(temp.dbPath, options);
    return Promise.resolve({
      port: sqlitePort(store),
      as: (scope: Scope) => sqlitePort(store, scope),
      scalar: (sql: string) => Promise.resolve(store.db.prepare(sql).pluck().get()),
      close() {
        store.close();
        temp.cleanup();
        return Promise.resolve();
      },
    });
  },
};

/** Every table a test can write, emptied between tests (one database per file is much faster than one per test). */
const TABLES = 'tasks, projects, library_files, settings, tenants, users, usage_events, quotas, run_events, run_leases, workers';

function postgresBackend(): PortBackend {
  let db: Awaited<ReturnType<typeof createTestDatabase>> | undefined;
  return {
    name: 'postgres',
    skip: pgSkipReason,
    async setUp() {
      db = await createTestDatabase();
    },
    async tearDown() {
      await db?.drop();
    },
    async open(options = {}) {
      if (!db) throw new Error('postgresBackend.setUp was not awaited');
      const backend: PgBackend = await openPgStore(db.url, { ...options, poolSize: 4 });
      await backend.pool.query(`TRUNCATE ${TABLES} RESTART IDENTITY CASCADE`);
      return {
        port: backend.scope(LOCAL_SCOPE),
        as: (scope: Scope) => backend.scope(scope),
        async scalar(sql: string) {
          const { rows } = await backend.pool.query<Record<string, unknown>>(sql);
          return rows.length === 0 ? undefined : Object.values(rows[0])[0];
        },
        close: () => backend.close(),
      };
    },
  };
}

export const portBackends: readonly PortBackend[] = [sqliteBackend, postgresBackend()];

/**
 * A suite's store on `backend`, fresh for each test: the backend set up once, a new store before
 * each test (then `seed`), closed after. Returns the running test's store. Nothing runs when the
 * backend is skipped (the suite's tests skip themselves).
 */
export function freshStoreEach(backend: PortBackend, seed: (opened: OpenedPort) => Promise<void> = async () => undefined): () => OpenedPort {
  const skip = backend.skip() !== null;
  let opened: OpenedPort | undefined;
  beforeAll(async () => {
    if (!skip) await backend.setUp();
  });
  afterAll(async () => {
    if (!skip) await backend.tearDown();
  });
  beforeEach(async () => {
    if (skip) return;
    opened = await backend.open();
    await seed(opened);
  });
  afterEach(async () => {
    await opened?.close();
    opened = undefined;
  });
  return () => {
    if (!opened) throw new Error('no store: the backend is skipped, or this runs outside a test');
    return opened;
  };
}
