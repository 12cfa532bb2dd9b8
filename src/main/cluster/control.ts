// Cancels and approval decisions reach the worker that owns the run (many workers): the
// worker that received the request NOTIFYs the control channel, addressed to the lease holder, who
// applies it to its run manager. A decision is also stored until a run takes it, so one given while
// the owner died (or before its run asked) is found by Continue on any worker, as the desktop's
// run manager keeps decisions given while no run is live.
import type pg from 'pg';
import type { Scope } from '../store/port';
import { DB_NOW_MS, type Decision, type RunHost } from './host';
import type { Leases } from './leases';
import type { Listener } from './listener';

export const CONTROL_CHANNEL = 'folio_run_control';

export type ControlMessage =
  | { kind: 'cancel'; worker_id: string; tenant_id: string; task_id: string; run_id: string }
  | { kind: 'decide'; worker_id: string; tenant_id: string; task_id: string; run_id: string; call_id: string };

const NOTICE_COLUMNS = `'worker_id', l.worker_id, 'tenant_id', l.tenant_id, 'task_id', l.task_id, 'run_id', l.run_id`;

export interface ControlOptions {
  onError?: (err: Error) => void;
}

export class Control {
  private host: RunHost | null = null;

  constructor(
    private readonly pool: pg.Pool,
    listener: Listener,
    private readonly leases: Leases,
    private readonly options: ControlOptions = {},
  ) {
    void listener.on(CONTROL_CHANNEL, (payload) => this.onMessage(payload));
  }

  /** The run manager messages are applied to (set once it exists: it is built with the cluster's taps). */
  attach(host: RunHost): void {
    this.host = host;
  }

  /**
   * Asks the owner of the run to cancel it. 'forwarded' when a worker holds it; 'not_live' when none
   * does (finished, or its worker died and the sweeper will mark it interrupted).
   */
  async cancel(scope: Scope, taskId: string, runId: string): Promise<'forwarded' | 'not_live'> {
    const { rowCount } = await this.pool.query(
      `SELECT pg_notify('${CONTROL_CHANNEL}', json_build_object('kind', 'cancel', ${NOTICE_COLUMNS})::text)
       FROM run_leases l WHERE l.run_id = $1 AND l.task_id = $2 AND l.tenant_id = $3`,
      [runId, taskId, scope.tenant_id],
    );
    return rowCount ? 'forwarded' : 'not_live';
  }

  /**
   * Stores the decision and tells the owner of the task's live run. 'forwarded' when a run of the
   * task is live somewhere; 'stored' when none is (a later Continue takes it).
   */
  async decide(scope: Scope, taskId: string, callId: string, decision: Decision): Promise<'forwarded' | 'stored'> {
    const { rowCount } = await this.pool.query(
      `WITH stored AS (
         INSERT INTO approval_decisions (tenant_id, task_id, call_id, decision, at) VALUES ($1, $2, $3, $4::jsonb, ${DB_NOW_MS})
         ON CONFLICT (tenant_id, task_id, call_id) DO UPDATE SET decision = EXCLUDED.decision, at = EXCLUDED.at
       )
       SELECT pg_notify('${CONTROL_CHANNEL}', json_build_object('kind', 'decide', 'call_id', $3::text, ${NOTICE_COLUMNS})::text)
       FROM run_leases l WHERE l.tenant_id = $1 AND l.task_id = $2`,
      [scope.tenant_id, taskId, callId, JSON.stringify(decision)],
    );
    return rowCount ? 'forwarded' : 'stored';
  }

  /**
   * Takes (and removes) a stored decision for the call. A run calls this when it starts waiting for
   * an approval, before waiting: it finds decisions given while no run of the task was live.
   */
  async takeDecision(scope: Scope, taskId: string, callId: string): Promise<Decision | undefined> {
    const { rows } = await this.pool.query<{ decision: Decision }>(
      'DELETE FROM approval_decisions WHERE tenant_id = $1 AND task_id = $2 AND call_id = $3 RETURNING decision',
      [scope.tenant_id, taskId, callId],
    );
    return rows[0]?.decision;
  }

  private onMessage(payload: string): void {
    let message: ControlMessage;
    try {
      message = JSON.parse(payload) as ControlMessage;
    } catch {
      return;
    }
    if (message.worker_id !== this.leases.workerId || !this.leases.holds(message.run_id) || !this.host) return;
    if (message.kind === 'cancel') {
      this.host.cancel(message.task_id, message.run_id);
      return;
    }
    void this.deliver(message).catch((err: Error) => this.options.onError?.(err));
  }

  private async deliver(message: Extract<ControlMessage, { kind: 'decide' }>): Promise<void> {
    const scope: Scope = { tenant_id: message.tenant_id, user_id: '' };
    const { rows } = await this.pool.query<{ decision: Decision }>(
      'SELECT decision FROM approval_decisions WHERE tenant_id = $1 AND task_id = $2 AND call_id = $3',
      [scope.tenant_id, message.task_id, message.call_id],
    );
    const decision = rows[0]?.decision;
    if (!decision || !this.host) return;
    // Taken by a waiting run: nothing left to keep. Otherwise the row stays for whichever run asks.
    if (this.host.decide(message.task_id, message.call_id, decision)) await this.takeDecision(scope, message.task_id, message.call_id);
  }
}
