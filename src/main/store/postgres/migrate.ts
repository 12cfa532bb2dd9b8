// Brings a PostgreSQL database to the newest schema with the same numbered list SQLite uses
// (../migrations.ts). Each migration runs in its own transaction and is recorded in
// schema_migrations; a session advisory lock makes workers that start together migrate once (the
// others wait, then find nothing to do); a database written by a newer Folio is refused untouched.
import type pg from 'pg';
import { FolioError } from '../../../shared/errors';
import { type Migration, migrations } from '../migrations';

/** Any fixed number shared by every Folio worker; it names "Folio is migrating this database". */
export const MIGRATION_LOCK_KEY = 0x466f6c696f;

export type PgMigration = Pick<Migration, 'version' | 'postgres'>;

/** Migrates and resolves with the schema version the database is at. */
export async function migratePostgres(pool: pg.Pool, known: readonly PgMigration[] = migrations): Promise<number> {
  const newest = Math.max(0, ...known.map((m) => m.version));
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      const current = await schemaVersion(client);
      assertNotTooNew(current, newest);
      await client.query('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at BIGINT NOT NULL)');
      for (const m of [...known].sort((a, b) => a.version - b.version)) {
        if (m.version <= current) continue;
        await client.query('BEGIN');
        try {
          await client.query(m.postgres);
          await client.query('INSERT INTO schema_migrations (version, applied_at) VALUES ($1, $2)', [m.version, Date.now()]);
          await client.query('COMMIT');
        } catch (err) {
          await client.query('ROLLBACK');
          throw err;
        }
      }
      return Math.max(current, newest);
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    }
  } finally {
    client.release();
  }
}

/** The newest applied migration, 0 for an empty database; reads without creating anything. */
export async function schemaVersion(client: pg.ClientBase): Promise<number> {
  const { rows } = await client.query<{ exists: boolean }>("SELECT to_regclass('schema_migrations') IS NOT NULL AS exists");
  if (!rows[0].exists) return 0;
  const { rows: v } = await client.query<{ version: number | null }>('SELECT max(version) AS version FROM schema_migrations');
  return v[0].version ?? 0;
}

function assertNotTooNew(found: number, newest: number): void {
  if (found > newest) {
    throw new FolioError(
      'schema_too_new',
      `This database was written by a newer Folio (schema ${found}, this build knows ${newest}). Update Folio; the data was left untouched.`,
    );
  }
}
