// Test support: an in-memory RunEventHub with the port's semantics (synchronous replay after a
// seq, then live events until run_finished; NotFoundError for unknown runs).
import { type RunEvent, type RunEventBody } from '../../shared/contract/events';
import { NotFoundError } from '../../shared/errors';
import type { RunEventHub } from '../service/ports';

interface RunLog {
  taskId: string;
  events: RunEvent[];
  listeners: Set<(event: RunEvent) => void>;
  finished: boolean;
}

export class MemoryRunEventHub implements RunEventHub {
  private readonly runs = new Map<string, RunLog>();
  private clock = 1_700_000_000_000;

  startRun(taskId: string, runId: string): void {
    this.runs.set(runId, { taskId, events: [], listeners: new Set(), finished: false });
  }

  /** Stamps the body with ids, the next seq (1-based) and a time, and delivers it live. */
  emit(runId: string, body: RunEventBody): RunEvent {
    const run = this.runs.get(runId);
    if (!run) throw new Error(`emit to unknown run ${runId}`);
    if (run.finished) throw new Error(`emit after run_finished on ${runId}`);
    const event: RunEvent = { ...body, run_id: runId, task_id: run.taskId, seq: run.events.length + 1, at: this.clock++ };
    run.events.push(event);
    for (const listener of [...run.listeners]) listener(event);
    if (event.type === 'run_finished') {
      run.finished = true;
      run.listeners.clear();
    }
    return event;
  }

  listenerCount(runId: string): number {
    return this.runs.get(runId)?.listeners.size ?? 0;
  }

  async subscribe(taskId: string, runId: string, listener: (event: RunEvent) => void, afterSeq = 0): Promise<() => void> {
    const run = this.runs.get(runId);
    if (!run || run.taskId !== taskId) throw new NotFoundError(`Run ${runId} not found`);
    for (const event of run.events) if (event.seq > afterSeq) listener(event);
    if (run.finished) return () => {};
    run.listeners.add(listener);
    return () => run.listeners.delete(listener);
  }
}
