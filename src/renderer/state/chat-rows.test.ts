import { describe, expect, it } from 'vitest';
import type { Message, PendingApproval, Run } from '../../shared/contract';
import { buildChatRows, keepUnchangedRows, mergeNewestPage, mergePendingApprovals, prependOlderPage } from './chat-rows';
import { applyRunEvent, createLiveRun } from './live-run';

function msg(seq: number, role: Message['role'], extra: Partial<Message> = {}): Message {
  return {
    id: `m${seq}`,
    task_id: 't1',
    run_id: 'r1',
    seq,
    role,
    content: `content ${seq}`,
    reasoning: null,
    tool_calls: null,
    tool_call_id: null,
    is_error: false,
    name: null,
    created_at: 1_700_000_000_000 + seq,
    ...extra,
  };
}

const run: Run = {
  id: 'r1',
  task_id: 't1',
  status: 'done',
  model: 'fake.chat',
  started_at: 1,
  finished_at: 2,
  error: null,
  prompt_tokens: 10,
  completion_tokens: 5,
  cost: 0.1,
  tool_calls: {},
};

describe('message paging merges', () => {
  it('keeps older pages and replaces the overlapping newest page', () => {
    const existing = [msg(1, 'user'), msg(2, 'assistant'), msg(3, 'user')];
    const page = [msg(4, 'assistant'), msg(3, 'user', { content: 'edited' })];
    expect(mergeNewestPage(existing, page).map((m) => [m.seq, m.content])).toEqual([
      [1, 'content 1'],
      [2, 'content 2'],
      [3, 'edited'],
      [4, 'content 4'],
    ]);
  });

  it('prepends older messages without duplicates', () => {
    const existing = [msg(3, 'user'), msg(4, 'assistant')];
    expect(prependOlderPage(existing, [msg(1, 'user'), msg(2, 'assistant'), msg(3, 'user')]).map((m) => m.seq)).toEqual([1, 2, 3, 4]);
  });
});

describe('buildChatRows', () => {
  it("gives each call the state the task's runs persisted, the latest run's winning, keyed by the message that made it", () => {
    const messages = [
      msg(1, 'user'),
      msg(2, 'assistant', { tool_calls: [{ id: 'call_0', name: 'shell', arguments: '{}' }] }),
      msg(3, 'tool', { tool_call_id: 'call_0', name: 'shell', content: 'ok' }),
      msg(4, 'assistant', { run_id: 'r2', tool_calls: [{ id: 'call_0', name: 'write', arguments: '{}' }] }),
    ];
    const record = (message_id: string, name: string, state: Run['tool_calls'][string]['state'], at: number) => ({ message_id, call_id: 'call_0', name, state, at });
    const killed: Run = { ...run, id: 'r2', status: 'interrupted', started_at: 10, tool_calls: { 'm4/call_0': record('m4', 'write', 'awaiting_approval', 11) } };
    const first: Run = { ...run, tool_calls: { 'm2/call_0': record('m2', 'shell', 'done', 2) } };
    const rows = buildChatRows(messages, [killed, first], null, []);
    expect(rows.filter((r) => r.kind === 'assistant').map((r) => r.tools.map((t) => [t.name, t.state]))).toEqual([[['shell', 'done']], [['write', 'awaiting_approval']]]);
    // Resumed and denied by a later run: that run's state is the call's.
    const resumed: Run = { ...run, id: 'r3', started_at: 20, tool_calls: { 'm4/call_0': record('m4', 'write', 'denied', 21) } };
    const after = buildChatRows(messages, [resumed, killed, first], null, []);
    expect(after.filter((r) => r.kind === 'assistant').map((r) => r.tools[0].state)).toEqual(['done', 'denied']);
    // A call no run recorded (a run from before states were kept) has none.
    expect(buildChatRows(messages, [run], null, []).filter((r) => r.kind === 'assistant').map((r) => r.tools[0].state)).toEqual([null, null]);
  });

  it('folds tool results into the assistant message that called them and ends the run with a footer', () => {
    const messages = [
      msg(1, 'user'),
      msg(2, 'assistant', { tool_calls: [{ id: 'c1', name: 'read_file', arguments: '{}' }] }),
      msg(3, 'tool', { tool_call_id: 'c1', name: 'read_file', content: 'file body' }),
      msg(4, 'assistant'),
    ];
    const rows = buildChatRows(messages, [run], null, []);
    expect(rows.map((r) => r.kind)).toEqual(['user', 'assistant', 'assistant', 'run-footer']);
    const withTool = rows[1];
    expect(withTool.kind === 'assistant' && withTool.tools[0].result?.content).toBe('file body');
  });

  it('hides persisted output of the live run so the draft is not shown twice', () => {
    const messages = [msg(1, 'user'), msg(2, 'assistant')];
    const live = createLiveRun('t1', 'r1');
    const rows = buildChatRows(messages, [{ ...run, status: 'running' }], live, []);
    expect(rows.map((r) => r.kind)).toEqual(['user', 'live']);
  });

  it('leaves no footer of a regenerated reply between the question and the new answer', () => {
    // The question was asked in r1; regenerate made r2, whose reply is now the visible branch.
    const messages = [msg(1, 'user'), msg(5, 'assistant', { run_id: 'r2' })];
    const runs = [run, { ...run, id: 'r2' }];
    expect(buildChatRows(messages, runs, null, []).map((r) => r.key)).toEqual(['m1', 'm5', 'footer:r2']);
    // While the new reply streams, the replaced run's footer is not shown above it either.
    const streaming = buildChatRows([msg(1, 'user')], [run], createLiveRun('t1', 'r2'), []);
    expect(streaming.map((r) => r.kind)).toEqual(['user', 'live']);
  });

  it('keeps the footer of a run that failed before answering when the person asked again', () => {
    const messages = [msg(1, 'user'), msg(2, 'user', { run_id: 'r2' }), msg(3, 'assistant', { run_id: 'r2' })];
    const runs = [{ ...run, status: 'failed' as const, error: 'provider down' }, { ...run, id: 'r2' }];
    expect(buildChatRows(messages, runs, null, []).map((r) => r.key)).toEqual(['m1', 'footer:r1', 'm2', 'm3', 'footer:r2']);
  });

  it('appends pending approvals as the last row', () => {
    const approvals = [{ runId: 'r1', callId: 'c1', name: 'shell', arguments: '{}', toolKind: 'execute' as const, risk: 'standard' as const, detail: null, reasons: [] }];
    const rows = buildChatRows([msg(1, 'user')], [], null, approvals);
    expect(rows.map((r) => r.key)).toEqual(['m1', 'approvals']);
  });
});

describe('mergePendingApprovals', () => {
  const persisted: PendingApproval = {
    run_id: 'r1',
    call_id: 'c1',
    name: 'edit_file',
    arguments: '{"path":"a.md"}',
    kind: 'edit',
    risk: 'standard',
    detail: '-a\n+b', reasons: [],
    created_at: 1,
  };

  it('shows approvals persisted from before a restart', () => {
    expect(mergePendingApprovals([persisted], null)).toEqual([
      { runId: 'r1', callId: 'c1', name: 'edit_file', arguments: '{"path":"a.md"}', toolKind: 'edit', risk: 'standard', detail: '-a\n+b', reasons: [] },
    ]);
  });

  it('drops persisted approvals the live run has resolved and does not duplicate live ones', () => {
    let live = createLiveRun('t1', 'r1');
    live = applyRunEvent(live, {
      type: 'approval_required',
      run_id: 'r1',
      task_id: 't1',
      seq: 1,
      at: 1,
      call_id: 'c1',
      name: 'edit_file',
      arguments: '{"path":"a.md"}',
      kind: 'edit',
      risk: 'standard',
      detail: '-a\n+b', reasons: [],
    });
    expect(mergePendingApprovals([persisted], live)).toHaveLength(1);
    live = applyRunEvent(live, { type: 'approval_resolved', run_id: 'r1', task_id: 't1', seq: 2, at: 2, call_id: 'c1', decision: 'allow_once' });
    expect(mergePendingApprovals([persisted], live)).toEqual([]);
  });
});

describe('keepUnchangedRows', () => {
  const call = (id: string) => ({ id, name: 'read', arguments: '{"path":"a.md"}' });

  it('keeps the previous row objects when an older page is prepended, so their views need no re-render', () => {
    const newer = [msg(3, 'user'), msg(4, 'assistant', { tool_calls: [call('c1')] }), msg(5, 'tool', { tool_call_id: 'c1' }), msg(6, 'assistant')];
    const first = buildChatRows(newer, [run], null, []);
    const older = [msg(1, 'user', { run_id: 'r0' }), msg(2, 'assistant', { run_id: 'r0' })];
    const next = keepUnchangedRows(first, buildChatRows(prependOlderPage(newer, older), [run], null, []));
    expect(next.map((r) => r.key)).toEqual(['m1', 'm2', 'm3', 'm4', 'm6', 'footer:r1']);
    for (const row of first) expect(next.find((r) => r.key === row.key)).toBe(row);
  });

  it('gives a new row when its message, a tool result or its run changed', () => {
    const messages = [msg(1, 'user'), msg(2, 'assistant', { tool_calls: [call('c1')] })];
    const first = buildChatRows(messages, [run], null, []);
    const withResult = [...messages, msg(3, 'tool', { tool_call_id: 'c1' })];
    const second = keepUnchangedRows(first, buildChatRows(withResult, [{ ...run }], null, []));
    expect(second[0]).toBe(first[0]);
    expect(second[1]).not.toBe(first[1]);
    expect(second[1]).toMatchObject({ kind: 'assistant', tools: [{ callId: 'c1', result: { id: 'm3' } }] });
    expect(second[2]).not.toBe(first[2]);
    const edited = keepUnchangedRows(second, buildChatRows([{ ...withResult[0], content: 'edited' }, ...withResult.slice(1)], [second[2].kind === 'run-footer' ? second[2].run : run], null, []));
    expect(edited[0]).not.toBe(second[0]);
    expect(edited[0]).toMatchObject({ message: { content: 'edited' } });
    expect(edited[1]).toBe(second[1]);
    expect(edited[2]).toBe(second[2]);
  });
});
