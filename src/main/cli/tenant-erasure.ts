// Deletion that deletes (a GDPR erasure): a user's data or a whole tenant goes from every table
// and from the storage root. What stays is what billing needs: `usage_events` (numbers, task and
// user ids, no content). Tables the store's foreign keys do not reach (the cluster's run events,
// leases and orphaned approval decisions) are deleted here by tenant and task; a task deleted
// through the API has its own traces removed by the store (postgres/tasks.ts). The bytes the erased
// files were charged are released in the ledger (a row of its own, storage being a level), so a user
// or tenant who comes back does not find the deleted files still filling the storage quota.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { FolioError } from '../../shared/errors';
import { tenantDataDir } from '../workspace/storage';
import { TASK_TRACE_TABLES } from '../store/postgres/team-schema';
import { isScopeId } from '../tenancy/scope-id';

/** What erasure needs of a database: one connection (`pg.Client`) or a pool, used for one transaction. */
export interface ErasureDb {
  query<R = unknown>(sql: string, params?: unknown[]): Promise<{ rows: R[]; rowCount: number | null }>;
}

export interface ErasureTarget {
  db: ErasureDb;
  storageRoot: string;
}

/** Per-tenant tables, children first (foreign keys cascade, but an explicit order costs nothing). */
const TENANT_TABLES = ['approvals', 'tool_grants', 'files', 'messages', 'runs', 'tasks', 'library_files', 'projects', 'settings', 'quotas', 'users'] as const;

function checkId(kind: string, id: string): void {
  if (!isScopeId(id)) throw new FolioError('invalid_input', `${kind}: 1–64 of A-Z a-z 0-9 _ - (got ${JSON.stringify(String(id).slice(0, 80))})`);
}

async function inTransaction<T>(db: ErasureDb, fn: () => Promise<T>): Promise<T> {
  await db.query('BEGIN');
  try {
    const out = await fn();
    await db.query('COMMIT');
    return out;
  } catch (err) {
    await db.query('ROLLBACK');
    throw err;
  }
}

/**
 * Inserts, per (user, task), a storage row cancelling what the rows matched by `where` charged
 * (`$1` is the tenant). Only numbers are written, as in every usage row.
 */
async function releaseStorage(db: ErasureDb, where: string, params: unknown[]): Promise<void> {
  await db.query(
    `INSERT INTO usage_events (tenant_id, user_id, task_id, kind, bytes, at)
     SELECT tenant_id, user_id, task_id, 'storage', -SUM(bytes), $${params.length + 1} FROM usage_events
     WHERE tenant_id = $1 AND kind = 'storage' AND ${where}
     GROUP BY tenant_id, user_id, task_id HAVING SUM(bytes) <> 0`,
    [...params, Date.now()],
  );
}

/** Removes a user's tasks with everything in them (rows and folders); the user may come back later. */
export async function eraseUser(target: ErasureTarget, tenantId: string, userId: string): Promise<{ tasks: number }> {
  checkId('tenant', tenantId);
  checkId('user', userId);
  const { db } = target;
  const taskIds = await inTransaction(db, async () => {
    const { rows } = await db.query<{ id: string }>('SELECT id FROM tasks WHERE tenant_id = $1 AND user_id = $2', [tenantId, userId]);
    const ids = rows.map((r) => r.id);
    await releaseStorage(db, 'task_id = ANY($2::text[])', [tenantId, ids]);
    for (const table of TASK_TRACE_TABLES) await db.query(`DELETE FROM ${table} WHERE tenant_id = $1 AND task_id = ANY($2::text[])`, [tenantId, ids]);
    await db.query('DELETE FROM tasks WHERE tenant_id = $1 AND user_id = $2', [tenantId, userId]);
    await db.query('DELETE FROM users WHERE tenant_id = $1 AND id = $2', [tenantId, userId]);
    return ids;
  });
  const tasksDir = join(tenantDataDir(target.storageRoot, tenantId), 'tasks');
  for (const id of taskIds) rmSync(join(tasksDir, id), { recursive: true, force: true });
  return { tasks: taskIds.length };
}

/** Removes every row and file of a tenant except its usage numbers. */
export async function eraseTenant(target: ErasureTarget, tenantId: string): Promise<void> {
  checkId('tenant', tenantId);
  const { db } = target;
  await inTransaction(db, async () => {
    await releaseStorage(db, 'TRUE', [tenantId]);
    for (const table of TASK_TRACE_TABLES) await db.query(`DELETE FROM ${table} WHERE tenant_id = $1`, [tenantId]);
    for (const table of TENANT_TABLES) await db.query(`DELETE FROM ${table} WHERE tenant_id = $1`, [tenantId]);
    await db.query('DELETE FROM tenants WHERE id = $1', [tenantId]);
  });
  rmSync(tenantDataDir(target.storageRoot, tenantId), { recursive: true, force: true });
}
