// What the run manager asks of the cluster when several workers share one database:
// the cluster folder implements it (src/main/cluster/worker.ts); the desktop passes nothing. It is
// declared here, below the cluster, so runs never import the cluster.
import type { RunEvent, Usage } from '../../shared/contract';
import type { Decision } from '../agent/loop';
import type { Scope } from '../store/port';

export interface RunRef {
  scope: Scope;
  taskId: string;
  runId: string;
}

export interface RunCluster {
  /** The worker is shutting down: it takes no new runs (another worker will). */
  readonly isDraining: boolean;
  /** Takes the run's lease before it is driven (a conflict when another worker holds it). */
  runStarted(ref: RunRef): Promise<void>;
  /** Every stamped event, synchronously (written and announced in batches). */
  runEvent(scope: Scope, event: RunEvent): void;
  /** After `run_finished`: stores what is left of the run's events and frees its lease. */
  runFinished(runId: string): Promise<void>;
  /** A decision given while no run of the task was live, taken (removed) by the run that asks. */
  takeDecision(scope: Scope, taskId: string, callId: string): Promise<Decision | undefined>;
  /** Asks the worker holding the run to cancel it. */
  cancel(scope: Scope, taskId: string, runId: string): Promise<'forwarded' | 'not_live'>;
  /** Stores the decision and tells the worker running the task, if any. */
  decide(scope: Scope, taskId: string, callId: string, decision: Decision): Promise<'forwarded' | 'stored'>;
  /** Replays then streams a run's events from the shared log, whichever worker runs it. */
  subscribe(scope: Scope, taskId: string, runId: string, listener: (event: RunEvent) => void, afterSeq?: number): Promise<() => void>;
}

/** Hooks the team service gives the run manager beside the cluster: quotas and the usage ledger. */
export interface RunHooks {
  cluster?: RunCluster;
  /** Before a run is created; throws (quota_exceeded) to refuse it. */
  beforeStart?: (taskId: string) => Promise<void>;
  /** After a usage event is accounted on the run and the task. */
  onUsage?: (ref: { taskId: string; runId: string }, usage: Usage) => Promise<void>;
}
