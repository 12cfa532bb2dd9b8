// Each tool call moves through named states, checked against the one table in the contract.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FinishReason, PendingApproval, RunEventBody, ToolCall } from '../../shared/contract';
import type { ToolCallState } from '../../shared/contract/tool-calls';
import type { ChatModel, ChatStreamEvent } from '../llm/types';
import { toolCatalog } from '../tools/catalog';
import { ToolRegistry } from '../tools/registry';
import { CallStates, IllegalCallTransition } from './call-states';
import { runAgentLoop, type AgentLoopDeps, type Decision } from './loop';
import { createMemoryConversation } from './memory-conversation';

type Step = { calls: { name: string; args: unknown }[] } | { text: string };

function scripted(steps: Step[], sameIds = false): ChatModel {
  let n = 0;
  return {
    async *stream(): AsyncIterable<ChatStreamEvent> {
      const step = steps[n++];
      if (!step) throw new Error('script exhausted');
      const toolCalls: ToolCall[] = 'calls' in step ? step.calls.map((c, i) => ({ id: sameIds ? `c_${i}` : `c${n}_${i}`, name: c.name, arguments: typeof c.args === 'string' ? c.args : JSON.stringify(c.args) })) : [];
      const content = 'text' in step ? step.text : '';
      yield { type: 'done', content, reasoning: null, toolCalls, finishReason: toolCalls.length ? 'tool_calls' : 'stop', usage: { promptTokens: 1, completionTokens: 1 } };
    },
  };
}

/** Runs the loop on `steps` and returns each call's states in order. */
async function statesOf(steps: Step[], o: { mode: 'ask' | 'auto-edit' | 'auto'; answer?: Decision | 'cancel'; sameIds?: boolean }): Promise<Record<string, ToolCallState[]>> {
  const seen: Record<string, ToolCallState[]> = {};
  const registry = new ToolRegistry();
  for (const t of toolCatalog()) registry.register(t);
  const controller = new AbortController();
  const pending = new Map<string, PendingApproval>();
  const deps: AgentLoopDeps = {
    model: scripted(steps, o.sameIds),
    tools: registry,
    conversation: createMemoryConversation([{ id: 'u', task_id: 't1', run_id: 'r1', seq: 1, role: 'user', content: 'go', reasoning: null, tool_calls: null, tool_call_id: null, is_error: false, name: null, created_at: 0 }]).port,
    approvals: {
      mode: async () => o.mode,
      isGranted: async () => false,
      isAlwaysAllowed: async () => false,
      pending: async (id) => pending.get(id),
      persist: async (a) => void pending.set(a.call_id, a),
      wait: async (_id, signal) => {
        if (o.answer !== 'cancel') return o.answer ?? { decision: 'allow_once' };
        controller.abort();
        throw signal.reason;
      },
      settle: async (id) => void pending.delete(id),
      grant: async () => undefined,
    },
    systemPrompt: 'system',
    limits: { maxIterations: 5, reliableContext: 100_000, price: { input: 0, output: 0 } },
    toolContext: { root: mkdtempSync(join(tmpdir(), 'folio-states-')), taskId: 't1', runId: 'r1', outbound: null },
    callStates: { set: (call, state) => (seen[call.callId] ??= []).push(state) },
  };
  const gen: AsyncGenerator<RunEventBody, FinishReason> = runAgentLoop(deps, controller.signal);
  while (!(await gen.next()).done);
  return seen;
}

describe('tool call states', () => {
  it('an approved write: validating → awaiting_approval → executing → done', async () => {
    const states = await statesOf([{ calls: [{ name: 'write', args: { path: 'work/a.txt', content: 'hi' } }] }, { text: 'ok' }], { mode: 'ask' });
    expect(states).toEqual({ c1_0: ['validating', 'awaiting_approval', 'executing', 'done'] });
  });

  it('a denied write ends denied; a blocked command is denied without asking', async () => {
    expect(await statesOf([{ calls: [{ name: 'write', args: { path: 'work/a.txt', content: 'hi' } }] }, { text: 'ok' }], { mode: 'ask', answer: { decision: 'deny' } })).toEqual({
      c1_0: ['validating', 'awaiting_approval', 'denied'],
    });
    expect(await statesOf([{ calls: [{ name: 'shell', args: { command: 'rm -rf /' } }] }, { text: 'ok' }], { mode: 'auto' })).toEqual({ c1_0: ['validating', 'denied'] });
  });

  it('invalid arguments and a failing tool end failed; parallel reads run and end done', async () => {
    const states = await statesOf(
      [{ calls: [{ name: 'read', args: '{not json' }, { name: 'read', args: { path: 'missing.txt' } }, { name: 'glob', args: { pattern: '*' } }, { name: 'glob', args: { pattern: '*.md' } }] }, { text: 'ok' }],
      { mode: 'auto' },
    );
    expect(states).toEqual({
      c1_0: ['validating', 'failed'],
      c1_1: ['validating', 'executing', 'failed'],
      c1_2: ['validating', 'executing', 'done'],
      c1_3: ['validating', 'executing', 'done'],
    });
  });

  it('a cancel while waiting for a yes leaves the call awaiting_approval (asked again on Continue)', async () => {
    const states = await statesOf([{ calls: [{ name: 'write', args: { path: 'work/a.txt', content: 'hi' } }] }, { text: 'ok' }], { mode: 'ask', answer: 'cancel' });
    expect(states).toEqual({ c1_0: ['validating', 'awaiting_approval'] });
  });

  it('refuses a transition the table does not allow', () => {
    const states = new CallStates();
    const a = { messageId: 'm1', callId: 'a', name: 'write' };
    expect(() => states.move(a, 'executing')).toThrow(IllegalCallTransition);
    states.move(a, 'validating');
    states.move(a, 'executing');
    states.move(a, 'done');
    expect(() => states.move(a, 'executing')).toThrow(/cannot go from done to executing/);
    expect(() => states.move(a, 'validating')).toThrow(/cannot go from done to validating/);
    // The same id in a later message is another call.
    expect(() => states.move({ ...a, messageId: 'm2' }, 'validating')).not.toThrow();
    expect(() => states.move({ ...a, messageId: 'm2' }, 'validating')).toThrow(/cannot go from validating to validating/);
  });

  it('a reused call id in a later message is a new call: providers reuse ids such as call_0 in later turns', async () => {
    const reused: Step[] = [{ calls: [{ name: 'glob', args: { pattern: '*' } }] }, { calls: [{ name: 'glob', args: { pattern: '*.md' } }] }, { text: 'ok' }];
    const states = await statesOf(reused.map((s) => s), { mode: 'auto', sameIds: true });
    expect(states).toEqual({ c_0: ['validating', 'executing', 'done', 'validating', 'executing', 'done'] });
  });
});
