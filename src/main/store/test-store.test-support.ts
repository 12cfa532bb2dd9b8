// The one place the service and runs tests get their store from, so the whole suite can be pointed
// at another backend by one switch (FOLIO_TEST_STORE=postgres: a database on the run's throwaway
// cluster); the default is the desktop's SQLite file in the test's data folder.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { OpenedStorePort, StorePort } from './port';
import { openSqliteStorePort, sqliteDatabase } from './sqlite-port';

export function testStoreBackend(): 'sqlite' | 'postgres' {
  return process.env.FOLIO_TEST_STORE === 'postgres' ? 'postgres' : 'sqlite';
}

/** Why a SQLite-only test skips in this pass, or null on SQLite (for `it.skipIf(...)` titles). */
export function sqliteOnly(why: string): string | null {
  return testStoreBackend() === 'sqlite' ? null : `${why}; skipped on ${testStoreBackend()}`;
}

/**
 * The store of a data folder. On PostgreSQL the folder remembers its database, so a restart (a
 * second open of the same folder) or a crash fixture's child process finds the same data.
 */
export async function openTestStorePort(dataDir: string): Promise<OpenedStorePort> {
  if (testStoreBackend() === 'postgres') {
    const { openPgTestStoreIn } = await import('./postgres/test-store.test-support');
    const opened = await openPgTestStoreIn(dataDir);
    return { port: opened.port, close: () => opened.close() };
  }
  return Promise.resolve(openSqliteStorePort(join(dataDir, 'folio.db')));
}

/** Whether the stored bytes of a data folder's database hold `needle` (secrets must never). */
export async function testStoreContains(dataDir: string, needle: string): Promise<boolean> {
  if (testStoreBackend() === 'postgres') {
    const { pgTestDatabaseContains } = await import('./postgres/test-store.test-support');
    return pgTestDatabaseContains(dataDir, needle);
  }
  return readFileSync(join(dataDir, 'folio.db')).includes(Buffer.from(needle));
}

/**
 * Creates (and migrates) a data folder's store before a child process opens it: the child is
 * plain node, without the test run's context, so on PostgreSQL it can only reopen a known database.
 */
export async function prepareTestStore(dataDir: string): Promise<void> {
  await (await openTestStorePort(dataDir)).close();
}

/**
 * Rows of a plain query on a data folder's database (`port` is its open store), for assertions no
 * handler exposes (every branch's messages). Placeholders are `?`; the SQL must mean the same in
 * both dialects.
 */
export async function testStoreQuery<Row>(port: StorePort, dataDir: string, sql: string, params: unknown[] = []): Promise<Row[]> {
  if (testStoreBackend() === 'postgres') {
    const { pgTestQuery } = await import('./postgres/test-store.test-support');
    let n = 0;
    return pgTestQuery<Row>(dataDir, sql.replace(/\?/gu, () => `$${++n}`), params);
  }
  return sqliteDatabase(port).prepare(sql).all(...params) as Row[];
}
