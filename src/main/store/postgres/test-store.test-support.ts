// A PostgreSQL store port on a database of the run's throwaway cluster, for suites that run
// against either backend (`FOLIO_TEST_STORE=postgres`, read by ../test-store.test-support.ts, which
// returns this when asked). Call only where pgSkipReason() is null.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import type * as TestDatabase from '../../../../testing/postgres/test-database';
import { LOCAL_SCOPE, type Scope, type StorePort } from '../port';
import { openPgStore, type PgBackend } from './index';

export interface PgTestStore {
  port: StorePort;
  /** The backend, for a second scope (tenancy tests) or the pool (tables of other modules). */
  backend: PgBackend;
  /** Closes the pool (and drops the database when it belongs to this store alone). */
  close(): Promise<void>;
}

// Imported lazily: test-database reads the cluster's address from vitest's injected context, which
// a crash fixture's child process (plain node) does not have; it only reopens a known database.
async function testDatabase(): Promise<typeof TestDatabase> {
  return import('../../../../testing/postgres/test-database');
}

export async function openPgTestStore(options: { now?: () => number; scope?: Scope } = {}): Promise<PgTestStore> {
  const db = await (await testDatabase()).createTestDatabase({ migrated: true });
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

const URL_FILE = 'pg-test-database.url';

/**
 * The store of a data folder: a fresh database on first open, whose URL the folder keeps, so a
 * restart or a child process reopens the same data. The database outlives close() (a later
 * restart needs it) and goes with the throwaway cluster at the end of the run.
 */
export async function openPgTestStoreIn(dataDir: string, options: { now?: () => number } = {}): Promise<PgTestStore> {
  const file = join(dataDir, URL_FILE);
  let url: string;
  if (existsSync(file)) {
    url = readFileSync(file, 'utf8').trim();
  } else {
    url = (await (await testDatabase()).createTestDatabase({ migrated: true })).url;
    writeFileSync(file, url);
  }
  const backend = await openPgStore(url, { now: options.now, poolSize: 4 });
  return { port: backend.scope(LOCAL_SCOPE), backend, close: () => backend.close() };
}

async function withTestDatabase<T>(dataDir: string, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: readFileSync(join(dataDir, URL_FILE), 'utf8').trim() });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

/** Rows of a query on the data folder's database. */
export async function pgTestQuery<Row>(dataDir: string, sql: string, params: unknown[]): Promise<Row[]> {
  return withTestDatabase(dataDir, async (client) => (await client.query(sql, params)).rows as Row[]);
}

/** Whether any row of any table of the data folder's database holds `needle` as text. */
export async function pgTestDatabaseContains(dataDir: string, needle: string): Promise<boolean> {
  if (!existsSync(join(dataDir, URL_FILE))) return false;
  return withTestDatabase(dataDir, async (client) => {
    const tables = await client.query<{ name: string }>(
      `SELECT quote_ident(table_schema) || '.' || quote_ident(table_name) AS name FROM information_schema.tables
       WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema')`,
    );
    for (const { name } of tables.rows) {
      const hit = await client.query(`SELECT 1 FROM ${name} t WHERE strpos(t::text, $1) > 0 LIMIT 1`, [needle]);
      if (hit.rowCount) return true;
    }
    return false;
  });
}
