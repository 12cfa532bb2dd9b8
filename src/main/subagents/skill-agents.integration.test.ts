// Skills as sub-agents against the fake model over real HTTP: a composite skill calling two skills
// (events nested under their calls, usage summed into the run and the task), a cycle and a fourth
// level refused, a nested approval answered over /v1, and skill_create approved then used.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { FakeOpenAI, FakeReply } from '../../../testing/fake-openai/server';
import type { RunEvent } from '../../shared/contract';
import { startHttpServer } from '../transport/http';
import { taskDir } from '../workspace/layout';
import { findResourcesDir } from '../config/app-paths';
import { createChatModel } from '../llm/openai-chat-model';
import { collect, makeDataDir, TEST_KEY } from '../service/core-test-kit';
import { openTestStorePort } from '../store/test-store.test-support';
import { createCore, type Core } from '../service/create-core';
import { useFakeModelCores } from '../service/fake-model-cores.test-support';

let fake!: FakeOpenAI;
useFakeModelCores((f) => (fake = f));
const opened: Core[] = [];
afterEach(async () => {
  for (const c of opened.splice(0)) await c.close().catch(() => undefined);
});
/**
 * A core whose model client waits longer for the first chunk than the kit's 400 ms: these tests
 * script every step, so a stall-retry on a loaded machine would take the next level's step.
 */
const cores = {
  async open(dataDir: string): Promise<Core> {
    const core = await createCore({
      dataDir,
      store: await openTestStorePort(dataDir),
      resourcesDir: findResourcesDir(),
      env: { FAKE_API_KEY: TEST_KEY, PATH: process.env.PATH },
      createModel: (profile, key, outbound) => createChatModel(profile, key, { baseDelayMs: 5, idleTimeoutMs: 10_000, maxRetries: 0, outbound }),
    });
    await core.ctx.store.settings.set('default_model', 'fake.main');
    opened.push(core);
    return core;
  },
};

function skill(dataDir: string, name: string, front: string, body = `You are the ${name} skill. Do what the request says.`): void {
  mkdirSync(join(dataDir, 'skills', name), { recursive: true });
  writeFileSync(join(dataDir, 'skills', name, 'SKILL.md'), `---\nname: ${name}\ndescription: The ${name} test skill, used by the nesting tests.\n${front}\n---\n\n${body}\n`);
}

const call = (id: string, name: string, args: Record<string, unknown>, usage = { prompt: 10, completion: 2 }): FakeReply => ({
  toolCalls: [{ id, name, arguments: JSON.stringify(args) }],
  usage,
});
const say = (text: string, usage = { prompt: 10, completion: 2 }): FakeReply => ({ text, usage });

async function start(core: Core, content = 'please review'): Promise<{ taskId: string; runId: string }> {
  const task = await core.handlers.createTask({ mode: 'general' });
  const { run_id } = await core.handlers.sendMessage({ task_id: task.id, content });
  return { taskId: task.id, runId: run_id };
}

interface ChatBody {
  messages: { role: string; content: string }[];
  tools?: { function: { name: string } }[];
}
/** The i-th chat request the fake model received. */
const req = (i: number): ChatBody => fake.requests.filter((r) => r.path.endsWith('/chat/completions'))[i]?.body as ChatBody;
const chats = () => fake.requests.filter((r) => r.path.endsWith('/chat/completions'));
const toolNames = (i: number) => (req(i).tools ?? []).map((t) => t.function.name);

const nestedOf = (events: RunEvent[], type: RunEvent['type']) => events.filter((e) => e.type === type).map((e) => ({ call: 'call_id' in e ? e.call_id : null, parent: e.parent_call_id ?? null, depth: e.depth ?? 0 }));

describe('skills as sub-agents', () => {
  it('runs a composite skill that calls two skills: nested events, prompts, tools and summed usage', async () => {
    const dataDir = makeDataDir(fake.url);
    skill(dataDir, 'review', 'tools: [skill_part-a, part-b]\nmax_turns: 4', 'REVIEW BODY: call part-a, then part-b, then summarize.');
    skill(dataDir, 'part-a', 'tools: [read]\nmax_turns: 2', 'PART A BODY');
    skill(dataDir, 'part-b', 'max_turns: 2\ninput:\n  file: the document to look at', 'PART B BODY');
    const core = await cores.open(dataDir);
    fake.script([
      call('c1', 'skill_review', { request: '看看这份合同' }, { prompt: 100, completion: 10 }),
      call('r1', 'skill_part-a', { request: 'analyze' }, { prompt: 20, completion: 3 }),
      say('A found two risks', { prompt: 5, completion: 4 }),
      call('r2', 'skill_part-b', { file: 'source/x.pdf' }, { prompt: 30, completion: 3 }),
      say('B compared them', { prompt: 6, completion: 5 }),
      say('Review: two risks, compared', { prompt: 40, completion: 8 }),
      say('完成', { prompt: 200, completion: 2 }),
    ]);
    const { taskId, runId } = await start(core, '请审查这份合同');
    const events = await collect(core, taskId, runId);
    expect(events.at(-1)).toMatchObject({ type: 'run_finished', reason: 'done' });

    expect(nestedOf(events, 'tool_call')).toEqual([
      { call: 'c1', parent: null, depth: 0 },
      { call: 'c1/r1', parent: 'c1', depth: 1 },
      { call: 'c1/r2', parent: 'c1', depth: 1 },
    ]);
    expect(nestedOf(events, 'tool_result')).toEqual([
      { call: 'c1/r1', parent: 'c1', depth: 1 },
      { call: 'c1/r2', parent: 'c1', depth: 1 },
      { call: 'c1', parent: null, depth: 0 },
    ]);
    const texts = (parent: string) => events.flatMap((e) => (e.type === 'text_delta' && e.parent_call_id === parent ? [e.delta] : [])).join('');
    expect(texts('c1/r1')).toBe('A found two risks');
    expect(events.find((e) => e.type === 'text_delta' && e.parent_call_id === 'c1/r1')?.depth).toBe(2);
    expect(texts('c1')).toBe('Review: two risks, compared');
    const top = events.flatMap((e) => (e.type === 'text_delta' && e.parent_call_id === undefined ? [e.delta] : [])).join('');
    expect(top).toBe('完成');
    const results = events.filter((e) => e.type === 'tool_result');
    expect(results.map((e) => e.type === 'tool_result' && e.preview)).toEqual(['A found two risks', 'B compared them', 'Review: two risks, compared']);

    // Each level's prompt: its own body and the language rule (the person wrote Chinese); its own tools only.
    const system = (i: number) => req(i).messages[0]?.content ?? '';
    expect(system(1)).toContain('REVIEW BODY');
    expect(system(2)).toContain('PART A BODY');
    for (const i of [1, 2, 4]) expect(system(i)).toMatch(/must be in Chinese/u);
    expect(toolNames(1)).toEqual(['skill_part-a', 'skill_part-b']);
    expect(toolNames(2)).toEqual(['read']);
    expect(toolNames(0)).toEqual(expect.arrayContaining(['skill_review', 'skill_part-a', 'skill_part-b', 'skill_create', 'read']));
    // Sub-agent skills are tools; instruction skills stay in the prompt's list for load_skill.
    expect(system(0)).toContain('- **proofread**:');
    expect(system(0)).not.toContain('- **review**:');
    expect(toolNames(0)).not.toContain('skill_proofread');
    expect(req(4).messages[1]).toMatchObject({ role: 'user', content: 'file: source/x.pdf' });

    // Usage of every level is added to the run and the task.
    const usage = events.filter((e) => e.type === 'usage');
    expect(usage).toHaveLength(7);
    const prompt = 100 + 20 + 5 + 30 + 6 + 40 + 200;
    const completion = 10 + 3 + 4 + 3 + 5 + 8 + 2;
    const task = await core.handlers.getTask({ task_id: taskId });
    expect(task).toMatchObject({ prompt_tokens: prompt, completion_tokens: completion });
    expect(task.cost).toBeCloseTo((prompt * 2 + completion * 8) / 1_000_000, 10);
    const { runs } = await core.handlers.listRuns({ task_id: taskId });
    expect(runs[0]).toMatchObject({ prompt_tokens: prompt, completion_tokens: completion, status: 'done', error: null });
  });

  it('refuses a cycle with a clear error to the calling skill', async () => {
    const dataDir = makeDataDir(fake.url);
    skill(dataDir, 'ping', 'tools: [skill_pong]');
    skill(dataDir, 'pong', 'tools: [skill_ping]');
    const core = await cores.open(dataDir);
    fake.script([call('c1', 'skill_ping', { request: 'go' }), call('p1', 'skill_pong', { request: 'go' }), call('q1', 'skill_ping', { request: 'again' }), say('pong gave up'), say('ping done'), say('ok')]);
    const { taskId, runId } = await start(core);
    const events = await collect(core, taskId, runId);
    const refused = events.find((e) => e.type === 'tool_result' && e.call_id === 'c1/p1/q1');
    expect(refused).toMatchObject({ is_error: true, parent_call_id: 'c1/p1', depth: 2 });
    expect(refused?.type === 'tool_result' && refused.preview).toMatch(/already running on this chain \(ping → pong → ping\)/u);
    // The refusal reached pong's model as its tool result.
    expect(JSON.stringify(req(3).messages)).toContain('already running on this chain');
    expect(events.at(-1)).toMatchObject({ reason: 'done' });
  });

  it('refuses a fourth level', async () => {
    const dataDir = makeDataDir(fake.url);
    skill(dataDir, 'l1', 'tools: [skill_l2]');
    skill(dataDir, 'l2', 'tools: [skill_l3]');
    skill(dataDir, 'l3', 'tools: [skill_l4]');
    skill(dataDir, 'l4', 'tools: []');
    const core = await cores.open(dataDir);
    fake.script([
      call('c1', 'skill_l1', { request: 'x' }),
      call('a', 'skill_l2', { request: 'x' }),
      call('b', 'skill_l3', { request: 'x' }),
      call('c', 'skill_l4', { request: 'x' }),
      say('l3 done alone'),
      say('l2 done'),
      say('l1 done'),
      say('top done'),
    ]);
    const { taskId, runId } = await start(core);
    const events = await collect(core, taskId, runId);
    const refused = events.find((e) => e.type === 'tool_result' && e.call_id === 'c1/a/b/c');
    expect(refused).toMatchObject({ is_error: true, parent_call_id: 'c1/a/b', depth: 3 });
    expect(refused?.type === 'tool_result' && refused.preview).toMatch(/level 4 \(l1 → l2 → l3 → l4\); skills nest at most 3 levels/u);
    expect(chats()).toHaveLength(8);
    expect(events.find((e) => e.type === 'tool_result' && e.call_id === 'c1')).toMatchObject({ is_error: false, preview: 'l1 done' });
  });

  it('stops a skill at its own turn limit and tells the caller', async () => {
    const dataDir = makeDataDir(fake.url);
    skill(dataDir, 'busy', 'tools: [glob]\nmax_turns: 2');
    const core = await cores.open(dataDir);
    fake.script([call('c1', 'skill_busy', { request: 'x' }), call('g1', 'glob', { pattern: '*' }), call('g2', 'glob', { pattern: '*' }), say('top done')]);
    const { taskId, runId } = await start(core);
    const events = await collect(core, taskId, runId);
    const result = events.find((e) => e.type === 'tool_result' && e.call_id === 'c1');
    expect(result).toMatchObject({ is_error: true });
    expect(result?.type === 'tool_result' && result.preview).toMatch(/turn limit \(2 turns\)/u);
    expect(events.at(-1)).toMatchObject({ reason: 'done' });
  });

  it('asks for a nested call exactly as at top level, answered over /v1', async () => {
    const dataDir = makeDataDir(fake.url);
    skill(dataDir, 'scribe', 'tools: [write]\noutput: work/notes');
    const core = await cores.open(dataDir);
    const server = await startHttpServer(core, { token: 'tok-0123456789abcdef' });
    try {
      const api = (path: string, init: RequestInit = {}) =>
        fetch(`${server.url}${path}`, { ...init, headers: { authorization: 'Bearer tok-0123456789abcdef', 'content-type': 'application/json' } });
      fake.script([call('c1', 'skill_scribe', { request: 'note it' }), call('w1', 'write', { path: 'work/notes/n.md', content: 'noted' }), say('wrote work/notes/n.md'), say('all done')]);
      const task = await core.handlers.createTask({ mode: 'general' });
      const { run_id } = await core.handlers.sendMessage({ task_id: task.id, content: 'write a note' });
      const done = collect(core, task.id, run_id);
      const asked = await new Promise<RunEvent>((resolve) => void core.events.subscribe(task.id, run_id, (e) => e.type === 'approval_required' && resolve(e)));
      expect(asked).toMatchObject({ call_id: 'c1/w1', name: 'write', parent_call_id: 'c1', depth: 1 });
      const listed = (await (await api(`/v1/tasks/${task.id}/approvals`)).json()) as { approvals: { call_id: string }[] };
      expect(listed.approvals.map((a) => a.call_id)).toEqual(['c1/w1']);
      const res = await api(`/v1/tasks/${task.id}/runs/${run_id}/approvals/${encodeURIComponent('c1/w1')}`, { method: 'POST', body: JSON.stringify({ decision: 'allow_once' }) });
      expect(res.status).toBe(200);
      const events = await done;
      expect(events.find((e) => e.type === 'approval_resolved')).toMatchObject({ call_id: 'c1/w1', parent_call_id: 'c1', decision: 'allow_once' });
      expect(readFileSync(join(taskDir(dataDir, task.id), 'work/notes/n.md'), 'utf8')).toBe('noted');
      expect(req(1).messages[0]?.content).toContain('under `work/notes/`');
      expect(events.at(-1)).toMatchObject({ reason: 'done' });
      expect((await core.handlers.listApprovals({ task_id: task.id })).approvals).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it('cancels every level at once and leaves no nested question behind', async () => {
    const dataDir = makeDataDir(fake.url);
    skill(dataDir, 'scribe', 'tools: [write]');
    const core = await cores.open(dataDir);
    fake.script([call('c1', 'skill_scribe', { request: 'x' }), call('w1', 'write', { path: 'work/n.md', content: 'n' })]);
    const task = await core.handlers.createTask({ mode: 'general' });
    const { run_id } = await core.handlers.sendMessage({ task_id: task.id, content: 'x' });
    const done = collect(core, task.id, run_id);
    await new Promise<void>((resolve) => void core.events.subscribe(task.id, run_id, (e) => e.type === 'approval_required' && resolve()));
    await core.handlers.cancelRun({ task_id: task.id, run_id });
    const events = await done;
    expect(events.at(-1)).toMatchObject({ reason: 'cancelled' });
    expect(events.find((e) => e.type === 'tool_result' && e.call_id === 'c1')).toMatchObject({ is_error: true, preview: 'Cancelled while running.' });
    expect((await core.handlers.listApprovals({ task_id: task.id })).approvals).toEqual([]);
    expect(existsSync(join(taskDir(dataDir, task.id), 'work/n.md'))).toBe(false);
  });
});

describe('a crash during a nested run', () => {
  it('on Continue answers the outer call "interrupted", runs nothing twice and drops the nested question', async () => {
    const dataDir = makeDataDir(fake.url);
    skill(dataDir, 'runner', 'tools: [shell]');
    fake.script([call('c1', 'skill_runner', { request: 'run it' }), call('s1', 'shell', { command: 'echo nested >> work/ran.txt' })]);
    // The parent watches the store the child writes (created first: the child can only reopen it).
    const watch = await openTestStorePort(dataDir);
    const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, '..', 'service', 'crash-run.fixture.ts'), dataDir], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const pendingCalls = async (): Promise<{ call_id: string }[]> => {
      const started = /RUN (\S+) \S+/u.exec(out);
      if (!started) return [];
      return (await watch.port.approvals.list(started[1])).map((a) => ({ call_id: a.call_id }));
    };
    // The nested shell call waits for the person (commands always ask) when the process dies.
    for (const start = Date.now(); (await pendingCalls()).length === 0; await new Promise((r) => setTimeout(r, 25))) {
      if (Date.now() - start > 30_000) throw new Error('timed out');
    }
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    const [, taskId] = /RUN (\S+) (\S+)/u.exec(out) ?? [];
    expect(await pendingCalls()).toEqual([{ call_id: 'c1/s1' }]);
    await watch.close();

    const core = await cores.open(dataDir);
    fake.script([say('It was interrupted; I will check first.')]);
    const { run_id } = await core.handlers.continueTask({ task_id: taskId });
    const events = await collect(core, taskId, run_id);
    expect(events.at(-1)).toMatchObject({ reason: 'done' });
    expect(events.some((e) => e.type === 'approval_required')).toBe(false);
    const { messages } = await core.handlers.listMessages({ task_id: taskId });
    const outer = messages.find((m) => m.role === 'tool' && m.tool_call_id === 'c1');
    expect(outer).toMatchObject({ is_error: true });
    expect(outer?.content).toMatch(/interrupted/u);
    expect((await core.handlers.listApprovals({ task_id: taskId })).approvals).toEqual([]);
    expect(existsSync(join(taskDir(dataDir, taskId), 'work/ran.txt'))).toBe(false);
  }, 60_000);
});

describe('skill_create', () => {
  it('asks even in auto mode, saves the approved skill and offers it in the next turn', async () => {
    const dataDir = makeDataDir(fake.url);
    const core = await cores.open(dataDir);
    const task = await core.handlers.createTask({ mode: 'general' });
    await core.handlers.updateTask({ task_id: task.id, approval_mode: 'auto' });
    const draft = { name: 'haiku', description: 'Writes one haiku about the topic it is given.', body: 'HAIKU BODY: write one haiku about the request.', model: 'worker' };
    fake.script([call('c1', 'skill_create', draft), call('c2', 'skill_haiku', { request: 'spring' }), say('old pond / a frog'), say('here it is')]);
    const { run_id } = await core.handlers.sendMessage({ task_id: task.id, content: 'make a haiku skill and use it' });
    const done = collect(core, task.id, run_id);
    const asked = await new Promise<RunEvent>((resolve) => void core.events.subscribe(task.id, run_id, (e) => e.type === 'approval_required' && resolve(e)));
    expect(asked.type === 'approval_required' && asked.detail).toContain('name: haiku');
    expect(asked.type === 'approval_required' && asked.detail).toContain('HAIKU BODY');
    await core.handlers.decideApproval({ task_id: task.id, run_id, call_id: 'c1', decision: 'allow_once' });
    const events = await done;
    const file = join(dataDir, 'skills', 'haiku', 'SKILL.md');
    expect(readFileSync(file, 'utf8')).toMatch(/^---\nname: haiku\n[\s\S]*model: worker\n[\s\S]*---\n\nHAIKU BODY/u);
    expect(events.find((e) => e.type === 'tool_result' && e.call_id === 'c2')).toMatchObject({ is_error: false, preview: 'old pond / a frog' });
    expect(toolNames(0)).not.toContain('skill_haiku');
    expect(toolNames(1)).toContain('skill_haiku');
    expect(req(2).messages[0]?.content).toContain('HAIKU BODY');
    const { skills } = await core.handlers.listSkills({});
    expect(skills.find((s) => s.name === 'haiku')).toMatchObject({ source: 'user' });
  });

  it('refuses a name already taken without asking, and never touches the existing skill', async () => {
    const dataDir = makeDataDir(fake.url);
    const core = await cores.open(dataDir);
    const before = readFileSync(join(core.ctx.resourcesDir, 'skills', 'proofread', 'SKILL.md'), 'utf8');
    fake.script([call('c1', 'skill_create', { name: 'proofread', description: 'A replacement proofreader for testing.', body: 'Replace the built-in one.' }), say('ok')]);
    const { taskId, runId } = await start(core);
    const events = await collect(core, taskId, runId);
    expect(events.some((e) => e.type === 'approval_required')).toBe(false);
    const result = events.find((e) => e.type === 'tool_result');
    expect(result).toMatchObject({ is_error: true });
    expect(result?.type === 'tool_result' && result.preview).toMatch(/already exists \(builtin/u);
    expect(existsSync(join(dataDir, 'skills', 'proofread'))).toBe(false);
    expect(readFileSync(join(core.ctx.resourcesDir, 'skills', 'proofread', 'SKILL.md'), 'utf8')).toBe(before);
  });
});

describe('built-in sub-agent skills', () => {
  it('contract-review runs analyze, compare and proofread nested, and writes its report', async () => {
    const dataDir = makeDataDir(fake.url);
    const core = await cores.open(dataDir);
    const task = await core.handlers.createTask({ mode: 'general' });
    await core.handlers.updateTask({ task_id: task.id, approval_mode: 'auto-edit' });
    fake.script([
      call('c1', 'skill_contract-review', { contract: 'source/contract.md', reference: 'source/template.md' }),
      call('a', 'skill_analyze', { file: 'source/contract.md', focus: 'liability' }),
      say('Liability is unlimited (p. 3).'),
      call('b', 'skill_compare', { first: 'source/template.md', second: 'source/contract.md' }),
      say('Clause 7 differs (A p. 2 / B p. 3).'),
      call('p', 'skill_proofread', { request: 'proofread source/contract.md' }),
      say('No wording errors that change meaning.'),
      call('w', 'write', { path: 'work/contract-review/review.md', content: '# Review\nSign after changes.' }),
      say('Verdict: sign after changes. Report: work/contract-review/review.md'),
      say('The review is ready.'),
    ]);
    const { run_id } = await core.handlers.sendMessage({ task_id: task.id, content: 'Review the contract against the template' });
    const events = await collect(core, task.id, run_id);
    expect(events.at(-1)).toMatchObject({ reason: 'done' });
    expect(events.filter((e) => e.type === 'tool_call').map((e) => (e.type === 'tool_call' ? [e.call_id, e.name, e.depth ?? 0] : null))).toEqual([
      ['c1', 'skill_contract-review', 0],
      ['c1/a', 'skill_analyze', 1],
      ['c1/b', 'skill_compare', 1],
      ['c1/p', 'skill_proofread', 1],
      ['c1/w', 'write', 1],
    ]);
    expect(events.some((e) => e.type === 'approval_required')).toBe(false);
    expect(toolNames(0)).toContain('skill_contract-review');
    // proofread is loaded instructions at the top level, a sub-agent only where a skill names it.
    expect(toolNames(0)).not.toContain('skill_proofread');
    expect(toolNames(1)).toEqual(['read', 'grep', 'glob', 'write', 'skill_analyze', 'skill_compare', 'skill_proofread']);
    expect(req(1).messages[0]?.content).toContain('# Contract review');
    expect(req(2).messages[0]?.content).toContain('# Analyze a document');
    expect(req(2).messages[1]?.content).toBe('file: source/contract.md\nfocus: liability');
    expect(req(4).messages[0]?.content).toContain('# Compare two documents');
    expect(req(6).messages[0]?.content).toContain('# Proofreading');
    expect(readFileSync(join(taskDir(dataDir, task.id), 'work/contract-review/review.md'), 'utf8')).toContain('Sign after changes');
    expect(events.find((e) => e.type === 'tool_result' && e.call_id === 'c1')).toMatchObject({ preview: 'Verdict: sign after changes. Report: work/contract-review/review.md' });
  });

  it('each built-in sub-agent skill runs with its own prompt and tools', async () => {
    const core = await cores.open(makeDataDir(fake.url));
    const cases: [string, Record<string, string>, string, string[]][] = [
      ['analyze', { file: 'source/a.pdf' }, '# Analyze a document', ['read', 'grep', 'glob']],
      ['compare', { first: 'source/a.pdf', second: 'source/b.pdf' }, '# Compare two documents', ['read', 'grep', 'glob']],
      ['literature-review', { question: 'what works?' }, '# Literature review', ['read', 'grep', 'glob', 'write', 'skill_analyze']],
      ['meeting-minutes', { notes: 'source/notes.txt' }, '# Meeting minutes', ['read', 'write']],
      ['extract-table', { file: 'source/a.pdf' }, '# Extract tables', ['read', 'grep', 'glob', 'write', 'write_spreadsheet']],
    ];
    fake.script([...cases.flatMap(([name, args], i) => [call(`c${i}`, `skill_${name}`, args), say(`${name} answered`)]), say('all done')]);
    const { taskId, runId } = await start(core);
    const events = await collect(core, taskId, runId);
    for (const [i, [name, , heading, tools]] of cases.entries()) {
      expect(req(2 * i + 1).messages[0]?.content, name).toContain(heading);
      expect(toolNames(2 * i + 1), name).toEqual(tools);
      expect(events.find((e) => e.type === 'tool_result' && e.call_id === `c${i}`), name).toMatchObject({ is_error: false, preview: `${name} answered` });
    }
  });
});
