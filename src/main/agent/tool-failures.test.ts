// A failed call's kind, as data beside the model's English: each error class a tool throws maps to
// the kind the person's screen names, and the loop carries it in the tool_result event and in the
// call's recorded state.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunEventBody, ToolCall } from '../../shared/contract';
import type { ToolResultFacts } from '../../shared/contract/tool-calls';
import { FolioError, NotFoundError, PathEscapeError, ValidationError } from '../../shared/errors';
import type { ChatModel, ChatStreamEvent } from '../llm/types';
import { ToolRegistry } from '../tools/registry';
import { toolCatalog } from '../tools/catalog';
import { NetworkRefusedError, NetworkUnreachableError, ToolError, ToolFileNotFoundError, ToolNotAllowedError, ToolTimeoutError, ToolTooLargeError } from '../tools/types';
import { createMemoryConversation } from './memory-conversation';
import { runAgentLoop } from './loop';
import { failureOf } from './tool-errors';

describe('failureOf: the error class names the kind', () => {
  const ctx = { root: '/data/tasks/t1' };

  it.each([
    [new ToolFileNotFoundError('work/x.md', 'File not found: work/x.md'), { kind: 'not_found', path: 'work/x.md' }],
    [new ToolTooLargeError('big', 'source/a.pdf'), { kind: 'too_large', path: 'source/a.pdf' }],
    [new ToolTooLargeError('The response is larger than 5 MB'), { kind: 'too_large' }],
    [new ToolTimeoutError(30, 'Timed out after 30 s'), { kind: 'timed_out', seconds: 30 }],
    [new NetworkRefusedError('Refused to fetch http://10.0.0.1/'), { kind: 'network_refused' }],
    [new NetworkUnreachableError('Could not resolve nowhere.invalid'), { kind: 'network_unreachable' }],
    [new ToolNotAllowedError('library is read-only', 'library/project/a.pdf'), { kind: 'not_allowed', path: 'library/project/a.pdf' }],
    [new ToolError('old_str occurs 2 times'), { kind: 'failed' }],
    [new PathEscapeError('../etc/passwd leaves the task folder'), { kind: 'outside_task' }],
    [new FolioError('forbidden', 'Cannot write source/a.md', { name: 'ReadOnlyPathError' }), { kind: 'not_allowed' }],
    [new NotFoundError('no such thing'), { kind: 'not_found' }],
    [new FolioError('payload_too_large', 'too big'), { kind: 'too_large' }],
    [new ValidationError('spec: slides: required'), { kind: 'invalid_arguments' }],
    [new FolioError('cancelled', 'Cancelled while running.'), { kind: 'cancelled' }],
    [new FolioError('tool_error', 'LibreOffice could not convert'), { kind: 'failed' }],
    [new Error('EACCES'), { kind: 'failed' }],
  ] as const)('%s → %j', (err, kind) => {
    expect(failureOf(err, ctx)).toEqual(kind);
  });

  it('names a file relative to the task, never by where the data folder is', () => {
    expect(failureOf(new ToolFileNotFoundError('/data/tasks/t1/work/x.md', 'File not found'), ctx)).toEqual({ kind: 'not_found', path: 'work/x.md' });
  });
});

/** Plays back one turn of tool calls, then answers "ok". */
function model(calls: { name: string; args: string }[]): ChatModel {
  let turn = 0;
  return {
    async *stream(): AsyncIterable<ChatStreamEvent> {
      const toolCalls: ToolCall[] = turn++ === 0 ? calls.map((c, i) => ({ id: `c${i}`, name: c.name, arguments: c.args })) : [];
      yield { type: 'done', content: toolCalls.length ? '' : 'ok', reasoning: null, toolCalls, finishReason: toolCalls.length ? 'tool_calls' : 'stop', usage: { promptTokens: 1, completionTokens: 1 } };
    },
  };
}

describe('the loop carries the kind to the screen and the run record', () => {
  it('a missing file, a path out of the task, bad arguments, an unknown tool, a denial', async () => {
    const root = mkdtempSync(join(tmpdir(), 'folio-failures-'));
    mkdirSync(join(root, 'work'));
    writeFileSync(join(root, 'work', 'a.md'), 'hello\n');
    const registry = new ToolRegistry();
    for (const tool of toolCatalog()) registry.register(tool);
    const recorded = new Map<string, { state: string; facts: ToolResultFacts | undefined }>();
    const conversation = createMemoryConversation([{ id: 'u', task_id: 't1', run_id: 'r1', seq: 1, role: 'user', content: 'go', reasoning: null, tool_calls: null, tool_call_id: null, is_error: false, name: null, created_at: 0 }]);
    const loop = runAgentLoop(
      {
        model: model([
          { name: 'read', args: JSON.stringify({ path: 'work/x.md' }) },
          { name: 'read', args: JSON.stringify({ path: '../outside.md' }) },
          { name: 'read', args: '{"path": ' },
          { name: 'nope', args: '{}' },
          { name: 'write', args: JSON.stringify({ path: 'work/b.md', content: 'x' }) },
        ]),
        tools: registry,
        conversation: conversation.port,
        approvals: {
          mode: () => Promise.resolve('ask'),
          isGranted: () => Promise.resolve(false),
          isAlwaysAllowed: () => Promise.resolve(false),
          pending: () => Promise.resolve(undefined),
          persist: () => Promise.resolve(),
          wait: () => Promise.resolve({ decision: 'deny' }),
          settle: () => Promise.resolve(),
          grant: () => Promise.resolve(),
        },
        systemPrompt: 'system',
        limits: { maxIterations: 5, reliableContext: 100_000, price: { input: 1, output: 1 } },
        toolContext: { root, taskId: 't1', runId: 'r1', outbound: null },
        callStates: { set: (call, state, facts) => void recorded.set(call.callId, { state, facts }) },
      },
      new AbortController().signal,
    );
    const events: RunEventBody[] = [];
    for await (const event of loop) events.push(event);
    const failures = events.flatMap((e) => (e.type === 'tool_result' ? [[e.call_id, e.failure]] : []));
    expect(Object.fromEntries(failures)).toEqual({
      c0: { kind: 'not_found', path: 'work/x.md' },
      c1: { kind: 'outside_task' },
      c2: { kind: 'invalid_arguments' },
      c3: { kind: 'unknown_tool' },
      c4: { kind: 'denied' },
    });
    // Kept with the call's final state, so a reload shows the same words.
    expect(recorded.get('c0')).toEqual({ state: 'failed', facts: { failure: { kind: 'not_found', path: 'work/x.md' } } });
    expect(recorded.get('c4')).toEqual({ state: 'denied', facts: { failure: { kind: 'denied' } } });
    // The model still reads the tool's own English.
    expect(conversation.messages.find((m) => m.tool_call_id === 'c0')?.content).toMatch(/not found: work\/x\.md/iu);
  });
});
