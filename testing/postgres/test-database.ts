// A fresh database per test file on the run's throwaway cluster (see global-setup.ts).
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { postgresSkipReason } from './cluster';

/** The reason PostgreSQL tests skip in this run, or null when the cluster is up. */
export function pgSkipReason(): string | null {
  if (inject('pgUrl')) return null;
  return postgresSkipReason() ?? 'PostgreSQL tests were switched off (FOLIO_TEST_NO_POSTGRES)';
}

/** Creates an empty database and returns its URL; drop it with the returned function. */
export async function createTestDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const admin = inject('pgUrl');
  if (!admin) throw new Error(pgSkipReason()!);
  const name = `t_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  const url = admin.replace(/\/postgres$/, `/${name}`);
  return {
    url,
    async drop() {
      const c = new pg.Client({ connectionString: admin });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}
