// Owns live runs: starts the agent loop for a task, stamps and buffers its events (so late
// subscribers replay them), persists status and usage, routes approval decisions and cancels.
import { randomUUID } from 'node:crypto';
import type { FinishReason, PendingApproval, RunEvent, RunEventBody, RunStatus, Usage } from '../../shared/contract';
import { type ErrorShape, FolioError, NotFoundError, toErrorShape } from '../../shared/errors';
import { NOT_RUN_NEW_MESSAGE, NOT_RUN_REPLACED, unansweredToolCalls } from '../agent/conversation-shape';
import type { GrantKey } from '../agent/approval-policy';
import type { Decision } from '../agent/loop';
import type { RunEventHub } from './event-hub';
import type { StorePort } from '../store/port';
import type { RunHooks } from './run-cluster';
import { isAlwaysAllowed } from '../store/always-allow';
import type { CallStatePort } from '../agent/call-states';
import { RunCallLog } from './call-log';
import { callKey, type ToolCallRecord } from '../../shared/contract/tool-calls';
import { replayFinished, stamp } from './event-stamps';

/** What it takes to run the loop for one task; built per run by the service (model, tools, prompt). */
export type RunDriver = (ctx: RunDriverContext) => AsyncGenerator<RunEventBody, FinishReason>;

export interface RunDriverContext {
  taskId: string;
  runId: string;
  signal: AbortSignal;
  approvals: RunApprovals;
  /** Where the loop reports each tool call's named state; persisted with the run. */
  callStates: CallStatePort;
  /**
   * The model keys the request that started the run brought (the team service's per-request keys,
   * by variable name), used for this run only and never stored; null: none.
   */
  brought: ReadonlyMap<string, string> | null;
}

export interface RunApprovals {
  pending(callId: string): Promise<PendingApproval | undefined>;
  persist(approval: PendingApproval): Promise<void>;
  wait(callId: string, signal: AbortSignal): Promise<Decision>;
  settle(callId: string, grants: readonly GrantKey[], decision: Decision): Promise<void>;
  grant(grants: readonly GrantKey[]): Promise<void>;
  isGranted(grant: GrantKey): Promise<boolean>;
  isAlwaysAllowed(toolName: string): Promise<boolean>;
}

interface LiveRun {
  runId: string;
  taskId: string;
  controller: AbortController;
  events: RunEvent[];
  listeners: Set<(e: RunEvent) => void>;
  finished: boolean;
  startedAt: number;
  waiters: Map<string, (d: Decision) => void>;
  /** Resolves when this run has finished and its outcome is stored. */
  done: Promise<void>;
  markDone: () => void;
}

const KEEP_FINISHED_RUNS = 100;

export function newId(prefix: string): string {
  return `${prefix}_${Date.now().toString(36)}${randomUUID().replace(/-/g, '').slice(0, 12)}`;
}

/** Per tenant, the tail of this process's queue of run starts (see startsInTurn). */
const startQueues = new Map<string, Promise<unknown>>();

/**
 * Runs a tenant's run starts in this process one at a time. Each start waits on the tenant's lock
 * in the database holding a pooled connection, and the quota check needs another: queueing here
 * keeps one waiter per tenant per worker, so waiters can never take every connection. null: no queue.
 */
async function startsInTurn<T>(tenant: string | null, start: () => Promise<T>): Promise<T> {
  if (tenant === null) return start();
  const previous = startQueues.get(tenant) ?? Promise.resolve();
  const mine = previous.then(start, start);
  const tail = mine.catch(() => undefined);
  startQueues.set(tenant, tail);
  try {
    return await mine;
  } finally {
    if (startQueues.get(tenant) === tail) startQueues.delete(tenant);
  }
}

export class RunManager implements RunEventHub {
  private readonly live = new Map<string, LiveRun>();
  private readonly finishedOrder: string[] = [];
  /** Decisions given while no run was live (after a restart); consumed by the next run. */
  private readonly earlyDecisions = new Map<string, Decision>();
  private readonly idle = new Set<() => void>();
  private shuttingDown = false;
  /** Tasks whose run is being created (start awaits its transaction): a second start must refuse. */
  private readonly starting = new Set<string>();

  constructor(
    private readonly store: StorePort,
    private readonly driver: RunDriver,
    /** The team service's cluster and quota hooks; the desktop has none. */
    private readonly hooks: RunHooks = {},
  ) {}

  /** True while any run is live here (the team service keeps such a core open). */
  hasLiveRuns(): boolean {
    for (const run of this.live.values()) if (!run.finished) return true;
    return false;
  }

  activeRunFor(taskId: string): string | undefined {
    for (const run of this.live.values()) if (run.taskId === taskId && !run.finished) return run.runId;
    return undefined;
  }

  /**
   * Creates the run (and, in the same transaction, the user's message and any branch change) and
   * starts it. `branchFrom`: the active path's messages from this seq on become a kept branch and
   * the run continues from the message before them (regenerate, edit).
   */
  async start(taskId: string, opts: { userMessage?: string; model: string | null; branchFrom?: number; brought: ReadonlyMap<string, string> | null }): Promise<string> {
    if (this.activeRunFor(taskId) || this.starting.has(taskId)) throw new FolioError('conflict', 'A run is already active for this task; wait for it or cancel it.');
    if (this.hooks.cluster?.isDraining) throw new FolioError('unavailable', 'This worker is shutting down; send the request again (another worker takes it).');
    const runId = newId('r');
    const branching = opts.branchFrom !== undefined;
    // Calls a new message leaves unanswered end `cancelled` (they never ran), recorded with this run.
    const superseded: ToolCallRecord[] = [];
    this.starting.add(taskId);
    try {
      await startsInTurn(this.hooks.beforeStart ? this.store.scope.tenant_id : null, () => this.store.transaction(async (tx) => {
        if (this.hooks.beforeStart) {
          // The quota check and the new `running` row are one step for the whole tenant: the lock
          // makes every worker's starts for the tenant take turns until this transaction commits.
          await tx.lockTenant('run-start');
          // Another worker's run of this task is not in `live`; its row says it is running (a dead
          // worker's row too, until the sweeper marks it interrupted). Under the lock this check
          // and the insert below are one step.
          if ((await tx.runs.latestForTask(taskId))?.status === 'running') throw new FolioError('conflict', 'A run is already active for this task (on another worker); wait for it or cancel it.');
          await this.hooks.beforeStart(taskId);
        }
        await tx.runs.create({ id: runId, task_id: taskId, model: opts.model });
        if (opts.userMessage !== undefined || branching) {
          // A new message (or a replaced reply) supersedes calls left unanswered (a stop, or a cancel
          // during an approval): they are answered as not run first, on the path they belong to, so
          // every path keeps the shape providers accept and no approval is left asking.
          const pending = await tx.approvals.list(taskId);
          const content = branching ? NOT_RUN_REPLACED : NOT_RUN_NEW_MESSAGE;
          for (const call of unansweredToolCalls(await tx.messages.all(taskId))) {
            await tx.messages.append({ id: newId('m'), task_id: taskId, run_id: runId, role: 'tool', content, tool_call_id: call.id, name: call.name, is_error: true });
            const approval = pending.find((a) => a.call_id === call.id);
            if (approval) await tx.approvals.delete(approval.run_id, call.id);
            superseded.push({ message_id: call.message_id, call_id: call.id, name: call.name, state: 'cancelled', at: Date.now() });
          }
          if (superseded.length > 0) await tx.runs.setState(runId, { tool_calls: Object.fromEntries(superseded.map((r) => [callKey(r.message_id, r.call_id), r])) });
        }
        if (opts.branchFrom !== undefined) await tx.messages.truncateActivePath(taskId, opts.branchFrom);
        if (opts.userMessage !== undefined) {
          await tx.messages.append({ id: newId('m'), task_id: taskId, run_id: runId, role: 'user', content: opts.userMessage });
        }
        await tx.tasks.touch(taskId);
      }));
    } finally {
      this.starting.delete(taskId);
    }
    let markDone = () => {};
    const done = new Promise<void>((resolve) => (markDone = resolve));
    const run: LiveRun = {
      runId,
      taskId,
      controller: new AbortController(),
      events: [],
      listeners: new Set(),
      finished: false,
      startedAt: Date.now(),
      waiters: new Map(),
      done,
      markDone,
    };
    this.live.set(runId, run);
    // The lease is taken before any event exists, so every worker agrees who drives the run.
    if (this.hooks.cluster) {
      try {
        await this.hooks.cluster.runStarted({ scope: this.store.scope, taskId, runId });
      } catch (err) {
        this.live.delete(runId);
        await this.store.runs.finish(runId, 'failed', err instanceof Error ? err.message : String(err)).catch(() => undefined);
        throw err;
      }
    }
    this.emit(run, { type: 'run_started', model: opts.model, resumed: opts.userMessage === undefined && !branching });
    void this.drive(run, superseded, opts.brought);
    return runId;
  }

  async cancel(taskId: string, runId: string): Promise<void> {
    const run = this.live.get(runId);
    if (!run || run.taskId !== taskId) {
      const stored = await this.store.runs.get(runId);
      if (!stored || stored.task_id !== taskId) throw new NotFoundError(`No run ${runId} in task ${taskId}`);
      // Live on another worker: its owner is asked. Otherwise already finished: a no-op.
      if (stored.status === 'running') await this.hooks.cluster?.cancel(this.store.scope, taskId, runId);
      return;
    }
    run.controller.abort();
  }

  /**
   * Routes a decision: to the live run here that waits for it ('here'), to the worker running the
   * task ('elsewhere', team service), or keeps it for the task's next run ('kept').
   */
  async routeDecision(taskId: string, callId: string, decision: Decision): Promise<'here' | 'elsewhere' | 'kept'> {
    const { cluster } = this.hooks;
    if (!cluster || this.activeRunFor(taskId)) return this.decide(taskId, callId, decision) ? 'here' : 'kept';
    return (await cluster.decide(this.store.scope, taskId, callId, decision)) === 'forwarded' ? 'elsewhere' : 'kept';
  }

  /** Routes a decision to the live run waiting for it; returns false if no live run waits. */
  decide(taskId: string, callId: string, decision: Decision): boolean {
    for (const run of this.live.values()) {
      if (run.taskId !== taskId || run.finished) continue;
      const waiter = run.waiters.get(callId);
      if (waiter) {
        waiter(decision);
        return true;
      }
    }
    this.earlyDecisions.set(`${taskId}:${callId}`, decision);
    return false;
  }

  /** A live run's listener is added before this first awaits, so no event falls between replay and live. */
  async subscribe(taskId: string, runId: string, listener: (event: RunEvent) => void, afterSeq = 0): Promise<() => void> {
    const run = this.live.get(runId);
    if (!run) {
      const stored = await this.store.runs.get(runId);
      if (!stored || stored.task_id !== taskId) throw new NotFoundError(`No run ${runId} in task ${taskId}`);
      // Team service: every run's events are in the shared log, whichever worker drives it.
      if (this.hooks.cluster) return this.hooks.cluster.subscribe(this.store.scope, taskId, runId, listener, afterSeq);
      // A run from an earlier process: its summary is all that is left to replay.
      replayFinished(this.summaryEvents(stored.id, taskId, stored.status, stored.started_at, stored.finished_at, stored.model), listener, afterSeq);
      return () => {};
    }
    if (run.taskId !== taskId) throw new NotFoundError(`No run ${runId} in task ${taskId}`);
    if (run.finished) {
      replayFinished(run.events, listener, afterSeq);
      return () => {};
    }
    for (const e of run.events) if (e.seq > afterSeq) listener(e);
    run.listeners.add(listener);
    return () => run.listeners.delete(listener);
  }

  /** Resolves when the given run has finished (at once if it is not live). */
  async waitForRun(runId: string): Promise<void> {
    await this.live.get(runId)?.done;
  }

  /** Resolves when no run is active (used at shutdown and by tests). */
  async whenIdle(): Promise<void> {
    if (![...this.live.values()].some((r) => !r.finished)) return;
    await new Promise<void>((resolve) => this.idle.add(resolve));
  }

  /** Stops every live run; they end `interrupted` (not cancelled) so the task offers Continue. */
  async shutdown(): Promise<void> {
    this.shuttingDown = true;
    for (const run of this.live.values()) if (!run.finished) run.controller.abort();
    await this.whenIdle();
  }

  private summaryEvents(runId: string, taskId: string, status: RunStatus, startedAt: number, finishedAt: number | null, model: string | null): RunEvent[] {
    const base = { run_id: runId, task_id: taskId };
    const reason: FinishReason = status === 'done' ? 'done' : status === 'cancelled' ? 'cancelled' : 'error';
    const events: RunEvent[] = [{ ...base, seq: 1, at: startedAt, type: 'run_started', model, resumed: false }];
    if (status !== 'running') {
      events.push({ ...base, seq: 2, at: finishedAt ?? startedAt, type: 'run_finished', reason, duration_ms: Math.max(0, (finishedAt ?? startedAt) - startedAt) });
    }
    return events;
  }

  private emit(run: LiveRun, body: RunEventBody): void {
    const event = stamp(body, run.runId, run.taskId, run.events.length + 1, Date.now());
    run.events.push(event);
    this.hooks.cluster?.runEvent(this.store.scope, event);
    for (const listener of run.listeners) {
      try {
        listener(event);
      } catch {
        // A broken subscriber must not break the run or the other subscribers.
      }
    }
  }

  private async accountUsage(run: LiveRun, event: Usage): Promise<void> {
    const usage = { prompt_tokens: event.prompt_tokens, completion_tokens: event.completion_tokens, cost: event.cost };
    await this.store.transaction(async (tx) => {
      await tx.runs.addUsage(run.runId, usage);
      await tx.tasks.addUsage(run.taskId, usage);
    });
    await this.hooks.onUsage?.({ taskId: run.taskId, runId: run.runId }, usage);
  }

  private approvalsFor(run: LiveRun): RunApprovals {
    const { store } = this;
    const find = async (s: StorePort, callId: string) => (await s.approvals.list(run.taskId)).find((a) => a.call_id === callId);
    return {
      pending: (callId) => find(store, callId),
      persist: (approval) => store.approvals.put(run.taskId, approval),
      isGranted: (grant) => store.grants.has(run.taskId, grant.tool, grant.scope),
      // Read at each call: a tool always allowed (or no longer) in Settings counts from its next call.
      isAlwaysAllowed: (toolName) => isAlwaysAllowed(store.settings, toolName),
      wait: async (callId, signal) => {
        // Team service: a decision given while no run of the task was live, on any worker.
        const stored = await this.hooks.cluster?.takeDecision(this.store.scope, run.taskId, callId);
        return new Promise<Decision>((resolve, reject) => {
          const early = this.earlyDecisions.get(`${run.taskId}:${callId}`) ?? stored;
          if (early) {
            this.earlyDecisions.delete(`${run.taskId}:${callId}`);
            resolve(early);
            return;
          }
          const onAbort = () => {
            run.waiters.delete(callId);
            reject(new FolioError('cancelled', 'Cancelled while waiting for approval.'));
          };
          if (signal.aborted) return onAbort();
          signal.addEventListener('abort', onAbort, { once: true });
          run.waiters.set(callId, (d) => {
            signal.removeEventListener('abort', onAbort);
            run.waiters.delete(callId);
            resolve(d);
          });
        });
      },
      settle: (callId, grants) =>
        store.transaction(async (tx) => {
          const row = await find(tx, callId);
          if (row) await tx.approvals.delete(row.run_id, callId);
          for (const grant of grants) await tx.grants.grant(run.taskId, grant.tool, grant.scope);
        }),
      grant: (grants) =>
        store.transaction(async (tx) => {
          for (const grant of grants) await tx.grants.grant(run.taskId, grant.tool, grant.scope);
        }),
    };
  }

  private async drive(run: LiveRun, superseded: readonly ToolCallRecord[], brought: ReadonlyMap<string, string> | null): Promise<void> {
    let reason: FinishReason = 'error';
    let error: ErrorShape | string | null = null;
    const calls = new RunCallLog(this.store, { id: run.runId, taskId: run.taskId }, superseded);
    try {
      const gen = this.driver({ taskId: run.taskId, runId: run.runId, signal: run.controller.signal, approvals: this.approvalsFor(run), callStates: calls, brought });
      for (;;) {
        const next = await gen.next();
        if (next.done) {
          reason = next.value;
          break;
        }
        // A nested skill's failure is its calling tool's result, not the run's error.
        if (next.value.type === 'error' && next.value.parent_call_id === undefined) error = next.value.error;
        // Usage is accounted (run and task, one transaction) before subscribers hear of it; the
        // other events, deltas above all, never wait for the store.
        if (next.value.type === 'usage') await this.accountUsage(run, next.value);
        this.emit(run, next.value);
      }
    } catch (err) {
      const shape = toErrorShape(err);
      error = shape;
      this.emit(run, { type: 'error', error: shape });
      reason = 'error';
    }
    if (run.controller.signal.aborted && reason !== 'error') reason = 'cancelled';
    let status: RunStatus = reason === 'done' || reason === 'max_turns' ? 'done' : reason === 'cancelled' ? 'cancelled' : 'failed';
    if (this.shuttingDown && reason === 'cancelled') status = 'interrupted';
    await calls.flushed();
    if (reason === 'max_turns') error = 'Stopped at the model profile’s max_iterations; send a message or Continue to go on.';
    try {
      await this.store.runs.finish(run.runId, status, error);
    } catch {
      // The store may be closing at shutdown; the run is then marked interrupted at next start.
    }
    this.emit(run, { type: 'run_finished', reason, duration_ms: Date.now() - run.startedAt });
    run.finished = true;
    run.listeners.clear();
    // The cluster stores the rest of the run's events and frees its lease before the run counts as done.
    await this.hooks.cluster?.runFinished(run.runId).catch(() => undefined);
    run.markDone();
    this.finishedOrder.push(run.runId);
    while (this.finishedOrder.length > KEEP_FINISHED_RUNS) this.live.delete(this.finishedOrder.shift()!);
    if (![...this.live.values()].some((r) => !r.finished)) {
      for (const resolve of this.idle) resolve();
      this.idle.clear();
    }
  }
}
