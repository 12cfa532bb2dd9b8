// Run events in PostgreSQL (many workers): the owning worker appends every stamped event
// to `run_events` and notifies; a subscriber on any worker replays them from the table and is woken
// for new ones by LISTEN/NOTIFY (run-event-reader.ts). A notification carries only the run and its
// highest seq: content is always read from the table, so a lost or late notification can delay an
// event but never lose, repeat or reorder one.
import type pg from 'pg';
import type { RunEvent } from '../../shared/contract';
import type { Scope } from '../store/port';

export const RUN_EVENTS_CHANNEL = 'folio_run_events';

export interface RunEventsNotice {
  run_id: string;
  seq: number;
}

export function runEventsNotice(runId: string, seq: number): string {
  return JSON.stringify({ run_id: runId, seq } satisfies RunEventsNotice);
}

// The batch travels as one JSON array (cheap to build, and no per-string array escaping), with the
// tenant of each event beside it (events do not carry it).
const INSERT_BATCH = `
WITH inserted AS (
  INSERT INTO run_events (run_id, seq, tenant_id, task_id, event)
  SELECT e->>'run_id', (e->>'seq')::int, t.tenant_id, e->>'task_id', e
  FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS x(e, i)
  JOIN unnest($2::text[]) WITH ORDINALITY AS t(tenant_id, i) USING (i)
  -- A seq already there was written by a sweeper that judged this worker dead; the first writer wins.
  ON CONFLICT (run_id, seq) DO NOTHING
)
SELECT pg_notify('${RUN_EVENTS_CHANNEL}', notice) FROM unnest($3::text[]) AS notice`;

interface PendingRow {
  runId: string;
  seq: number;
  tenantId: string;
  taskId: string;
  json: string;
}

export interface RunEventWriterOptions {
  /** How long deltas wait to share a batch. */
  flushMs?: number;
  /** A batch this large is written at once. */
  maxBatch?: number;
  onError?: (err: Error) => void;
}

const MAX_ROWS_PER_STATEMENT = 5_000;
/** How long a closing writer keeps retrying a failed write before it drops what is left. */
export const DEFAULT_CLOSE_GRACE_MS = 5_000;

function isDelta(event: RunEvent): boolean {
  return event.type === 'text_delta' || event.type === 'reasoning_delta';
}

/**
 * Appends a worker's run events. Deltas arrive by the thousand per second, so they are coalesced
 * into one multi-row INSERT and one NOTIFY per run per flush; any other event (an approval, the
 * end of a run) flushes at once.
 */
export class RunEventWriter {
  private pending: PendingRow[] = [];
  private timer: NodeJS.Timeout | null = null;
  private writing = false;
  private appended = 0;
  private written = 0;
  private waiters: { upTo: number; resolve: () => void }[] = [];
  private closed = false;
  /** When retries of a failed write stop (shutdown); never while the worker runs. */
  private giveUpAt = Number.POSITIVE_INFINITY;
  private readonly flushMs: number;
  private readonly maxBatch: number;

  constructor(
    private readonly pool: pg.Pool,
    private readonly options: RunEventWriterOptions = {},
  ) {
    this.flushMs = options.flushMs ?? 15;
    this.maxBatch = options.maxBatch ?? 500;
  }

  append(scope: Scope, event: RunEvent): void {
    this.pending.push({ runId: event.run_id, seq: event.seq, tenantId: scope.tenant_id, taskId: event.task_id, json: JSON.stringify(event) });
    this.appended += 1;
    if (!isDelta(event) || this.pending.length >= this.maxBatch) {
      this.kick();
    } else if (!this.timer) {
      this.timer = setTimeout(() => this.kick(), this.flushMs);
    }
  }

  /** Writes what is pending; resolves when every event appended so far is stored and announced. */
  flush(): Promise<void> {
    this.kick();
    if (this.written >= this.appended) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ upTo: this.appended, resolve }));
  }

  /**
   * From now on a failed write is retried for at most `ms`, then dropped and reported: a shutdown
   * (drain, close) must end even when the database is gone, and `flush` waits for the retries.
   */
  stopRetryingAfter(ms: number): void {
    this.giveUpAt = Math.min(this.giveUpAt, Date.now() + ms);
  }

  /** Flushes (retrying a failed write for at most `graceMs`), then stops retrying failed writes. */
  async close(graceMs = DEFAULT_CLOSE_GRACE_MS): Promise<void> {
    this.stopRetryingAfter(graceMs);
    await this.flush();
    this.closed = true;
  }

  private kick(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    if (!this.writing && this.pending.length > 0) void this.writeAll();
  }

  /**
   * One write at a time, so seq order holds; what arrives during a write goes in the next, as one
   * batch however large it grew (a database slower than the run gets fewer, larger statements).
   */
  private async writeAll(): Promise<void> {
    this.writing = true;
    while (this.pending.length > 0) {
      const batch = this.pending.splice(0, MAX_ROWS_PER_STATEMENT);
      await this.write(batch);
      this.written += batch.length;
      const ready = this.waiters.filter((w) => w.upTo <= this.written);
      this.waiters = this.waiters.filter((w) => w.upTo > this.written);
      for (const w of ready) w.resolve();
    }
    this.writing = false;
  }

  private async write(batch: PendingRow[]): Promise<void> {
    const highest = new Map<string, number>();
    for (const row of batch) highest.set(row.runId, Math.max(highest.get(row.runId) ?? 0, row.seq));
    const params = [
      `[${batch.map((r) => r.json).join(',')}]`,
      batch.map((r) => r.tenantId),
      [...highest].map(([runId, seq]) => runEventsNotice(runId, seq)),
    ];
    // A failed write is retried (the database restarting, a dropped connection): later batches wait
    // behind it, so nothing is reordered, and a run's end is not reported stored before it is.
    for (let wait = 50; ; wait = Math.min(wait * 2, 2_000)) {
      try {
        await this.pool.query(INSERT_BATCH, params);
        return;
      } catch (err) {
        this.options.onError?.(err as Error);
        const left = this.giveUpAt - Date.now();
        if (this.closed || left <= 0) {
          this.options.onError?.(new Error(`${batch.length} run events were not stored: the writer is shutting down and the database does not answer`));
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, Math.min(wait, left)));
      }
    }
  }
}
