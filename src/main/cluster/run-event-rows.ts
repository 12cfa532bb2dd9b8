// How run events are stored in a `run_events` row: the row's `events` text is a JSON array of
// consecutive events of one run, each without `run_id` and `task_id` (the row's own columns). Those
// two ids are most of a text delta's bytes (a 20-character delta is ~80 bytes stored, ~180 with
// them), and every stored byte is serialised by the writer, compressed and read back by PostgreSQL,
// and decoded and parsed by every reader. Rows written with the ids in each event (before this
// form) read the same.
import type { RunEvent } from '../../shared/contract';

/** A run event as it is stored: the ids live in the row. */
export type StoredRunEvent = RunEvent extends infer E ? (E extends RunEvent ? Omit<E, 'run_id' | 'task_id'> : never) : never;

/** The stored JSON of one event. */
export function storedEventJson(event: RunEvent): string {
  // A top-level text delta (the run manager's `stamp` shape) is most of a run's events: one short
  // JSON.stringify of its text, without copying the object.
  if (event.type === 'text_delta' || event.type === 'reasoning_delta') {
    if (event.parent_call_id === undefined && event.depth === undefined) return `{"type":"${event.type}","delta":${JSON.stringify(event.delta)},"seq":${event.seq},"at":${event.at}}`;
  }
  const { run_id: _runId, task_id: _taskId, ...stored } = event;
  return JSON.stringify(stored);
}

/** A row's events as the run's subscribers get them: with the run and task ids back in each. */
export function eventsOfRow(runId: string, taskId: string, events: string): RunEvent[] {
  const parsed = JSON.parse(events) as (StoredRunEvent & Partial<Pick<RunEvent, 'run_id' | 'task_id'>>)[];
  for (const event of parsed) {
    event.run_id = runId;
    event.task_id = taskId;
  }
  return parsed as RunEvent[];
}
