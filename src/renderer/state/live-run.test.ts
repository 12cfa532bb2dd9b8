import { describe, expect, it } from 'vitest';
import type { RunEvent, RunEventBody } from '../../shared/contract';
import { applyRunEvent, createLiveRun, isLiveRunActive, type LiveRun } from './live-run';

let seq = 0;
function ev(body: RunEventBody & { seq?: number; run_id?: string }): RunEvent {
  seq++;
  return { run_id: 'r1', task_id: 't1', at: 1_700_000_000_000 + seq, ...body, seq: body.seq ?? seq };
}

function applyAll(events: RunEvent[]): LiveRun {
  return events.reduce(applyRunEvent, createLiveRun('t1', 'r1'));
}

describe('applyRunEvent', () => {
  it('shows a running tool’s progress and clears it when the tool ends', () => {
    seq = 0;
    const started = [
      ev({ type: 'tool_call', call_id: 'c1', name: 'render_deck', arguments: '{}', kind: 'edit' }),
      ev({ type: 'progress', step: 'render_deck', done: 0, total: 4 }),
      ev({ type: 'progress', step: 'render_deck', done: 4, total: 4 }),
    ];
    expect(applyAll(started).progress).toEqual({ of: { step: 'render_deck' }, done: 4, total: 4 });
    const ended = applyAll([
      ...started,
      ev({ type: 'tool_result', call_id: 'c1', name: 'render_deck', preview: 'ok', truncated: false, is_error: false, full_length: 2, writes_artifacts: true }),
    ]);
    expect(ended.progress).toBeNull();
  });

  it('a retry drops the text streamed since the last tool, so the retried answer is not shown twice', () => {
    seq = 0;
    const run = applyAll([
      ev({ type: 'run_started', model: 'fake.chat', resumed: false }),
      ev({ type: 'tool_call', call_id: 'c1', name: 'read', arguments: '{}', kind: 'read' }),
      ev({ type: 'tool_result', call_id: 'c1', name: 'read', preview: 'ok', truncated: false, is_error: false, full_length: 2, writes_artifacts: false }),
      ev({ type: 'reasoning_delta', delta: 'hmm' }),
      ev({ type: 'text_delta', delta: 'garbled par' }),
      ev({ type: 'retry', attempt: 1, reason: 'stream dropped', delay_ms: 100 }),
      ev({ type: 'text_delta', delta: 'Clean answer' }),
    ]);
    expect(run.items.map((i) => i.kind)).toEqual(['tool', 'text']);
    expect(run.items[1]).toEqual({ kind: 'text', text: 'Clean answer' });
  });

  it('assembles streamed text and reasoning into consecutive segments', () => {
    seq = 0;
    const run = applyAll([
      ev({ type: 'run_started', model: 'fake.chat', resumed: false }),
      ev({ type: 'reasoning_delta', delta: 'Let me ' }),
      ev({ type: 'reasoning_delta', delta: 'think.' }),
      ev({ type: 'text_delta', delta: 'Hello ' }),
      ev({ type: 'text_delta', delta: 'world' }),
    ]);
    expect(run.model).toBe('fake.chat');
    expect(run.items).toEqual([
      { kind: 'reasoning', text: 'Let me think.' },
      { kind: 'text', text: 'Hello world' },
    ]);
    expect(isLiveRunActive(run)).toBe(true);
  });

  it('pairs tool results with their calls and keeps text before and after as separate segments', () => {
    seq = 0;
    const run = applyAll([
      ev({ type: 'text_delta', delta: 'Reading.' }),
      ev({ type: 'tool_call', call_id: 'c1', name: 'read_file', arguments: '{"path":"a.md"}', kind: 'read' }),
      ev({ type: 'tool_result', call_id: 'c1', name: 'read_file', preview: 'abc', truncated: true, is_error: false, full_length: 9000, writes_artifacts: false }),
      ev({ type: 'text_delta', delta: 'Done.' }),
    ]);
    expect(run.items).toEqual([
      { kind: 'text', text: 'Reading.' },
      {
        kind: 'tool',
        callId: 'c1',
        name: 'read_file',
        arguments: '{"path":"a.md"}',
        toolKind: 'read',
        result: { preview: 'abc', truncated: true, isError: false, fullLength: 9000 },
      },
      { kind: 'text', text: 'Done.' },
    ]);
  });

  it('shows a tool result even when its call event was never seen', () => {
    seq = 0;
    const run = applyAll([ev({ type: 'tool_result', call_id: 'c9', name: 'shell', preview: 'boom', truncated: false, is_error: true, full_length: 4, writes_artifacts: false })]);
    expect(run.items).toEqual([
      { kind: 'tool', callId: 'c9', name: 'shell', arguments: '', toolKind: null, result: { preview: 'boom', truncated: false, isError: true, fullLength: 4 } },
    ]);
  });

  it('tracks pending approvals until they are resolved', () => {
    seq = 0;
    const required = ev({
      type: 'approval_required',
      call_id: 'c2',
      name: 'shell',
      arguments: '{"command":"rm -rf build"}',
      kind: 'execute',
      risk: 'destructive',
      detail: null, reasons: [],
    });
    const pending = applyAll([required]);
    expect(pending.approvals).toHaveLength(1);
    expect(pending.approvals[0]).toMatchObject({ callId: 'c2', risk: 'destructive', toolKind: 'execute', runId: 'r1' });
    const resolved = applyRunEvent(pending, ev({ type: 'approval_resolved', call_id: 'c2', decision: 'deny' }));
    expect(resolved.approvals).toEqual([]);
    expect(resolved.resolvedApprovals).toEqual(['c2']);
  });

  it('shows the latest progress step with its file and clears it when the model writes again', () => {
    seq = 0;
    const withProgress = applyAll([ev({ type: 'progress', step: 'ocr', file: 'scan.pdf', done: 1, total: 3 })]);
    expect(withProgress.progress).toEqual({ of: { step: 'ocr', file: 'scan.pdf' }, done: 1, total: 3 });
    expect(applyRunEvent(withProgress, ev({ type: 'text_delta', delta: 'x' })).progress).toBeNull();
  });

  it('sums usage across model calls and records errors and the finish', () => {
    seq = 0;
    const run = applyAll([
      ev({ type: 'usage', prompt_tokens: 100, completion_tokens: 20, cost: 0.5 }),
      ev({ type: 'usage', prompt_tokens: 150, completion_tokens: 30, cost: 0.25 }),
      ev({ type: 'error', error: { name: 'FolioError', code: 'provider_error', message: 'upstream 500' } }),
      ev({ type: 'run_finished', reason: 'error', duration_ms: 1234 }),
    ]);
    expect(run.usage).toEqual({ promptTokens: 250, completionTokens: 50, cost: 0.75 });
    expect(run.errors).toEqual([{ name: 'FolioError', code: 'provider_error', message: 'upstream 500' }]);
    expect(run.finished).toEqual({ reason: 'error', durationMs: 1234 });
    expect(isLiveRunActive(run)).toBe(false);
  });

  it('ignores replayed events (seq already applied) and events of other runs', () => {
    seq = 0;
    const first = applyAll([ev({ type: 'text_delta', delta: 'A', seq: 5 })]);
    expect(applyRunEvent(first, ev({ type: 'text_delta', delta: 'A', seq: 5 }))).toBe(first);
    expect(applyRunEvent(first, ev({ type: 'text_delta', delta: 'old', seq: 3 }))).toBe(first);
    expect(applyRunEvent(first, ev({ type: 'text_delta', delta: 'other', seq: 9, run_id: 'r2' }))).toBe(first);
    expect(applyRunEvent(first, ev({ type: 'text_delta', delta: 'B', seq: 6 })).items).toEqual([{ kind: 'text', text: 'AB' }]);
  });

  it('does not mutate the previous state', () => {
    seq = 0;
    const before = applyAll([ev({ type: 'text_delta', delta: 'A' })]);
    const snapshot = JSON.stringify(before);
    applyRunEvent(before, ev({ type: 'text_delta', delta: 'B' }));
    expect(JSON.stringify(before)).toBe(snapshot);
  });
});

describe('applyRunEvent: a skill running as a sub-agent', () => {
  it('puts nested steps inside the top-level call’s card, keeps approvals and usage at run level', () => {
    seq = 0;
    const result = (call_id: string, name: string, preview: string, nest?: { parent_call_id: string; depth: number }) =>
      ev({ type: 'tool_result', call_id, name, preview, truncated: false, is_error: false, full_length: preview.length, writes_artifacts: false, ...nest });
    const run = applyAll([
      ev({ type: 'tool_call', call_id: 'c1', name: 'skill_review', arguments: '{}', kind: 'edit' }),
      ev({ type: 'tool_call', call_id: 'c1/a', name: 'skill_analyze', arguments: '{"file":"source/x.pdf"}', kind: 'read', parent_call_id: 'c1', depth: 1 }),
      ev({ type: 'text_delta', delta: 'Risk ', parent_call_id: 'c1/a', depth: 2 }),
      ev({ type: 'text_delta', delta: 'on p. 3', parent_call_id: 'c1/a', depth: 2 }),
      ev({ type: 'usage', prompt_tokens: 5, completion_tokens: 2, cost: 0.1, parent_call_id: 'c1/a', depth: 2 }),
      result('c1/a', 'skill_analyze', 'Risk on p. 3', { parent_call_id: 'c1', depth: 1 }),
      ev({ type: 'tool_call', call_id: 'c1/w', name: 'write', arguments: '{"path":"work/r.md"}', kind: 'edit', parent_call_id: 'c1', depth: 1 }),
      ev({ type: 'approval_required', call_id: 'c1/w', name: 'write', arguments: '{}', kind: 'edit', risk: 'standard', detail: null, reasons: [], parent_call_id: 'c1', depth: 1 }),
    ]);
    expect(run.items).toHaveLength(1);
    const card = run.items[0];
    expect(card.kind === 'tool' && card.nested).toEqual([
      { kind: 'tool', parent: 'c1', depth: 1, callId: 'c1/a', name: 'skill_analyze', arguments: '{"file":"source/x.pdf"}', result: { preview: 'Risk on p. 3', truncated: false, isError: false, fullLength: 12 } },
      { kind: 'text', parent: 'c1/a', depth: 2, text: 'Risk on p. 3' },
      { kind: 'tool', parent: 'c1', depth: 1, callId: 'c1/w', name: 'write', arguments: '{"path":"work/r.md"}', result: null },
    ]);
    expect(run.approvals.map((a) => a.callId)).toEqual(['c1/w']);
    expect(run.usage).toEqual({ promptTokens: 5, completionTokens: 2, cost: 0.1 });
    const done = applyRunEvent(run, result('c1', 'skill_review', 'Reviewed'));
    const ended = done.items[0];
    expect(ended.kind === 'tool' && [ended.result?.preview, ended.nested?.length]).toEqual(['Reviewed', 3]);
  });

  it('keeps a git settings warning of a coding task in the run', () => {
    seq = 0;
    const run = applyAll([ev({ type: 'git_config_risk', findings: [{ key: 'core.fsmonitor', value: './x.sh' }] })]);
    expect(run.items).toEqual([{ kind: 'git_config_risk', findings: [{ key: 'core.fsmonitor', value: './x.sh' }] }]);
  });
});
