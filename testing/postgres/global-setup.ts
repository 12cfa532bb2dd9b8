// Vitest global setup: one throwaway PostgreSQL cluster for the whole run, when PostgreSQL is
// installed. Test files reach it with `inject('pgUrl')` (empty when absent: they skip, saying why)
// and create a database of their own with createTestDatabase.
import type { TestProject } from 'vitest/node';
import { postgresSkipReason, startPgCluster, type PgCluster } from './cluster';

declare module 'vitest' {
  export interface ProvidedContext {
    pgUrl: string;
  }
}

let cluster: PgCluster | null = null;

export async function setup(project: TestProject): Promise<void> {
  if (postgresSkipReason() || process.env.FOLIO_TEST_NO_POSTGRES) {
    project.provide('pgUrl', '');
    return;
  }
  // Each test project runs this setup; they share one cluster.
  cluster ??= await startPgCluster();
  project.provide('pgUrl', cluster.url);
}

export async function teardown(): Promise<void> {
  const running = cluster;
  cluster = null;
  await running?.stop();
}
