import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../../shared/contract';
import { eventsOfRow, storedEventJson } from './run-event-rows';

const runId = '6f1c2a9e-3b7d-4c1e-9a2f-0d8e5b4c3a21';
const taskId = '0b9d8c7e-6f5a-4b3c-8d2e-1f0a9b8c7d6e';
const ids = { run_id: runId, task_id: taskId };

const events: RunEvent[] = [
  { type: 'run_started', model: 'fake.main', resumed: false, ...ids, seq: 1, at: 1_765_000_000_000 },
  { type: 'text_delta', delta: 'plain text', ...ids, seq: 2, at: 1_765_000_000_001 },
  { type: 'text_delta', delta: '引号 " 反斜杠 \\ 换行\n\u2028 制表\t 😀', ...ids, seq: 3, at: 1_765_000_000_002 },
  { type: 'reasoning_delta', delta: 'thinking', ...ids, seq: 4, at: 1_765_000_000_003 },
  { type: 'text_delta', delta: 'inside a skill', parent_call_id: 'call-1', depth: 1, ...ids, seq: 5, at: 1_765_000_000_004 },
  { type: 'reasoning_delta', delta: 'nested, no call id', depth: 2, ...ids, seq: 6, at: 1_765_000_000_005 },
  { type: 'tool_call', call_id: 'call-2', name: 'write_file', arguments: '{"path":"a.md"}', kind: 'edit', ...ids, seq: 7, at: 1_765_000_000_006 },
  { type: 'run_finished', reason: 'done', duration_ms: 12, ...ids, seq: 8, at: 1_765_000_000_007 },
];

describe('stored run events', () => {
  it('read back exactly as they were emitted, every shape', () => {
    const text = `[${events.map(storedEventJson).join(',')}]`;
    expect(eventsOfRow({ ...ids, seq: 1, events: text })).toEqual(events);
    // Later in a run: a delta's seq is its place after the row's first.
    const later = events.slice(1, 4).map((e, i) => ({ ...e, seq: 41 + i }));
    expect(eventsOfRow({ ...ids, seq: 41, events: `[${later.map(storedEventJson).join(',')}]` })).toEqual(later);
  });

  it('leave the ids to the row and the seq to its place, so a text delta stores in a quarter of the bytes', () => {
    const delta = events[1];
    const stored = storedEventJson(delta);
    expect(stored).not.toContain(runId);
    expect(stored).not.toContain(taskId);
    expect(stored.length).toBeLessThan(JSON.stringify(delta).length / 4);
    for (const event of events.slice(4)) {
      expect(storedEventJson(event)).not.toContain(runId);
      expect(JSON.parse(storedEventJson(event))).toMatchObject({ type: event.type, seq: event.seq });
    }
  });

  it('read rows written with the ids in every event (before the stored form) the same', () => {
    expect(eventsOfRow({ ...ids, seq: 1, events: JSON.stringify(events) })).toEqual(events);
  });
});
