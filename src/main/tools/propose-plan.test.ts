// A proposal's plan is the one question of its flow: approving it saves work/spec_lock.md and lets the
// sections under work/ and the render run without asking, in every approval mode; declining it
// allows nothing and hands the reason back.
import { existsSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { FinishReason, Message, PendingApproval, RunEventBody, ToolCall } from '../../shared/contract';
import type { ChatModel, ChatRequest, ChatStreamEvent } from '../llm/types';
import type { GrantKey } from '../agent/approval-policy';
import { runAgentLoop, type AgentLoopDeps, type Decision } from '../agent/loop';
import { createMemoryConversation } from '../agent/memory-conversation';
import { editTool } from './edit';
import { PLAN_PATH, proposePlanTool } from './propose-plan';
import { ToolRegistry } from './registry';
import { ALL_AREAS, type Tool } from './types';
import { writeTool } from './write';

/** render_document's name and traits, without the engine: what is asked is the question here. */
const renderDocument: Tool = {
  name: 'render_document',
  description: 'test',
  parameters: z.object({ path: z.string() }),
  traits: { kind: 'edit', runsCode: false, network: false, paths: { read: ALL_AREAS, write: ['artifact'] }, writesArtifacts: true, endsTurn: false },
  execute: () => Promise.resolve({ content: 'Rendered artifacts/x.docx' }),
};

type Call = { name: string; args: unknown };

function model(steps: Call[][]): ChatModel {
  let n = 0;
  return {
    async *stream(_request: ChatRequest): AsyncIterable<ChatStreamEvent> {
      const calls = steps[n++] ?? [];
      const toolCalls: ToolCall[] = calls.map((c, i) => ({ id: `c${n}_${i}`, name: c.name, arguments: JSON.stringify(c.args) }));
      yield { type: 'done', content: calls.length ? '' : 'done', reasoning: null, toolCalls, finishReason: toolCalls.length ? 'tool_calls' : 'stop', usage: { promptTokens: 1, completionTokens: 1 } };
    },
  };
}

async function run(mode: 'ask' | 'auto-edit' | 'auto', answer: (a: PendingApproval) => Decision, steps: Call[][], prepare: (root: string) => void = () => undefined) {
  const root = mkdtempSync(join(tmpdir(), 'folio-plan-'));
  prepare(root);
  const asked: string[] = [];
  const granted = new Set<string>();
  const key = (g: GrantKey) => `${g.tool} ${g.scope}`;
  const pending = new Map<string, PendingApproval>();
  const registry = new ToolRegistry();
  for (const tool of [proposePlanTool, writeTool, editTool, renderDocument]) registry.register(tool);
  const user: Message = { id: 'u', task_id: 't1', run_id: 'r1', seq: 1, role: 'user', content: 'write the proposal', reasoning: null, tool_calls: null, tool_call_id: null, is_error: false, name: null, created_at: 0 };
  const conversation = createMemoryConversation([user]);
  const deps: AgentLoopDeps = {
    model: model(steps),
    tools: registry,
    conversation: conversation.port,
    approvals: {
      mode: () => Promise.resolve(mode),
      isGranted: (g) => Promise.resolve(granted.has(key(g))),
      isAlwaysAllowed: () => Promise.resolve(false),
      pending: (id) => Promise.resolve(pending.get(id)),
      persist: (a) => Promise.resolve(void pending.set(a.call_id, a)),
      wait: (id) => {
        const a = pending.get(id)!;
        asked.push(a.name === 'write' || a.name === 'edit' ? `${a.name} ${(JSON.parse(a.arguments) as { path: string }).path}` : a.name);
        return Promise.resolve(answer(a));
      },
      settle: (id, grants) => {
        pending.delete(id);
        for (const g of grants) granted.add(key(g));
        return Promise.resolve();
      },
      grant: (grants) => Promise.resolve(void grants.forEach((g) => granted.add(key(g)))),
    },
    systemPrompt: 'system',
    limits: { maxIterations: 10, reliableContext: 100_000, price: { input: 0, output: 0 } },
    toolContext: { root, taskId: 't1', runId: 'r1', outbound: null },
  };
  const gen: AsyncGenerator<RunEventBody, FinishReason> = runAgentLoop(deps, new AbortController().signal);
  while (!(await gen.next()).done);
  return { root, asked, granted, messages: conversation.messages };
}

const PLAN = '# 规格锁定\n\n- 资助类别：青年科学基金\n\n## 待确认事项\n\n1. 项目名称？';
const write = (path: string, content = '正文。\n'): Call => ({ name: 'write', args: { path, content } });
const flow: Call[][] = [
  [{ name: 'propose_plan', args: { content: PLAN } }],
  [write('work/proposal/sections/01_立项依据.md'), write('work/proposal/sections/02_研究内容.md'), write('work/proposal/document.json', '{}')],
  [{ name: 'edit', args: { path: 'work/proposal/sections/01_立项依据.md', old_str: '正文', new_str: '背景' } }],
  [{ name: 'render_document', args: { path: 'work/proposal' } }],
  [write('artifacts/notes.md')],
  [],
];

/** What `flow` asks when the plan grants nothing: each call of it, one by one. */
const EVERY_CALL_ASKED = [
  'propose_plan',
  'write work/proposal/sections/01_立项依据.md',
  'write work/proposal/sections/02_研究内容.md',
  'write work/proposal/document.json',
  'edit work/proposal/sections/01_立项依据.md',
  'render_document',
  'write artifacts/notes.md',
];

describe('propose_plan', () => {
  it('in "Ask every time", the plan is the one question before the sections and the render; a write outside work/ still asks', async () => {
    const r = await run('ask', () => ({ decision: 'allow_once' }), flow);
    expect(r.asked).toEqual(['propose_plan', 'write artifacts/notes.md']);
    expect(readFileSync(join(r.root, PLAN_PATH), 'utf8')).toBe(`${PLAN}\n`);
    expect(readFileSync(join(r.root, 'work/proposal/sections/01_立项依据.md'), 'utf8')).toBe('背景。\n');
    expect([...r.granted].sort()).toEqual(['edit work/', 'render_document ', 'write work/']);
    const result = r.messages.find((m) => m.role === 'tool' && m.name === 'propose_plan');
    expect(result?.is_error).toBe(false);
  });

  it('asks even where edits run without asking, since the yes is the point', async () => {
    const r = await run('auto', () => ({ decision: 'allow_once' }), [[{ name: 'propose_plan', args: { content: PLAN } }], []]);
    expect(r.asked).toEqual(['propose_plan']);
  });

  it('declined, allows nothing, saves nothing and gives the agent the reason', async () => {
    const r = await run('ask', (a) => (a.name === 'propose_plan' ? { decision: 'deny', reason: '题目改为城市绿地降温机制' } : { decision: 'allow_once' }), flow);
    expect(r.asked).toEqual(EVERY_CALL_ASKED);
    expect(r.granted.size).toBe(0);
    expect(existsSync(join(r.root, PLAN_PATH))).toBe(false);
    const result = r.messages.find((m) => m.role === 'tool' && m.name === 'propose_plan');
    expect(result?.is_error).toBe(true);
    expect(result?.content).toContain('题目改为城市绿地降温机制');
  });

  it('approved but not saved, allows nothing and tells the agent why, as data', async () => {
    // A folder where the plan's file goes: the save fails after the person said yes.
    const r = await run('ask', () => ({ decision: 'allow_once' }), flow, (root) => mkdirSync(join(root, PLAN_PATH), { recursive: true }));
    expect(r.granted.size).toBe(0);
    expect(r.asked).toEqual(EVERY_CALL_ASKED);
    const result = r.messages.find((m) => m.role === 'tool' && m.name === 'propose_plan');
    expect(result?.is_error).toBe(true);
    expect(result?.content).toContain(`could not be saved as ${PLAN_PATH}`);
    expect(result?.content).toContain('allowed nothing');
    expect(result?.content).not.toContain(r.root);
  });
});
