// The one place the service and runs tests get their store from, so the whole suite can be pointed
// at another backend by one switch (FOLIO_TEST_STORE=postgres: a fresh database on the run's
// throwaway cluster); the default is the desktop's SQLite file in the test's data folder.
import { join } from 'node:path';
import type { OpenedStorePort } from './port';
import { openSqliteStorePort } from './sqlite-port';

export function testStoreBackend(): 'sqlite' | 'postgres' {
  return process.env.FOLIO_TEST_STORE === 'postgres' ? 'postgres' : 'sqlite';
}

export async function openTestStorePort(dataDir: string): Promise<OpenedStorePort> {
  if (testStoreBackend() === 'postgres') {
    const { openPgTestStore } = await import('./postgres/test-store.test-support');
    const opened = await openPgTestStore();
    return { port: opened.port, close: () => opened.close() };
  }
  return Promise.resolve(openSqliteStorePort(join(dataDir, 'folio.db')));
}
