// How run events are stored in a `run_events` row: the row's `events` text is a JSON array of the
// run's events `seq` … `last_seq`, in order, none with `run_id` or `task_id` (the row's own
// columns). A top-level text or reasoning delta, most of a run's events, is stored as
// `["t", at, delta]` (`"r"` for reasoning), its seq being its place in the row; any other event as
// its JSON object. A 20-character delta is ~40 bytes stored instead of ~180 as a full event, and
// every stored byte is serialised by the writer, compressed, stored and read back by PostgreSQL,
// and decoded and parsed by every reader. Rows written before this form (full events) read the same.
import type { RunEvent } from '../../shared/contract';

/** A run event stored as an object: the ids live in the row. */
type StoredObject = RunEvent extends infer E ? (E extends RunEvent ? Omit<E, 'run_id' | 'task_id'> : never) : never;
/** A top-level delta: text (`t`) or reasoning (`r`), when it was emitted, its text. */
type StoredDelta = ['t' | 'r', number, string];

/** The stored JSON of one event. */
export function storedEventJson(event: RunEvent): string {
  if ((event.type === 'text_delta' || event.type === 'reasoning_delta') && event.parent_call_id === undefined && event.depth === undefined) {
    return `["${event.type === 'text_delta' ? 't' : 'r'}",${event.at},${JSON.stringify(event.delta)}]`;
  }
  const { run_id: _runId, task_id: _taskId, ...stored } = event;
  return JSON.stringify(stored);
}

/** A row's events as the run's subscribers get them, whole (the run manager's `stamp` shape). */
export function eventsOfRow(row: { run_id: string; task_id: string; seq: number; events: string }): RunEvent[] {
  const { run_id, task_id } = row;
  const stored = JSON.parse(row.events) as (StoredDelta | (StoredObject & Partial<Pick<RunEvent, 'run_id' | 'task_id'>>))[];
  const events = new Array<RunEvent>(stored.length);
  for (let i = 0; i < stored.length; i++) {
    const e = stored[i];
    if (Array.isArray(e)) {
      events[i] = { type: e[0] === 't' ? 'text_delta' : 'reasoning_delta', delta: e[2], run_id, task_id, seq: row.seq + i, at: e[1] };
    } else {
      e.run_id = run_id;
      e.task_id = task_id;
      events[i] = e as RunEvent;
    }
  }
  return events;
}
