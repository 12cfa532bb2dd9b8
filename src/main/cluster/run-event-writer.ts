// Run events in PostgreSQL (many workers): the owning worker appends every stamped event
// to `run_events` and notifies; a subscriber on any worker replays them from the table and is woken
// for new ones by LISTEN/NOTIFY (run-event-reader.ts). A notification carries only the run and its
// highest seq: content is always read from the table, so a lost or late notification can delay an
// event but never lose, repeat or reorder one.
import type pg from 'pg';
import type { RunEvent } from '../../shared/contract';
import type { Scope } from '../store/port';
import { storedEventJson } from './run-event-rows';

export const RUN_EVENTS_CHANNEL = 'folio_run_events';

export interface RunEventsNotice {
  run_id: string;
  seq: number;
}

export function runEventsNotice(runId: string, seq: number): string {
  return JSON.stringify({ run_id: runId, seq } satisfies RunEventsNotice);
}

/**
 * One stored row: consecutive events of one run (`seq` … `last_seq`) as a JSON array in text (in
 * their stored form, run-event-rows.ts), so a write of thousands of deltas is one row PostgreSQL
 * neither parses nor indexes per event.
 */
export interface RunEventRow {
  run_id: string;
  seq: number;
  last_seq: number;
  tenant_id: string;
  task_id: string;
  events: string;
  ended: boolean;
}

const COLUMNS = 7;
/** PostgreSQL takes at most 65,535 parameters per statement. */
const MAX_ROWS_PER_STATEMENT = 1_000;

/**
 * The insert for `count` rows and the notices after them. Each value is a parameter of its own: a
 * text parameter is sent as it is, where one in an array would be escaped character by character.
 * A row whose first seq is already there was written by a sweeper that judged this worker dead (it
 * appends after the highest stored seq, which is where this worker's next row starts): the first
 * writer wins, and the later row is dropped whole.
 */
function insertRows(count: number): string {
  const tuples = Array.from({ length: count }, (_, r) => `(${Array.from({ length: COLUMNS }, (_, c) => `$${r * COLUMNS + c + 1}`).join(', ')})`);
  return `
WITH inserted AS (
  INSERT INTO run_events (run_id, seq, last_seq, tenant_id, task_id, events, ended)
  VALUES ${tuples.join(', ')}
  ON CONFLICT (run_id, seq) DO NOTHING
)
SELECT pg_notify('${RUN_EVENTS_CHANNEL}', notice) FROM unnest($${count * COLUMNS + 1}::text[]) AS notice`;
}

/**
 * The most characters of events in one row (a row may hold one event longer than this). A write
 * that fell behind holds thousands of deltas; as one text of hundreds of kB it would be allocated
 * outside V8's young generation, where joining it, counting its bytes and (in every reader)
 * decoding it cost several times more per event than the extra rows cost PostgreSQL.
 */
export const ROW_CHARS = 32 * 1024;

/**
 * The rows for a batch of events: one per run and unbroken run of seqs, in the order they came,
 * each of at most ROW_CHARS.
 */
export function rowsOf(batch: readonly PendingRow[]): RunEventRow[] {
  const built: { row: RunEventRow; parts: string[]; chars: number }[] = [];
  const open = new Map<string, { row: RunEventRow; parts: string[]; chars: number }>();
  for (const e of batch) {
    const current = open.get(e.runId);
    if (current && current.row.last_seq + 1 === e.seq && current.chars + 1 + e.json.length <= ROW_CHARS) {
      current.row.last_seq = e.seq;
      current.row.ended ||= e.final;
      current.parts.push(e.json);
      current.chars += e.json.length + 1;
      continue;
    }
    const next = { row: { run_id: e.runId, seq: e.seq, last_seq: e.seq, tenant_id: e.tenantId, task_id: e.taskId, events: '', ended: e.final }, parts: [e.json], chars: e.json.length + 2 };
    open.set(e.runId, next);
    built.push(next);
  }
  return built.map(({ row, parts }) => ({ ...row, events: `[${parts.join(',')}]` }));
}

/** An event waiting to be written. */
export interface PendingRow {
  runId: string;
  seq: number;
  tenantId: string;
  taskId: string;
  /** The event's stored JSON (run-event-rows.ts). */
  json: string;
  final: boolean;
}

export interface RunEventWriterOptions {
  /** How long deltas wait to share a batch. */
  flushMs?: number;
  /** A batch this large is written at once. */
  maxBatch?: number;
  onError?: (err: Error) => void;
}

const MAX_EVENTS_PER_WRITE = 5_000;
/** How long a closing writer keeps retrying a failed write before it drops what is left. */
export const DEFAULT_CLOSE_GRACE_MS = 5_000;

function isDelta(event: RunEvent): boolean {
  return event.type === 'text_delta' || event.type === 'reasoning_delta';
}

/**
 * Appends a worker's run events. Deltas arrive by the thousand per second, so they are coalesced
 * into one row and one NOTIFY per run per flush; any other event (an approval, the end of a run)
 * flushes at once.
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
    this.pending.push({ runId: event.run_id, seq: event.seq, tenantId: scope.tenant_id, taskId: event.task_id, json: storedEventJson(event), final: event.type === 'run_finished' });
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
      const batch = this.pending.splice(0, MAX_EVENTS_PER_WRITE);
      await this.write(batch);
      this.written += batch.length;
      const ready = this.waiters.filter((w) => w.upTo <= this.written);
      this.waiters = this.waiters.filter((w) => w.upTo > this.written);
      for (const w of ready) w.resolve();
    }
    this.writing = false;
  }

  private async write(batch: PendingRow[]): Promise<void> {
    const rows = rowsOf(batch);
    const statements: { text: string; values: unknown[] }[] = [];
    for (let i = 0; i < rows.length; i += MAX_ROWS_PER_STATEMENT) {
      const part = rows.slice(i, i + MAX_ROWS_PER_STATEMENT);
      const highest = new Map<string, number>();
      for (const row of part) highest.set(row.run_id, Math.max(highest.get(row.run_id) ?? 0, row.last_seq));
      const values: unknown[] = part.flatMap((r) => [r.run_id, r.seq, r.last_seq, r.tenant_id, r.task_id, r.events, r.ended]);
      values.push([...highest].map(([runId, seq]) => runEventsNotice(runId, seq)));
      statements.push({ text: insertRows(part.length), values });
    }
    // A failed write is retried (the database restarting, a dropped connection): later batches wait
    // behind it, so nothing is reordered, and a run's end is not reported stored before it is.
    let done = 0;
    for (let wait = 50; ; wait = Math.min(wait * 2, 2_000)) {
      try {
        for (; done < statements.length; done++) await this.pool.query(statements[done].text, statements[done].values);
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
