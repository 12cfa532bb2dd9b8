// Who owns a live run (many workers). The worker that starts a run holds a lease row on it
// and renews it every ttl/3; a sweeper on every worker ends the runs of leases nobody renewed (their
// worker died): the run becomes `interrupted`, as runs left `running` do at the desktop's start-up,
// and a final `run_finished` is appended so subscribers on every worker end. Times are PostgreSQL's
// clock, so workers with skewed clocks still agree on what has expired.
import type pg from 'pg';
import type { RunEvent, RunStatus } from '../../shared/contract';
import { FolioError } from '../../shared/errors';
import { DEFAULT_LEASE_TTL_MS } from '../config/lease-timing';
import { DB_NOW_MS, type RunRef } from './host';
import { finishReasonOf } from './run-event-reader';
import { storedEventJson } from './run-event-rows';
import { RUN_EVENTS_CHANNEL, runEventsNotice } from './run-event-writer';

export interface LeasesOptions {
  workerId: string;
  ttlMs?: number;
  /**
   * A lease this worker held was taken from it (it missed renewals long enough for a sweeper to
   * end the run): the run must stop here, since it is already `interrupted` for everyone else.
   */
  onLost?: (ref: RunRef) => void;
  onError?: (err: Error) => void;
}

export class Leases {
  readonly workerId: string;
  readonly ttlMs: number;
  private readonly held = new Map<string, RunRef>();
  private timer: NodeJS.Timeout | null = null;
  private draining = false;

  constructor(
    private readonly pool: pg.Pool,
    private readonly options: LeasesOptions,
  ) {
    this.workerId = options.workerId;
    this.ttlMs = options.ttlMs ?? DEFAULT_LEASE_TTL_MS;
  }

  /** Registers the worker and starts renewing its row and its leases every ttl/3. */
  async start(): Promise<void> {
    await this.pool.query(
      `INSERT INTO workers (id, started_at, heartbeat_at, draining) VALUES ($1, ${DB_NOW_MS}, ${DB_NOW_MS}, FALSE)
       ON CONFLICT (id) DO UPDATE SET heartbeat_at = EXCLUDED.heartbeat_at, draining = FALSE`,
      [this.workerId],
    );
    this.timer = setInterval(() => void this.heartbeat().catch((err: Error) => this.options.onError?.(err)), Math.max(1, Math.floor(this.ttlMs / 3)));
    this.timer.unref();
  }

  get isDraining(): boolean {
    return this.draining;
  }

  holds(runId: string): boolean {
    return this.held.has(runId);
  }

  heldRuns(): RunRef[] {
    return [...this.held.values()];
  }

  /** Takes the run for this worker; a conflict when another worker holds it, unavailable while draining. */
  async acquire(ref: RunRef): Promise<void> {
    if (this.draining) throw new FolioError('unavailable', 'This worker is shutting down; try again.');
    const { rowCount } = await this.pool.query(
      `INSERT INTO run_leases (run_id, tenant_id, task_id, worker_id, heartbeat_at, expires_at)
       VALUES ($1, $2, $3, $4, ${DB_NOW_MS}, ${DB_NOW_MS} + $5) ON CONFLICT (run_id) DO NOTHING`,
      [ref.runId, ref.scope.tenant_id, ref.taskId, this.workerId, this.ttlMs],
    );
    if (rowCount !== 1) throw new FolioError('conflict', `Run ${ref.runId} is owned by another worker.`);
    this.held.set(ref.runId, ref);
  }

  async release(runId: string): Promise<void> {
    this.held.delete(runId);
    await this.pool.query('DELETE FROM run_leases WHERE run_id = $1 AND worker_id = $2', [runId, this.workerId]);
  }

  /** Renews the worker row and every lease held; a lease that is gone is reported lost. */
  async heartbeat(): Promise<void> {
    const ids = [...this.held.keys()];
    const { rows } = await this.pool.query<{ run_id: string }>(
      `WITH w AS (UPDATE workers SET heartbeat_at = ${DB_NOW_MS} WHERE id = $1)
       UPDATE run_leases SET heartbeat_at = ${DB_NOW_MS}, expires_at = ${DB_NOW_MS} + $2
       WHERE worker_id = $1 AND run_id = ANY($3::text[]) RETURNING run_id`,
      [this.workerId, this.ttlMs, ids],
    );
    const renewed = new Set(rows.map((r) => r.run_id));
    for (const id of ids) {
      // Released while the renewal was on its way: not lost.
      const ref = this.held.get(id);
      if (renewed.has(id) || !ref) continue;
      this.held.delete(id);
      this.options.onLost?.(ref);
    }
  }

  /** Stops taking runs and says so in the worker's row (readiness checks and peers read it). */
  async markDraining(): Promise<void> {
    this.draining = true;
    await this.pool.query('UPDATE workers SET draining = TRUE, heartbeat_at = ' + DB_NOW_MS + ' WHERE id = $1', [this.workerId]);
  }

  async releaseAll(): Promise<void> {
    const ids = [...this.held.keys()];
    this.held.clear();
    if (ids.length > 0) await this.pool.query('DELETE FROM run_leases WHERE worker_id = $1 AND run_id = ANY($2::text[])', [this.workerId, ids]);
  }

  /** Stops renewing (the leases then expire unless released). */
  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Stops renewing and removes the worker's row (after a drain). */
  async leave(): Promise<void> {
    this.stop();
    await this.pool.query('DELETE FROM workers WHERE id = $1', [this.workerId]);
  }
}

/**
 * The tenant's live runs for its concurrent-runs quota (quotas' `LiveRunCounter`): `running` rows
 * whose lease has not expired, so a dead worker's run stops counting as soon as its lease expires,
 * before a sweeper marks it. A run counts from its row (its lease comes just after) until its row
 * says it ended (its lease is freed just after), so a client that sees a run end can start the next
 * at once. Expiry is judged on PostgreSQL's clock, as the sweeper judges it: a worker whose own
 * clock runs ahead must not see every lease as expired (and let a tenant past its limit).
 */
export function leasedRunCounter(pool: Pick<pg.Pool, 'query'>): { liveRuns(tenantId: string): Promise<number> } {
  return {
    async liveRuns(tenantId) {
      const { rows } = await pool.query<{ n: string }>(
        `SELECT COUNT(*) AS n FROM runs r LEFT JOIN run_leases l ON l.run_id = r.id
          WHERE r.tenant_id = $1 AND r.status = 'running' AND (l.run_id IS NULL OR l.expires_at > ${DB_NOW_MS})`,
        [tenantId],
      );
      return Number(rows[0]?.n ?? 0);
    },
  };
}

/** A run a sweeper ended. */
export interface SweptRun {
  runId: string;
  taskId: string;
  tenantId: string;
  /** The seq of the appended `run_finished`, or null when the log already ended. */
  finishedSeq: number | null;
}

export interface SweeperOptions {
  intervalMs?: number;
  /** A `running` run with no lease, started longer ago than this, is swept too (its worker died between creating it and taking the lease). */
  orphanAfterMs?: number;
  /** Workers rows not renewed for this long are removed. */
  forgetWorkersAfterMs?: number;
  onSwept?: (run: SweptRun) => void;
  onError?: (err: Error) => void;
}

const TAKE_EXPIRED = `
DELETE FROM run_leases WHERE run_id = (
  SELECT run_id FROM run_leases WHERE expires_at < ${DB_NOW_MS} ORDER BY expires_at LIMIT 1 FOR UPDATE SKIP LOCKED
) RETURNING run_id, task_id, tenant_id`;

/**
 * Ends the runs of dead workers, each exactly once however many sweepers run: the lease row is
 * deleted in the same transaction that marks the run and appends its end, and a row another sweeper
 * is handling is skipped (SKIP LOCKED), so only one transaction can take each lease.
 */
export class Sweeper {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<SweptRun[]> | null = null;

  constructor(
    private readonly pool: pg.Pool,
    private readonly options: SweeperOptions = {},
  ) {}

  start(): void {
    const interval = this.options.intervalMs ?? Math.floor(DEFAULT_LEASE_TTL_MS / 3);
    this.timer = setInterval(() => void this.sweep().catch((err: Error) => this.options.onError?.(err)), interval);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** One pass; resolves with the runs this sweeper ended. */
  sweep(): Promise<SweptRun[]> {
    this.running ??= this.sweepAll().finally(() => (this.running = null));
    return this.running;
  }

  private async sweepAll(): Promise<SweptRun[]> {
    const swept: SweptRun[] = [];
    for (;;) {
      const run = await this.sweepOne(TAKE_EXPIRED, []);
      if (!run) break;
      swept.push(run);
      this.options.onSwept?.(run);
    }
    const orphanAfter = this.options.orphanAfterMs ?? DEFAULT_LEASE_TTL_MS * 2;
    for (;;) {
      const run = await this.sweepOne(
        `SELECT r.id AS run_id, r.task_id, t.tenant_id FROM runs r JOIN tasks t ON t.id = r.task_id
         WHERE r.status = 'running' AND r.started_at < ${DB_NOW_MS} - $1
           AND NOT EXISTS (SELECT 1 FROM run_leases l WHERE l.run_id = r.id)
         LIMIT 1 FOR UPDATE OF r SKIP LOCKED`,
        [orphanAfter],
      );
      if (!run) break;
      swept.push(run);
      this.options.onSwept?.(run);
    }
    const forgetAfter = this.options.forgetWorkersAfterMs ?? DEFAULT_LEASE_TTL_MS * 20;
    await this.pool.query(`DELETE FROM workers WHERE heartbeat_at < ${DB_NOW_MS} - $1`, [forgetAfter]);
    return swept;
  }

  /** Takes one run with `take` (which locks or deletes its row) and ends it, in one transaction. */
  private async sweepOne(take: string, params: unknown[]): Promise<SweptRun | null> {
    const client = await this.pool.connect();
    // A client whose ROLLBACK failed may still be inside the transaction: destroyed, not pooled again.
    let broken: Error | undefined;
    try {
      await client.query('BEGIN');
      const { rows } = await client.query<{ run_id: string; task_id: string; tenant_id: string }>(take, params);
      const taken = rows[0];
      if (!taken) {
        await client.query('COMMIT');
        return null;
      }
      const finishedSeq = await endRun(client, taken.run_id, taken.task_id, taken.tenant_id);
      await client.query('COMMIT');
      return { runId: taken.run_id, taskId: taken.task_id, tenantId: taken.tenant_id, finishedSeq };
    } catch (err) {
      await client.query('ROLLBACK').catch((rollbackError: Error) => (broken = rollbackError));
      throw err;
    } finally {
      client.release(broken);
    }
  }
}

/**
 * Marks a run whose worker is gone `interrupted` (if it was still running) and appends the final
 * event its status calls for, unless the log already ended: an interrupted run ends with reason
 * `error`, as the desktop replays runs a crash left interrupted.
 */
async function endRun(client: pg.PoolClient, runId: string, taskId: string, tenantId: string): Promise<number | null> {
  await client.query(`UPDATE runs SET status = 'interrupted', finished_at = ${DB_NOW_MS} WHERE id = $1 AND status = 'running'`, [runId]);
  const { rows: runs } = await client.query<{ status: RunStatus; started_at: string; finished_at: string | null }>(
    'SELECT status, started_at, finished_at FROM runs WHERE id = $1',
    [runId],
  );
  const run = runs[0];
  const now = Date.now();
  const startedAt = run ? Number(run.started_at) : now;
  const finishedAt = run?.finished_at ? Number(run.finished_at) : now;
  // A worker judged dead may still be writing (a long pause, not a crash): a seq it takes first
  // moves the end after it. Each statement sees rows committed before it, so this settles.
  for (;;) {
    const { rows: log } = await client.query<{ last: number | null; ended: boolean }>(
      'SELECT max(last_seq) AS last, bool_or(ended) AS ended FROM run_events WHERE run_id = $1',
      [runId],
    );
    if (log[0].ended) return null;
    const seq = (log[0].last ?? 0) + 1;
    const event: RunEvent = {
      type: 'run_finished',
      reason: finishReasonOf(run?.status ?? 'interrupted'),
      duration_ms: Math.max(0, finishedAt - startedAt),
      run_id: runId,
      task_id: taskId,
      seq,
      at: finishedAt,
    };
    const { rowCount } = await client.query(
      `INSERT INTO run_events (run_id, seq, last_seq, tenant_id, task_id, events, ended) VALUES ($1, $2, $2, $3, $4, $5, TRUE) ON CONFLICT (run_id, seq) DO NOTHING`,
      [runId, seq, tenantId, taskId, `[${storedEventJson(event)}]`],
    );
    if (rowCount !== 1) continue;
    await client.query('SELECT pg_notify($1, $2)', [RUN_EVENTS_CHANNEL, runEventsNotice(runId, seq)]);
    return seq;
  }
}
