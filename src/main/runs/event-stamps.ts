// A run's events as subscribers receive them: stamped with run, task, seq and time, and replayed
// to a subscriber that comes late.
import type { RunEvent, RunEventBody } from '../../shared/contract';

/**
 * Replays a finished run after `afterSeq`. A subscriber that already saw everything still gets the
 * final event again, so a stream resumed after the end is told the run is over instead of waiting.
 */
export function replayFinished(events: RunEvent[], listener: (e: RunEvent) => void, afterSeq: number): void {
  const rest = events.filter((e) => e.seq > afterSeq);
  const last = events.at(-1);
  if (rest.length === 0 && last?.type === 'run_finished') rest.push(last);
  for (const e of rest) listener(e);
}

/**
 * The event with its run, task, seq and time. Deltas, nearly every event of a run, get a literal of
 * one fixed shape: spreading bodies of a dozen shapes made the copy megamorphic, the largest cost
 * per delta between the model stream and the SSE socket. Same keys, same order either way.
 */
export function stamp(body: RunEventBody, runId: string, taskId: string, seq: number, at: number): RunEvent {
  if ((body.type === 'text_delta' || body.type === 'reasoning_delta') && body.parent_call_id === undefined) {
    return { type: body.type, delta: body.delta, run_id: runId, task_id: taskId, seq, at };
  }
  return { ...body, run_id: runId, task_id: taskId, seq, at };
}
