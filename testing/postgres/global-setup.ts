// Vitest global setup: one throwaway PostgreSQL cluster for the whole run, when PostgreSQL is
// installed. Test files reach it with `inject('pgUrl')` (empty when absent: they skip, saying why)
// and create a database of their own with createTestDatabase.
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { migratePostgres } from '../../src/main/store/postgres/migrate';
import { postgresSkipReason, startPgCluster, type PgCluster } from './cluster';

declare module 'vitest' {
  export interface ProvidedContext {
    pgUrl: string;
    /** A database at Folio's newest schema that nobody connects to, copied by createTestDatabase({ migrated: true }). */
    pgMigratedTemplate: string;
  }
}

let cluster: PgCluster | null = null;
let template: Promise<string> | null = null;

/** Migrates one database once per run: a store's database is a copy of it instead of migrating again. */
async function migratedTemplate(adminUrl: string): Promise<string> {
  const name = 'folio_migrated_template';
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const pool = new pg.Pool({ connectionString: adminUrl.replace(/\/postgres$/, `/${name}`), max: 1 });
  try {
    await migratePostgres(pool);
  } finally {
    await pool.end();
  }
  return name;
}

export async function setup(project: TestProject): Promise<void> {
  if (postgresSkipReason() || process.env.FOLIO_TEST_NO_POSTGRES) {
    project.provide('pgUrl', '');
    project.provide('pgMigratedTemplate', '');
    return;
  }
  // Each test project runs this setup; they share one cluster and its template.
  cluster ??= await startPgCluster();
  const url = cluster.url;
  template ??= migratedTemplate(url);
  project.provide('pgUrl', url);
  project.provide('pgMigratedTemplate', await template);
}

export async function teardown(): Promise<void> {
  const running = cluster;
  cluster = null;
  template = null;
  await running?.stop();
}
