// The store port on PostgreSQL: one pool per process, one StorePort per scope. Every
// query names the scope's tenant (and user, for tasks and what hangs off them), so a row of anyone
// else reads exactly like one that does not exist.
import type pg from 'pg';
import type { TaskUsage, UsageReport } from '../index';
import type { Scope, StorePort } from '../port';
import { pgLibraryRepo } from './library';
import { trigramCheck, type TrigramCheck } from './library-search';
import { pgMessagesRepo } from './messages';
import { migratePostgres } from './migrate';
import { pgProjectsRepo } from './projects';
import { pgRunsRepo } from './runs';
import { pgSettingsRepo } from './settings';
import { createPool, poolSql, type Sql } from './sql';
import { pgApprovalsRepo, pgFilesRepo, pgGrantsRepo } from './task-items';
import { pgTasksRepo } from './tasks';

export { migratePostgres, schemaVersion } from './migrate';

export interface PgStoreOptions {
  /** Clock for created/updated timestamps (ms epoch); tests pin it. */
  now?: () => number;
  /** Connections in the pool (default 10). */
  poolSize?: number;
}

export interface PgBackend {
  /** The store as `scope` sees it; cheap, so make one per request. */
  scope(scope: Scope): StorePort;
  /** The pool, for the modules that own tables of their own (runs' events, leases, quotas). */
  readonly pool: pg.Pool;
  close(): Promise<void>;
}

/** Connects, migrates (refusing a newer schema with `schema_too_new`) and returns the backend. */
export async function openPgStore(url: string, options: PgStoreOptions = {}): Promise<PgBackend> {
  const now = options.now ?? Date.now;
  const pool = createPool(url, options.poolSize);
  try {
    await migratePostgres(pool);
  } catch (err) {
    await pool.end();
    throw err;
  }
  // Asked at the first library search, not here: a worker that never searches never asks.
  const trigram = trigramCheck(poolSql(pool));
  return {
    scope: (scope) => scopedPort(poolSql(pool), scope, now, trigram),
    pool,
    close: () => pool.end(),
  };
}

function scopedPort(sql: Sql, scope: Scope, now: () => number, trigram: TrigramCheck): StorePort {
  const owner = [scope.tenant_id, scope.user_id];
  return {
    dialect: 'postgres',
    scope,
    tasks: pgTasksRepo(sql, scope, now),
    messages: pgMessagesRepo(sql, scope, now),
    runs: pgRunsRepo(sql, scope, now),
    files: pgFilesRepo(sql, scope),
    approvals: pgApprovalsRepo(sql, scope),
    grants: pgGrantsRepo(sql, scope),
    settings: pgSettingsRepo(sql, scope),
    projects: pgProjectsRepo(sql, scope, now),
    library: pgLibraryRepo(sql, scope, now, trigram),
    async usage(): Promise<UsageReport> {
      const [total] = await sql.rows<UsageReport['total']>(
        `SELECT COALESCE(SUM(prompt_tokens), 0)::bigint AS prompt_tokens, COALESCE(SUM(completion_tokens), 0)::bigint AS completion_tokens,
           COALESCE(SUM(cost), 0.0)::double precision AS cost
         FROM tasks WHERE tenant_id = $1 AND user_id = $2`,
        owner,
      );
      const tasks = await sql.rows<TaskUsage>(
        `SELECT id AS task_id, title, prompt_tokens, completion_tokens, cost FROM tasks
         WHERE tenant_id = $1 AND user_id = $2 AND (prompt_tokens > 0 OR completion_tokens > 0 OR cost > 0)
         ORDER BY cost DESC, prompt_tokens + completion_tokens DESC, id COLLATE "C"`,
        owner,
      );
      return { total, tasks };
    },
    transaction: (fn) => sql.atomic((tx) => fn(scopedPort(tx, scope, now, trigram))),
    async lockTenant(purpose) {
      await sql.rows('SELECT pg_advisory_xact_lock(hashtext($1))', [`folio:${scope.tenant_id}:${purpose}`]);
    },
  };
}
