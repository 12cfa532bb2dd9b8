// What the cluster needs from the process's RunManager, kept as a small interface so this folder
// never reaches into the run manager's internals: the methods below are the RunManager's own.
import type { ApprovalDecision, RunEvent } from '../../shared/contract';
import type { Scope } from '../store/port';

/** An approval decision, as the agent loop takes it (same shape as `agent/loop`'s Decision). */
export interface Decision {
  decision: ApprovalDecision;
  reason?: string;
}

/** The owning worker's run manager, as control and drain drive it. */
export interface RunHost {
  /** Aborts a live run (a no-op when it is not live). */
  cancel(taskId: string, runId: string): void;
  /** Hands a decision to the live run waiting for it; false when no live run waits for that call. */
  decide(taskId: string, callId: string, decision: Decision): boolean;
  /** Aborts every live run so it ends `interrupted`, and resolves when they all have. */
  shutdown(): Promise<void>;
}

/** A run's identity as the cluster tables key it. */
export interface RunRef {
  scope: Scope;
  taskId: string;
  runId: string;
}

export type RunEventListener = (event: RunEvent) => void;

/** PostgreSQL's clock in ms since the epoch: every worker compares lease times on one clock. */
export const DB_NOW_MS = '(extract(epoch from clock_timestamp()) * 1000)::bigint';
