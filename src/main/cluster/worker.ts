// One worker's share of the cluster machinery (many workers), wired together: a Pool for
// queries, one LISTEN connection, the run-event log (writer + hub), leases with their sweeper,
// control messages and drain. The RunManager reaches it through the three taps below.
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import pg from 'pg';
import type { RunEvent } from '../../shared/contract';
import type { Scope } from '../store/port';
import type { RunCluster } from '../runs/run-cluster';
import { Control } from './control';
import { drain } from './drain';
import type { Decision, RunHost, RunRef } from './host';
import { Leases, Sweeper, type SweptRun } from './leases';
import { Listener } from './listener';
import { RunEventReader, sqlRunLookup, type RunLookup } from './run-event-reader';
import { RunEventWriter } from './run-event-writer';

export interface ClusterWorkerOptions {
  connectionString: string;
  workerId?: string;
  leaseTtlMs?: number;
  sweepIntervalMs?: number;
  flushMs?: number;
  poolSize?: number;
  lookup?: RunLookup;
  onSwept?: (run: SweptRun) => void;
  onError?: (err: Error) => void;
}

export class ClusterWorker {
  readonly id: string;
  readonly pool: pg.Pool;
  readonly listener: Listener;
  readonly writer: RunEventWriter;
  readonly hub: RunEventReader;
  readonly leases: Leases;
  readonly sweeper: Sweeper;
  readonly control: Control;
  private host: RunHost | null = null;
  private closed = false;

  constructor(options: ClusterWorkerOptions) {
    this.id = options.workerId ?? `${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;
    const onError = options.onError;
    this.pool = new pg.Pool({ connectionString: options.connectionString, max: options.poolSize ?? 10 });
    // An idle client's error (the server restarting) must not crash the process; the next query reconnects.
    this.pool.on('error', (err) => onError?.(err));
    this.listener = new Listener({ connectionString: options.connectionString, onError });
    this.writer = new RunEventWriter(this.pool, { flushMs: options.flushMs, onError });
    this.hub = new RunEventReader(this.pool, this.listener, { lookup: options.lookup ?? sqlRunLookup(this.pool), onError });
    this.leases = new Leases(this.pool, {
      workerId: this.id,
      ttlMs: options.leaseTtlMs,
      onError,
      // The run is already interrupted for every other worker: stop it here too.
      onLost: (ref) => this.host?.cancel(ref.taskId, ref.runId),
    });
    this.sweeper = new Sweeper(this.pool, {
      intervalMs: options.sweepIntervalMs ?? Math.max(1, Math.floor(this.leases.ttlMs / 3)),
      orphanAfterMs: this.leases.ttlMs * 2,
      onSwept: options.onSwept,
      onError,
    });
    this.control = new Control(this.pool, this.listener, this.leases, { onError });
  }

  async start(): Promise<this> {
    await this.listener.start();
    await this.leases.start();
    this.sweeper.start();
    return this;
  }

  /** The process's run manager; control messages and drain act on it. */
  attach(host: RunHost): void {
    this.host = host;
    this.control.attach(host);
  }


  /** Before the run is driven: takes its lease (a conflict if held elsewhere, unavailable while draining). */
  runStarted(ref: RunRef): Promise<void> {
    return this.leases.acquire(ref);
  }

  /** Every stamped event, as it is emitted (synchronous; written in batches). */
  runEvent(scope: Scope, event: RunEvent): void {
    this.writer.append(scope, event);
  }

  /** After `run_finished` was emitted, before the run is reported done: stores its events, frees the lease. */
  async runFinished(runId: string): Promise<void> {
    await this.writer.flush();
    await this.leases.release(runId);
  }

  /** In the run's approval wait, before waiting: a decision stored while no run of the task was live. */
  takeDecision(scope: Scope, taskId: string, callId: string): Promise<Decision | undefined> {
    return this.control.takeDecision(scope, taskId, callId);
  }

  /** The run manager's view of this worker (runs/run-cluster.ts). */
  runCluster(): RunCluster {
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- the getter below reads the live flag
    const worker = this;
    return {
      get isDraining() {
        return worker.isDraining;
      },
      runStarted: (ref) => this.runStarted(ref),
      runEvent: (scope, event) => this.runEvent(scope, event),
      runFinished: (runId) => this.runFinished(runId),
      takeDecision: (scope, taskId, callId) => this.takeDecision(scope, taskId, callId),
      cancel: (scope, taskId, runId) => this.control.cancel(scope, taskId, runId),
      decide: (scope, taskId, callId, decision) => this.control.decide(scope, taskId, callId, decision),
      subscribe: (scope, taskId, runId, listener, afterSeq) => this.hub.subscribe(scope, taskId, runId, listener, afterSeq),
    };
  }

  get isDraining(): boolean {
    return this.leases.isDraining;
  }

  /** Graceful shutdown: hands the runs back (see drain.ts), then closes the connections. */
  async drain(): Promise<void> {
    this.sweeper.stop();
    await drain({ leases: this.leases, writer: this.writer, host: this.host });
    await this.close();
  }

  /** Closes connections without handing runs back (their leases expire; tests use this as a crash). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.sweeper.stop();
    this.leases.stop();
    await this.writer.close();
    await this.listener.close();
    await this.pool.end();
  }
}

export async function startClusterWorker(options: ClusterWorkerOptions): Promise<ClusterWorker> {
  return new ClusterWorker(options).start();
}
