import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../../../shared/contract';
import { applyEvent, formatFooter, initialScreen, startRun, summarizeArguments, type ScreenState } from './screen';

let seq = 0;
const ev = (body: Record<string, unknown>, runId = 'r1'): RunEvent => ({ run_id: runId, task_id: 't1', seq: ++seq, at: 0, ...body }) as RunEvent;

function play(events: RunEvent[], state: ScreenState = startRun(initialScreen, 't1', 'r1', 0)): ScreenState {
  return events.reduce(applyEvent, state);
}

describe('the chat screen reducer', () => {
  it('streams reasoning and text live, then logs them (reasoning first) and a footer summing every model call', () => {
    const mid = play([ev({ type: 'run_started', model: 'fake.main', resumed: false }), ev({ type: 'reasoning_delta', delta: 'Let me ' }), ev({ type: 'reasoning_delta', delta: 'think.' }), ev({ type: 'text_delta', delta: 'Hel' }), ev({ type: 'text_delta', delta: 'lo' })]);
    expect(mid.liveReasoning).toBe('Let me think.');
    expect(mid.liveText).toBe('Hello');
    expect(mid.items).toEqual([]);
    const end = play(
      [
        ev({ type: 'usage', prompt_tokens: 100, completion_tokens: 20, cost: 0.001 }),
        ev({ type: 'usage', prompt_tokens: 150, completion_tokens: 10, cost: 0.002 }),
        ev({ type: 'run_finished', reason: 'done', duration_ms: 3250 }),
      ],
      mid,
    );
    expect(end.items.map((i) => i.kind)).toEqual(['reasoning', 'assistant', 'footer']);
    expect(end.items[1]).toMatchObject({ kind: 'assistant', text: 'Hello' });
    expect(end.running).toBeNull();
    expect(formatFooter(end.items[2] as Parameters<typeof formatFooter>[0])).toBe('[in 250 out 30 3.3s 0.0030]');
    expect(end.contextTokens).toBe(160);
  });

  it('shows tool calls and results in short form, text before a call first', () => {
    const s = play([
      ev({ type: 'text_delta', delta: 'I will write it.' }),
      ev({ type: 'tool_call', call_id: 'c1', name: 'write', arguments: JSON.stringify({ path: 'work/note.md', content: 'x'.repeat(5000) }), kind: 'edit' }),
      ev({ type: 'tool_result', call_id: 'c1', name: 'write', preview: `Created work/note.md\n${'y'.repeat(500)}`, truncated: false, is_error: false, full_length: 520, writes_artifacts: false }),
    ]);
    expect(s.items.map((i) => i.kind)).toEqual(['assistant', 'tool_call', 'tool_result']);
    expect(s.items[1]).toMatchObject({ name: 'write', summary: 'work/note.md' });
    // The result is worded when drawn, from the call's arguments and how it ended; its own text kept short.
    const result = s.items[2] as Extract<(typeof s.items)[number], { kind: 'tool_result' }>;
    expect(result.said).toMatchObject({ name: 'write', outcome: 'ok', arguments: JSON.stringify({ path: 'work/note.md', content: 'x'.repeat(5000) }) });
    expect(result.preview.startsWith('Created work/note.md y')).toBe(true);
    expect(result.preview.length).toBeLessThanOrEqual(160);
  });

  it('queues approval questions until they are resolved, then logs the decision', () => {
    const asked = play([
      ev({ type: 'approval_required', call_id: 'c1', name: 'write', arguments: '{"path":"a.md"}', kind: 'edit', risk: 'standard', detail: null }),
      ev({ type: 'approval_required', call_id: 'c2', name: 'shell', arguments: '{"command":"rm -rf x"}', kind: 'execute', risk: 'destructive', detail: 'deletes x' }),
    ]);
    expect(asked.approvals.map((q) => [q.callId, q.summary, q.risk])).toEqual([
      ['c1', 'a.md', 'standard'],
      ['c2', 'rm -rf x', 'destructive'],
    ]);
    const answered = play([ev({ type: 'approval_resolved', call_id: 'c1', decision: 'allow_task' })], asked);
    expect(answered.approvals.map((q) => q.callId)).toEqual(['c2']);
    expect(answered.items.at(-1)).toMatchObject({ kind: 'approval', name: 'write', decision: 'allow_task' });
  });

  it('drops text streamed before a retry, reports errors and cancellation, ignores other runs and unknown events', () => {
    const s = play([
      ev({ type: 'text_delta', delta: 'half a rep' }),
      ev({ type: 'retry', attempt: 1, reason: 'HTTP 429', delay_ms: 10 }),
      ev({ type: 'text_delta', delta: 'other run' }, 'r2'),
      ev({ type: 'nested_something_new', x: 1 }),
      ev({ type: 'error', error: { name: 'ProviderError', code: 'internal', message: 'The provider is down.' } }),
      ev({ type: 'run_finished', reason: 'cancelled', duration_ms: 100 }),
    ]);
    expect(s.liveText).toBe('');
    expect(s.items.map((i) => (i.kind === 'notice' ? i.key : i.kind === 'text' ? i.text : i.kind === 'error' ? i.message : i.kind))).toEqual(['run.retry', 'The provider is down.', 'run.cancelled', 'footer']);
  });

  it('says a retry by its kind when the event names one, for the screen’s language to word', () => {
    const s = play([ev({ type: 'retry', attempt: 2, reason: 'stream failed: terminated (UND_ERR_SOCKET)', cause: 'stream_failed', delay_ms: 10 })]);
    expect(s.items).toEqual([expect.objectContaining({ kind: 'notice', key: 'run.retryBecause', vars: { attempt: 2, cause: 'stream_failed' } })]);
  });

  it('summarizes arguments by their most telling field, else as JSON, else as given', () => {
    expect(summarizeArguments('{"command":"ls -la"}')).toBe('ls -la');
    expect(summarizeArguments('{"slides":[1,2]}')).toBe('{"slides":[1,2]}');
    expect(summarizeArguments('{broken')).toBe('{broken');
  });
});
