// The reading side of the cluster's run-event log: a subscriber on any worker replays a run's events
// from `run_events` after its seq and is woken for new ones by the writer's NOTIFY.
import type pg from 'pg';
import type { FinishReason, RunEvent, RunStatus } from '../../shared/contract';
import { NotFoundError } from '../../shared/errors';
import type { Scope } from '../store/port';
import type { RunEventListener } from './host';
import type { Listener } from './listener';
import { eventsOfRow } from './run-event-rows';
import { RUN_EVENTS_CHANNEL, type RunEventsNotice } from './run-event-writer';

// A run's stored rows holding events after $2, in order: the row that holds seq $2 + 1 starts at the
// highest seq at or below it (rows never overlap), so the primary key finds it however long the run.
const ROWS_AFTER = `
SELECT run_id, seq, task_id, events FROM run_events
WHERE run_id = $1 AND last_seq > $2 AND seq <= $3
  AND seq >= COALESCE((SELECT max(seq) FROM run_events WHERE run_id = $1 AND seq <= $2 + 1), 0)
ORDER BY seq LIMIT $4`;

interface StoredRow {
  run_id: string;
  seq: number;
  task_id: string;
  events: string;
}

/** The events of a run's stored rows (each a JSON array of consecutive events), in order. */
function eventsOf(rows: readonly StoredRow[]): RunEvent[] {
  return rows.flatMap(eventsOfRow);
}

/** A run as the event hub needs it; undefined when it does not exist in the scope's tenant and task. */
export interface RunSummary {
  status: RunStatus;
  model: string | null;
  started_at: number;
  finished_at: number | null;
}

export type RunLookup = (scope: Scope, taskId: string, runId: string) => Promise<RunSummary | undefined>;

/**
 * The default lookup, on the PostgreSQL store's `runs` and `tasks` tables (a task belongs to a
 * tenant; a run to a task). The integrator may pass the store port's scoped `runs.get` instead.
 */
export function sqlRunLookup(pool: pg.Pool): RunLookup {
  return async (scope, taskId, runId) => {
    const { rows } = await pool.query<{ status: RunStatus; model: string | null; started_at: string; finished_at: string | null }>(
      `SELECT r.status, r.model, r.started_at, r.finished_at FROM runs r JOIN tasks t ON t.id = r.task_id
       WHERE r.id = $1 AND r.task_id = $2 AND t.tenant_id = $3`,
      [runId, taskId, scope.tenant_id],
    );
    const row = rows[0];
    if (!row) return undefined;
    return { status: row.status, model: row.model, started_at: Number(row.started_at), finished_at: row.finished_at === null ? null : Number(row.finished_at) };
  };
}

/** How a run's status reads as the reason of its final event (as the desktop's summary replay). */
export function finishReasonOf(status: RunStatus): FinishReason {
  return status === 'done' ? 'done' : status === 'cancelled' ? 'cancelled' : 'error';
}

/** The run's start and end, for a finished run with no stored events (it ran before the log). */
function summaryEvents(runId: string, taskId: string, run: RunSummary): RunEvent[] {
  const base = { run_id: runId, task_id: taskId };
  const end = run.finished_at ?? run.started_at;
  return [
    { ...base, seq: 1, at: run.started_at, type: 'run_started', model: run.model, resumed: false },
    { ...base, seq: 2, at: end, type: 'run_finished', reason: finishReasonOf(run.status), duration_ms: Math.max(0, end - run.started_at) },
  ];
}

interface Subscriber {
  listener: RunEventListener;
  lastSeq: number;
  open: boolean;
}

interface Feed {
  runId: string;
  subscribers: Set<Subscriber>;
  pumping: boolean;
  again: boolean;
}

/** The highest seq a run can reach (PostgreSQL's INTEGER). */
const MAX_SEQ = 2_147_483_647;

export interface RunEventReaderOptions {
  lookup: RunLookup;
  /** Stored rows (each a write's batch of events) read per query. */
  pageSize?: number;
  onError?: (err: Error) => void;
}

/**
 * The event hub of a worker in a cluster: `RunEventHub`'s contract (replay after `afterSeq`, then
 * live events until `run_finished`; a finished run replays and ends; an unknown run, or another
 * tenant's, is NotFound), with subscribe asynchronous because the run is looked up in the database.
 * Replayed events arrive after subscribe resolves; callers buffer them as they do live ones.
 */
export class RunEventReader {
  private readonly feeds = new Map<string, Feed>();
  private readonly pageSize: number;

  constructor(
    private readonly pool: pg.Pool,
    listener: Listener,
    private readonly options: RunEventReaderOptions,
  ) {
    this.pageSize = options.pageSize ?? 100;
    void listener.on(RUN_EVENTS_CHANNEL, (payload) => this.onNotice(payload));
    // Notices sent while the connection was down are gone: every subscriber re-reads from its seq.
    listener.onReconnect(() => {
      for (const feed of this.feeds.values()) this.pump(feed);
    });
  }

  async subscribe(scope: Scope, taskId: string, runId: string, listener: RunEventListener, afterSeq = 0): Promise<() => void> {
    const run = await this.options.lookup(scope, taskId, runId);
    if (!run) throw new NotFoundError(`No run ${runId} in task ${taskId}`);
    if (run.status !== 'running') {
      const ended = await this.replayEnded(runId, taskId, run, listener, afterSeq);
      if (ended) return () => {};
    }
    // Seqs are delivered one after another from the subscriber's: a Last-Event-ID past what is
    // stored (no client can have seen that) would wait forever, so it counts from the stored end.
    if (afterSeq > 0) {
      const { rows } = await this.pool.query<{ last: number | null }>('SELECT max(last_seq) AS last FROM run_events WHERE run_id = $1', [runId]);
      afterSeq = Math.min(afterSeq, rows[0].last ?? 0);
    }
    const subscriber: Subscriber = { listener, lastSeq: afterSeq, open: true };
    let feed = this.feeds.get(runId);
    if (!feed) {
      feed = { runId, subscribers: new Set(), pumping: false, again: false };
      this.feeds.set(runId, feed);
    }
    feed.subscribers.add(subscriber);
    this.pump(feed);
    const owner = feed;
    return () => {
      subscriber.open = false;
      owner.subscribers.delete(subscriber);
      if (owner.subscribers.size === 0 && !owner.pumping && this.feeds.get(runId) === owner) this.feeds.delete(runId);
    };
  }

  /** Subscribers being served (for tests and the health report). */
  get liveSubscribers(): number {
    let n = 0;
    for (const feed of this.feeds.values()) n += feed.subscribers.size;
    return n;
  }

  /**
   * A run no longer `running`: when its final event is stored, replays what is after `afterSeq`
   * (or, when the subscriber saw everything, the final event again, so it learns the run is over)
   * and returns true. Returns false when the final event is still on its way (the owner stores the
   * status first, then flushes the event, then releases its lease): the caller then follows it live.
   */
  private async replayEnded(runId: string, taskId: string, run: RunSummary, listener: RunEventListener, afterSeq: number): Promise<boolean> {
    const { rows: finals } = await this.pool.query<StoredRow>('SELECT run_id, seq, task_id, events FROM run_events WHERE run_id = $1 AND ended ORDER BY seq LIMIT 1', [runId]);
    const final = eventsOf(finals).find((e) => e.type === 'run_finished');
    if (!final) {
      const { rows } = await this.pool.query<{ stored: boolean; leased: boolean }>(
        `SELECT EXISTS (SELECT 1 FROM run_events WHERE run_id = $1) AS stored, EXISTS (SELECT 1 FROM run_leases WHERE run_id = $1) AS leased`,
        [runId],
      );
      if (rows[0].leased) return false;
      // No owner will write the end: a run from before the log (or one whose owner died after
      // storing its status): what is stored, then the end its status says.
      const summary = summaryEvents(runId, taskId, run);
      const events = rows[0].stored ? await this.readAll(runId, 0) : summary.slice(0, 1);
      const end: RunEvent = { ...summary[1], seq: (events.at(-1)?.seq ?? 0) + 1 };
      events.push(end);
      const rest = events.filter((e) => e.seq > afterSeq);
      for (const event of rest.length > 0 ? rest : [end]) listener(event);
      return true;
    }
    if (final.seq <= afterSeq) {
      listener(final);
      return true;
    }
    for (const event of await this.readAll(runId, afterSeq, final.seq)) listener(event);
    return true;
  }

  private async readAll(runId: string, afterSeq: number, untilSeq = MAX_SEQ): Promise<RunEvent[]> {
    const { rows } = await this.pool.query<StoredRow>(ROWS_AFTER, [runId, afterSeq, untilSeq, null]);
    return eventsOf(rows).filter((e) => e.seq > afterSeq && e.seq <= untilSeq);
  }

  private onNotice(payload: string): void {
    let notice: RunEventsNotice;
    try {
      notice = JSON.parse(payload) as RunEventsNotice;
    } catch {
      return;
    }
    const feed = this.feeds.get(notice.run_id);
    if (!feed) return;
    for (const s of feed.subscribers) {
      if (s.lastSeq < notice.seq) {
        this.pump(feed);
        return;
      }
    }
  }

  /**
   * Reads the feed's new rows and hands each subscriber those after its own seq. One read at a time
   * per run; a notice arriving during a read (the replay included) makes it read again afterwards.
   */
  private pump(feed: Feed): void {
    if (feed.pumping) {
      feed.again = true;
      return;
    }
    feed.pumping = true;
    void this.drainFeed(feed).finally(() => {
      feed.pumping = false;
      if (feed.subscribers.size === 0 && this.feeds.get(feed.runId) === feed) this.feeds.delete(feed.runId);
    });
  }

  private async drainFeed(feed: Feed): Promise<void> {
    for (;;) {
      feed.again = false;
      if (feed.subscribers.size === 0) return;
      let from = Number.MAX_SAFE_INTEGER;
      for (const s of feed.subscribers) from = Math.min(from, s.lastSeq);
      let rows: StoredRow[];
      let events: RunEvent[];
      try {
        ({ rows } = await this.pool.query<StoredRow>(ROWS_AFTER, [feed.runId, from, MAX_SEQ, this.pageSize]));
        events = eventsOf(rows).filter((e) => e.seq > from);
      } catch (err) {
        this.options.onError?.(err as Error);
        await new Promise((resolve) => setTimeout(resolve, 200));
        continue;
      }
      for (const event of events) {
        for (const s of feed.subscribers) {
          if (!s.open || event.seq <= s.lastSeq) continue;
          // Seqs are contiguous from 1: a subscriber that joined during this read, further back than
          // the read began, takes nothing from it and catches up in the next read.
          if (event.seq !== s.lastSeq + 1 && s.lastSeq < from) {
            feed.again = true;
            continue;
          }
          // Otherwise the read covered its next seq and the event is not there: one writer stores a
          // run's events in order, each batch at once, so a hole is for good (a batch dropped when a
          // shutdown gave up on the database). Reading again would spin on it forever; the
          // subscriber goes on, so it still reaches the run's end.
          if (event.seq !== s.lastSeq + 1) {
            this.options.onError?.(new Error(`Run ${feed.runId}: events ${s.lastSeq + 1}-${event.seq - 1} were never stored; skipped`));
          }
          s.lastSeq = event.seq;
          try {
            s.listener(event);
          } catch (err) {
            // A broken subscriber must not break the others.
            this.options.onError?.(err as Error);
          }
          if (event.type === 'run_finished') {
            s.open = false;
            feed.subscribers.delete(s);
          }
        }
      }
      if (rows.length === this.pageSize) feed.again = true;
      if (!feed.again) return;
    }
  }
}
