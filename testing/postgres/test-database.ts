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

/** SQLSTATE of DROP DATABASE while sessions are still connected to it. */
const OBJECT_IN_USE = '55006';

/**
 * Creates an empty database and returns its URL; drop it with the returned function. `migrated`:
 * a copy of the run's database at the newest schema instead (global-setup.ts), for a store whose
 * tests are not about migrating: opening it finds nothing to migrate.
 */
export async function createTestDatabase(options: { migrated?: boolean } = {}): Promise<{ url: string; drop: () => Promise<void> }> {
  const admin = inject('pgUrl');
  if (!admin) throw new Error(pgSkipReason()!);
  const template = options.migrated ? inject('pgMigratedTemplate') : '';
  const name = `t_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
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
        // A pool's end() resolves before its connections have closed. Forcing the drop at once would
        // end those sessions from the server's side, and a client still closing would get the
        // FATAL as an 'error' event nobody listens to any more (an uncaught error in another test).
        // So the plain drop is retried while they close; FORCE is only for a session left open.
        for (let attempt = 0; ; attempt += 1) {
          try {
            await c.query(`DROP DATABASE IF EXISTS ${name}${attempt < 30 ? '' : ' WITH (FORCE)'}`);
            break;
          } catch (err) {
            if (attempt >= 30 || (err as { code?: string }).code !== OBJECT_IN_USE) throw err;
            await new Promise((resolve) => setTimeout(resolve, 100));
          }
        }
      } finally {
        await c.end();
      }
    },
  };
}
