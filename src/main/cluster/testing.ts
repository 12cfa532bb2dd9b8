// Test helpers for the cluster modules: the tables they read, and a stand-in for the RunManager
// that behaves like one towards the cluster (stamps events, takes and releases leases, stores its
// status, honours cancel, decisions and shutdown), so these modules are tested without the agent.
import type pg from 'pg';
import type { FinishReason, RunEventBody, RunStatus } from '../../shared/contract';
import { TEAM_SCHEMA_SQL, TEAM_SCHEMA_V13_SQL } from '../store/postgres/team-schema';
import type { Scope } from '../store/port';
import type { Decision, RunHost } from './host';
import type { ClusterWorker } from './worker';

/**
 * The team tables plus the columns of `tasks` and `runs` the cluster reads, until the PostgreSQL
 * store's migrations create the real ones.
 */
export const CLUSTER_TEST_SCHEMA = `${TEAM_SCHEMA_SQL}
${TEAM_SCHEMA_V13_SQL}
CREATE TABLE IF NOT EXISTS tasks (id TEXT PRIMARY KEY, tenant_id TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS runs (
  id TEXT PRIMARY KEY,
  task_id TEXT NOT NULL REFERENCES tasks (id),
  status TEXT NOT NULL DEFAULT 'running',
  model TEXT,
  started_at BIGINT NOT NULL,
  finished_at BIGINT
);`;

export interface RunScript {
  /** Emits an event body; the stand-in stamps it. */
  emit: (body: RunEventBody) => void;
  signal: AbortSignal;
  /** Waits for an approval decision on the call, as the agent loop does. */
  wait: (callId: string) => Promise<Decision>;
}

interface StandInRun {
  scope: Scope;
  taskId: string;
  runId: string;
  seq: number;
  controller: AbortController;
  waiters: Map<string, (d: Decision) => void>;
  done: Promise<RunStatus>;
}

export class StandInRunManager implements RunHost {
  private readonly runs = new Map<string, StandInRun>();
  private shuttingDown = false;
  readonly cancelled: string[] = [];

  constructor(
    private readonly worker: ClusterWorker,
    private readonly pool: pg.Pool,
  ) {
    worker.attach(this);
  }

  /** Creates the task (if new) and the run row, takes the lease and drives `script` in the background. */
  async start(scope: Scope, taskId: string, runId: string, script: (run: RunScript) => Promise<FinishReason>): Promise<{ done: Promise<RunStatus> }> {
    await this.pool.query('INSERT INTO tasks (id, tenant_id) VALUES ($1, $2) ON CONFLICT DO NOTHING', [taskId, scope.tenant_id]);
    await this.pool.query(`INSERT INTO runs (id, task_id, status, started_at) VALUES ($1, $2, 'running', $3)`, [runId, taskId, Date.now()]);
    await this.worker.runStarted({ scope, taskId, runId });
    const run: StandInRun = { scope, taskId, runId, seq: 0, controller: new AbortController(), waiters: new Map(), done: Promise.resolve('running') };
    this.runs.set(runId, run);
    run.done = this.drive(run, script);
    return { done: run.done };
  }

  cancel(taskId: string, runId: string): void {
    const run = this.runs.get(runId);
    if (!run || run.taskId !== taskId) return;
    this.cancelled.push(runId);
    run.controller.abort();
  }

  decide(taskId: string, callId: string, decision: Decision): boolean {
    for (const run of this.runs.values()) {
      const waiter = run.taskId === taskId ? run.waiters.get(callId) : undefined;
      if (waiter) {
        waiter(decision);
        return true;
      }
    }
    return false;
  }

  async shutdown(): Promise<void> {
    this.shuttingDown = true;
    const live = [...this.runs.values()];
    for (const run of live) run.controller.abort();
    await Promise.all(live.map((r) => r.done));
  }

  private emit(run: StandInRun, body: RunEventBody): void {
    run.seq += 1;
    this.worker.runEvent(run.scope, { ...body, run_id: run.runId, task_id: run.taskId, seq: run.seq, at: Date.now() });
  }

  private async drive(run: StandInRun, script: (run: RunScript) => Promise<FinishReason>): Promise<RunStatus> {
    const startedAt = Date.now();
    this.emit(run, { type: 'run_started', model: null, resumed: false });
    let reason: FinishReason;
    try {
      reason = await script({
        emit: (body) => this.emit(run, body),
        signal: run.controller.signal,
        wait: async (callId) => {
          const stored = await this.worker.takeDecision(run.scope, run.taskId, callId);
          if (stored) return stored;
          return new Promise<Decision>((resolve, reject) => {
            run.waiters.set(callId, resolve);
            run.controller.signal.addEventListener('abort', () => reject(new Error('cancelled')), { once: true });
          });
        },
      });
    } catch {
      reason = run.controller.signal.aborted ? 'cancelled' : 'error';
    }
    const status: RunStatus = reason === 'cancelled' ? (this.shuttingDown ? 'interrupted' : 'cancelled') : reason === 'error' ? 'failed' : 'done';
    // Only a run still `running`: one a sweeper already ended stays `interrupted` (the PostgreSQL
    // store's runs.finish must do the same).
    await this.pool.query(`UPDATE runs SET status = $2, finished_at = $3 WHERE id = $1 AND status = 'running'`, [run.runId, status, Date.now()]);
    this.emit(run, { type: 'run_finished', reason, duration_ms: Date.now() - startedAt });
    await this.worker.runFinished(run.runId);
    this.runs.delete(run.runId);
    return status;
  }
}

/** A script that streams `count` text deltas, yielding to the event loop every `every` deltas. */
export function streamDeltas(count: number, every = 50): (run: RunScript) => Promise<FinishReason> {
  return async ({ emit, signal }) => {
    for (let i = 0; i < count; i++) {
      if (signal.aborted) return 'cancelled';
      emit({ type: 'text_delta', delta: `d${i} ` });
      if (i % every === every - 1) await new Promise((resolve) => setImmediate(resolve));
    }
    return 'done';
  };
}

/** A script that streams deltas every few ms until cancelled. */
export function streamUntilCancelled(intervalMs = 5): (run: RunScript) => Promise<FinishReason> {
  return async ({ emit, signal }) => {
    for (let i = 0; !signal.aborted; i++) {
      emit({ type: 'text_delta', delta: `d${i} ` });
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
    return 'cancelled';
  };
}
