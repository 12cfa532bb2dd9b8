// Retention per plan in the team service (the `plans` table): a task nobody used for its plan's
// `archive_after_days` is archived, and the person is told in the task, with the day its files go (a typed notice, see SystemNotice);
// an archived task still unused `purge_files_after_days` later loses its files (uploads and what the
// agent wrote), its storage charge is released in the ledger, and the conversation stays. Using the
// task again before then makes it active: its archive row is dropped. A plan's NULL keeps forever.
//
// One pass at a time across all workers: a pass runs under a PostgreSQL advisory lock and a worker
// that cannot take it skips its turn (another is doing the work).
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import type pg from 'pg';
import { systemNoticeContent } from '../../shared/contract';
import { createPgUsageLedger } from '../quotas/usage-ledger';
import type { PgBackend } from '../store/postgres';
import { taskDir } from '../workspace/layout';
import { taskFolderBytes } from '../service/task-storage';
import { tenantDataDir } from '../workspace/storage';
import type { Translate } from './cli-messages';

export const DAY_MS = 24 * 60 * 60 * 1000;
/** How often each worker offers to run a pass (the lock lets one of them do it). */
export const RETENTION_INTERVAL_MS = 60 * 60 * 1000;
const RETENTION_LOCK = 'folio:retention';

export interface ArchiveAction {
  tenant_id: string;
  user_id: string;
  task_id: string;
  title: string;
  plan: string;
  /** When the task was last used. */
  idle_since: number;
  archive_after_days: number;
  /** When its files will be removed, if the plan removes them. */
  purge_at: number | null;
}

export interface PurgeAction {
  tenant_id: string;
  user_id: string;
  task_id: string;
  title: string;
  plan: string;
  archived_at: number;
  /** Bytes the task's folder holds now (what the purge frees). */
  bytes: number;
}

export interface RetentionPlan {
  /** Archived tasks used again since: they become active. */
  reactivate: { tenant_id: string; task_id: string }[];
  archive: ArchiveAction[];
  purge: PurgeAction[];
}

export interface RetentionTarget {
  backend: Pick<PgBackend, 'pool' | 'scope'>;
  storageRoot: string;
}

/** A pass: the plan it followed, or null when another worker held the lock. */
export type RetentionResult = RetentionPlan | null;

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** What a pass at `now` would do, read from the database and the storage root; changes nothing. */
export async function planRetention(db: Pick<pg.Pool, 'query'>, storageRoot: string, now = Date.now()): Promise<RetentionPlan> {
  const reactivate = await db.query<{ tenant_id: string; task_id: string }>(
    `SELECT r.tenant_id, r.task_id FROM task_retention r JOIN tasks t ON t.tenant_id = r.tenant_id AND t.id = r.task_id
     WHERE t.updated_at > r.archived_at ORDER BY r.tenant_id, r.task_id`,
  );
  const archive = await db.query<{ tenant_id: string; user_id: string; id: string; title: string; plan: string; updated_at: string; archive_after_days: number; purge_files_after_days: number | null }>(
    `SELECT t.tenant_id, t.user_id, t.id, t.title, p.id AS plan, t.updated_at, p.archive_after_days, p.purge_files_after_days
     FROM tasks t JOIN tenants n ON n.id = t.tenant_id JOIN plans p ON p.id = n.plan
     WHERE p.archive_after_days IS NOT NULL AND t.updated_at < $1::bigint - p.archive_after_days::bigint * ${DAY_MS}
       AND NOT EXISTS (SELECT 1 FROM task_retention r WHERE r.tenant_id = t.tenant_id AND r.task_id = t.id)
       AND NOT EXISTS (SELECT 1 FROM runs u WHERE u.task_id = t.id AND u.status = 'running')
     ORDER BY t.tenant_id, t.updated_at, t.id`,
    [now],
  );
  const purge = await db.query<{ tenant_id: string; user_id: string; id: string; title: string; plan: string; archived_at: string }>(
    `SELECT t.tenant_id, t.user_id, t.id, t.title, p.id AS plan, r.archived_at
     FROM task_retention r JOIN tasks t ON t.tenant_id = r.tenant_id AND t.id = r.task_id
       JOIN tenants n ON n.id = t.tenant_id JOIN plans p ON p.id = n.plan
     WHERE r.files_purged_at IS NULL AND p.purge_files_after_days IS NOT NULL AND t.updated_at <= r.archived_at
       AND r.archived_at <= $1::bigint - p.purge_files_after_days::bigint * ${DAY_MS}
       AND NOT EXISTS (SELECT 1 FROM runs u WHERE u.task_id = t.id AND u.status = 'running')
     ORDER BY t.tenant_id, r.archived_at, t.id`,
    [now],
  );
  return {
    reactivate: reactivate.rows,
    archive: archive.rows.map((r) => ({
      tenant_id: r.tenant_id,
      user_id: r.user_id,
      task_id: r.id,
      title: r.title,
      plan: r.plan,
      idle_since: Number(r.updated_at),
      archive_after_days: r.archive_after_days,
      purge_at: r.purge_files_after_days === null ? null : now + r.purge_files_after_days * DAY_MS,
    })),
    purge: purge.rows.map((r) => ({
      tenant_id: r.tenant_id,
      user_id: r.user_id,
      task_id: r.id,
      title: r.title,
      plan: r.plan,
      archived_at: Number(r.archived_at),
      bytes: taskFolderBytes(taskDir(tenantDataDir(storageRoot, r.tenant_id), r.id)),
    })),
  };
}

/** The note the person finds in an archived task; each screen words it in the person's language. */
export function archiveNotice(a: Pick<ArchiveAction, 'archive_after_days' | 'purge_at'>): string {
  return systemNoticeContent({ notice: 'task_archived', idle_days: a.archive_after_days, purge_at: a.purge_at });
}

export function purgeNotice(archivedAt: number): string {
  return systemNoticeContent({ notice: 'task_files_purged', archived_at: archivedAt });
}

const noticeId = () => `m_ret_${randomUUID().replace(/-/g, '').slice(0, 24)}`;

/**
 * One pass at `now`: archives, purges and reactivates as `planRetention` says, or does nothing and
 * answers null when another pass (on any worker) holds the lock.
 */
export async function runRetention(target: RetentionTarget, now = Date.now()): Promise<RetentionResult> {
  const { pool } = target.backend;
  const lock = await pool.connect();
  try {
    const { rows } = await lock.query<{ ok: boolean }>('SELECT pg_try_advisory_lock(hashtext($1)) AS ok', [RETENTION_LOCK]);
    if (!rows[0].ok) return null;
    try {
      const plan = await planRetention(pool, target.storageRoot, now);
      await apply(target, plan);
      return plan;
    } finally {
      await lock.query('SELECT pg_advisory_unlock(hashtext($1))', [RETENTION_LOCK]);
    }
  } finally {
    lock.release();
  }
}

async function apply({ backend, storageRoot }: RetentionTarget, plan: RetentionPlan): Promise<void> {
  const { pool } = backend;
  const ledger = createPgUsageLedger(pool);
  for (const r of plan.reactivate) await pool.query('DELETE FROM task_retention WHERE tenant_id = $1 AND task_id = $2', [r.tenant_id, r.task_id]);
  for (const a of plan.archive) {
    const store = backend.scope({ tenant_id: a.tenant_id, user_id: a.user_id });
    await store.messages.append({ id: noticeId(), task_id: a.task_id, run_id: null, role: 'system', content: archiveNotice(a) });
    // The notice touched the task: archived from that moment, so only a later use reactivates it.
    await pool.query(
      `INSERT INTO task_retention (tenant_id, task_id, archived_at) SELECT tenant_id, id, updated_at FROM tasks WHERE tenant_id = $1 AND id = $2
       ON CONFLICT (tenant_id, task_id) DO NOTHING`,
      [a.tenant_id, a.task_id],
    );
  }
  for (const p of plan.purge) {
    const scope = { tenant_id: p.tenant_id, user_id: p.user_id };
    rmSync(taskDir(tenantDataDir(storageRoot, p.tenant_id), p.task_id), { recursive: true, force: true });
    await pool.query('DELETE FROM files WHERE tenant_id = $1 AND task_id = $2', [p.tenant_id, p.task_id]);
    // The folder is gone: everything the task was charged is freed.
    const charged = await ledger.taskStoredBytes(p.tenant_id, p.task_id);
    if (charged !== 0) await ledger.record(scope, { kind: 'storage', task_id: p.task_id, bytes: -charged });
    await backend.scope(scope).messages.append({ id: noticeId(), task_id: p.task_id, run_id: null, role: 'system', content: purgeNotice(p.archived_at) });
    await pool.query(
      `UPDATE task_retention r SET files_purged_at = t.updated_at, archived_at = GREATEST(r.archived_at, t.updated_at)
       FROM tasks t WHERE t.tenant_id = r.tenant_id AND t.id = r.task_id AND r.tenant_id = $1 AND r.task_id = $2`,
      [p.tenant_id, p.task_id],
    );
  }
}

/** The plan as lines an operator reads, done or (`dryRun`) still to do, in the terminal's language. */
export function describeRetention(plan: RetentionPlan, t: Translate, dryRun = false): string[] {
  const verb = (action: 'archive' | 'purge' | 'reactivate') => t(`retention.${dryRun ? 'wouldVerb' : 'verb'}.${action}`);
  const lines: string[] = [];
  for (const a of plan.archive) {
    const files = a.purge_at === null ? t('retention.filesKept') : t('retention.filesRemovedOn', { day: day(a.purge_at) });
    lines.push(t('retention.archiveLine', { verb: verb('archive'), task: `${a.tenant_id}/${a.task_id}`, title: a.title, user: a.user_id, plan: a.plan, since: day(a.idle_since), files }));
  }
  for (const p of plan.purge) {
    lines.push(t('retention.purgeLine', { verb: verb('purge'), task: `${p.tenant_id}/${p.task_id}`, title: p.title, user: p.user_id, plan: p.plan, archived: day(p.archived_at), bytes: p.bytes }));
  }
  for (const r of plan.reactivate) lines.push(t('retention.reactivateLine', { verb: verb('reactivate'), task: `${r.tenant_id}/${r.task_id}` }));
  if (lines.length === 0) lines.push(t('retention.nothing'));
  return lines;
}
