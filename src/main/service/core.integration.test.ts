// The core end to end against the project's fake OpenAI-compatible server (real HTTP, real SSE).
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { FakeOpenAI } from '../../../testing/fake-openai/server';
import { useFakeModelCores } from './fake-model-cores.test-support';
import { sofficePath } from '../renderers/soffice';
import { sandboxStatus } from '../sandbox/sandbox';
import { taskDir } from '../workspace/layout';
import { collect, fakeModelsYaml, makeDataDir, TEST_KEY, waitForEvent } from './core-test-kit';
import { testStoreContains } from '../store/test-store.test-support';
import type { Core } from './create-core';
import { normalizeCommand } from '../tools/shell/normalize';
// The core loads the tools (and through them the renderers) at the first run; loading them with the
// file keeps that one-time transform out of the first test's time limit.
import '../tools/catalog';

let fake: FakeOpenAI;
const { open, closeNow } = useFakeModelCores((f) => (fake = f));

async function newTask(core: Core, mode: 'general' | 'coding' = 'general') {
  return core.handlers.createTask({ mode });
}

describe('chat with a model', () => {
  it('streams the reply, persists it, and accounts tokens and cost', async () => {
    const core = await open(makeDataDir(fake.url));
    const task = await newTask(core);
    fake.script([{ text: '你好！This is the reply.', usage: { prompt: 1000, completion: 500 } }]);
    const { run_id } = await core.handlers.sendMessage({ task_id: task.id, content: '你好' });
    const events = await collect(core, task.id, run_id);
    const text = events.flatMap((e) => (e.type === 'text_delta' ? [e.delta] : [])).join('');
    expect(text).toBe('你好！This is the reply.');
    expect(events.filter((e) => e.type === 'text_delta').length).toBeGreaterThan(1);
    expect(events[0]).toMatchObject({ type: 'run_started', seq: 1 });
    expect(events.at(-1)).toMatchObject({ type: 'run_finished', reason: 'done' });
    const { messages } = await core.handlers.listMessages({ task_id: task.id });
    expect(messages.map((m) => [m.role, m.content])).toEqual([
      ['user', '你好'],
      ['assistant', '你好！This is the reply.'],
    ]);
    const after = await core.handlers.getTask({ task_id: task.id });
    expect(after).toMatchObject({ prompt_tokens: 1000, completion_tokens: 500, title: '你好', last_run: { id: run_id, status: 'done' } });
    expect(after.cost).toBeCloseTo((1000 * 2 + 500 * 8) / 1e6, 10);
    const usage = await core.handlers.getUsage({});
    expect(usage.total.prompt_tokens).toBe(1000);
    // The request carried the conversation and the key, and the key is nowhere in the database.
    expect(fake.requests.at(-1)!.authLast4).toBe(TEST_KEY.slice(-4));
    expect(await testStoreContains(core.dataDir, TEST_KEY)).toBe(false);
  });

  it.each([401, 403])('a %i ends the run at once, typed as a refused key, and keeps the user message', async (status) => {
    const core = await open(makeDataDir(fake.url));
    const task = await newTask(core);
    fake.script([{ fault: 'status', status, body: { error: { message: 'Invalid API key' } } }, { fault: 'status', status }]);
    const { run_id } = await core.handlers.sendMessage({ task_id: task.id, content: 'hello' });
    const events = await collect(core, task.id, run_id);
    const error = events.find((e) => e.type === 'error');
    expect(error).toMatchObject({ error: { code: 'provider_error', name: 'ProviderKeyRejectedError' } });
    expect(JSON.stringify(events)).not.toContain(TEST_KEY);
    expect(events.at(-1)).toMatchObject({ reason: 'error' });
    // Asked once: a refused key is not retried.
    expect(events.filter((e) => e.type === 'retry')).toHaveLength(0);
    expect(fake.requests.filter((r) => r.path === '/v1/chat/completions')).toHaveLength(1);
    const { runs } = await core.handlers.listRuns({ task_id: task.id });
    // The run keeps the error's code and class, so its footer says in the person's language what happened.
    expect(runs[0]).toMatchObject({ status: 'failed', error_code: 'provider_error', error_name: 'ProviderKeyRejectedError' });
    expect(runs[0].error).toMatch(new RegExp(`${status}.*key|key.*${status}`, 'i'));
    const { messages } = await core.handlers.listMessages({ task_id: task.id });
    expect(messages.map((m) => m.content)).toEqual(['hello']);
  });

  it('retries a 429 and a 500, then succeeds', async () => {
    const core = await open(makeDataDir(fake.url));
    const task = await newTask(core);
    fake.script([{ fault: 'status', status: 429, retryAfterMs: 20 }, { fault: 'status', status: 500 }, { text: 'third time' }]);
    const { run_id } = await core.handlers.sendMessage({ task_id: task.id, content: 'x' });
    const events = await collect(core, task.id, run_id);
    expect(events.filter((e) => e.type === 'retry')).toHaveLength(2);
    expect(events.at(-1)).toMatchObject({ reason: 'done' });
    const { messages } = await core.handlers.listMessages({ task_id: task.id });
    expect(messages.at(-1)!.content).toBe('third time');
  });

  it('gives up on repeated 500s with provider_error', async () => {
    const core = await open(makeDataDir(fake.url));
    const task = await newTask(core);
    fake.script([{ fault: 'status', status: 500 }, { fault: 'status', status: 500 }, { fault: 'status', status: 500 }]);
    const { run_id } = await core.handlers.sendMessage({ task_id: task.id, content: 'x' });
    const events = await collect(core, task.id, run_id);
    expect(events.find((e) => e.type === 'error')).toMatchObject({ error: { code: 'provider_error' } });
  });

  it('reports an unreachable endpoint', async () => {
    const port = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => resolve(p));
      });
    });
    const core = await open(makeDataDir(`http://127.0.0.1:${port}/v1`));
    const task = await newTask(core);
    const { run_id } = await core.handlers.sendMessage({ task_id: task.id, content: 'x' });
    const events = await collect(core, task.id, run_id);
    expect(events.find((e) => e.type === 'error')).toMatchObject({ error: { code: 'provider_unreachable' } });
  });

  it('a missing API key refuses the message at once, naming the profile and its key variable (first-run)', async () => {
    const core = await open(makeDataDir(fake.url), { PATH: process.env.PATH });
    const task = await newTask(core);
    const refused = core.handlers.sendMessage({ task_id: task.id, content: 'x' });
    await expect(refused).rejects.toMatchObject({ code: 'missing_api_key', name: 'MissingApiKeyError' });
    await expect(refused).rejects.toThrow(/fake\.main.*Settings → Models.*FAKE_API_KEY/);
    // Nothing was stored or started: the person fixes the key and sends again.
    expect((await core.ctx.store.messages.list(task.id, {})).messages).toEqual([]);
    expect(fake.requests).toHaveLength(0);
    expect((await core.handlers.listModels({})).profiles.find((p) => p.id === 'fake.main')?.has_key).toBe(false);
  });

  it('a key entered in settings is used and never handed back', async () => {
    const core = await open(makeDataDir(fake.url), { PATH: process.env.PATH });
    await core.handlers.setApiKey({ env: 'FAKE_API_KEY', key: 'sk-stored-key-9876' });
    const models = await core.handlers.listModels({});
    expect(models.profiles.find((p) => p.id === 'fake.main')?.has_key).toBe(true);
    expect(JSON.stringify(models)).not.toContain('sk-stored-key-9876');
    const task = await newTask(core);
    fake.script([{ text: 'ok' }]);
    const { run_id } = await core.handlers.sendMessage({ task_id: task.id, content: 'x' });
    await collect(core, task.id, run_id);
    expect(fake.requests.at(-1)!.authLast4).toBe('9876');
  });
});

describe('agent runs with tools', () => {
  it('runs parallel read-only calls from one response and feeds results back', async () => {
    const core = await open(makeDataDir(fake.url));
    const task = await newTask(core);
    fake.script([
      {
        toolCalls: [
          { name: 'glob', arguments: '{"pattern":"**/*"}' },
          { name: 'read', arguments: '{"path":"work/notes.md"}' },
        ],
      },
      { text: 'Read both.' },
    ]);
    const { run_id } = await core.handlers.sendMessage({ task_id: task.id, content: 'look around' });
    writeFileSync(join(taskDir(core.dataDir, task.id), 'work', 'notes.md'), 'alpha\nbeta\n');
    const events = await collect(core, task.id, run_id);
    expect(events.filter((e) => e.type === 'tool_call').map((e) => e.type === 'tool_call' && e.name)).toEqual(['glob', 'read']);
    const results = events.filter((e) => e.type === 'tool_result');
    expect(results).toHaveLength(2);
    const second = fake.requests.at(-1)!.body as { messages: { role: string; content: string }[] };
    expect(second.messages.filter((m) => m.role === 'tool').map((m) => m.content).join('\n')).toContain('beta');
    const files = await core.handlers.listFiles({ task_id: task.id });
    expect(files.files.map((f) => f.path)).toContain('work/notes.md');
  });

  it('a long tool’s progress reaches subscribers as progress events, and a render says it wrote an artifact', async () => {
    const core = await open(makeDataDir(fake.url));
    const task = await newTask(core);
    await core.handlers.updateTask({ task_id: task.id, approval_mode: 'auto-edit' });
    const spec = { title: 'Progress', slides: [{ layout: 'title' }, { layout: 'bullets', title: 'A', bullets: ['one'] }] };
    fake.script([{ toolCalls: [{ name: 'render_deck', arguments: JSON.stringify({ spec }) }] }, { text: 'Rendered.' }]);
    const { run_id } = await core.handlers.sendMessage({ task_id: task.id, content: 'render' });
    const events = await collect(core, task.id, run_id);
    const progress = events.filter((e) => e.type === 'progress');
    // Rendering, then (where LibreOffice is installed) the check of the rendered slides, page by page.
    const checking = sofficePath() === null ? [] : [0, 1, 2].map((done) => ['check_slides', done, 2]);
    expect(progress.map((e) => e.type === 'progress' && [e.step, e.done, e.total])).toEqual([
      ['render_deck', 0, 2],
      ['render_deck', 2, 2],
      ...checking,
    ]);
    const types = events.map((e) => e.type);
    expect(types.indexOf('tool_call')).toBeLessThan(types.indexOf('progress'));
    expect(types.lastIndexOf('progress')).toBeLessThan(types.indexOf('tool_result'));
    expect(events.find((e) => e.type === 'tool_result')).toMatchObject({ name: 'render_deck', is_error: false, writes_artifacts: true });
    // Rendering and LibreOffice's page-by-page check: 17 s on a quiet CI machine, over 30 s at load 8.
  }, 120_000);

  it('strips secrets from the shell environment', async () => {
    const core = await open(makeDataDir(fake.url), { FAKE_API_KEY: TEST_KEY, PATH: process.env.PATH });
    const task = await newTask(core);
    await core.ctx.store.grants.grant(task.id, 'shell', normalizeCommand('env'));
    process.env.FAKE_API_KEY = TEST_KEY;
    process.env.SOME_SERVICE_TOKEN = 'tok-should-not-leak';
    try {
      fake.script([{ toolCalls: [{ name: 'shell', arguments: '{"command":"env"}' }] }, { text: 'done' }]);
      const { run_id } = await core.handlers.sendMessage({ task_id: task.id, content: 'env' });
      await collect(core, task.id, run_id);
      const tool = (await core.handlers.listMessages({ task_id: task.id })).messages.find((m) => m.role === 'tool')!;
      expect(tool.content).toContain('PATH=');
      expect(tool.content).not.toContain(TEST_KEY);
      expect(tool.content).not.toContain('tok-should-not-leak');
    } finally {
      delete process.env.FAKE_API_KEY;
      delete process.env.SOME_SERVICE_TOKEN;
    }
  });

  it('compacts older tool outputs near reliable_context and tells the UI', async () => {
    const core = await open(makeDataDir(fake.url, { reliable_context: 3000 }));
    const task = await newTask(core);
    const dir = join(taskDir(core.dataDir, task.id));
    const steps = [];
    for (let i = 0; i < 9; i++) steps.push({ toolCalls: [{ name: 'read', arguments: `{"path":"work/big${i}.txt"}` }] });
    steps.push({ text: 'summarised' });
    fake.script(steps);
    const { run_id } = await core.handlers.sendMessage({ task_id: task.id, content: 'read all' });
    for (let i = 0; i < 9; i++) writeFileSync(join(dir, 'work', `big${i}.txt`), `${i} `.repeat(2000));
    const events = await collect(core, task.id, run_id);
    expect(events.some((e) => e.type === 'context_compacted')).toBe(true);
    const stored = (await core.handlers.listMessages({ task_id: task.id })).messages.filter((m) => m.role === 'tool');
    expect(stored.every((m) => !m.content.includes('compacted'))).toBe(true);
    const last = fake.requests.at(-1)!.body as { messages: { role: string; content: string }[] };
    expect(last.messages.some((m) => m.role === 'tool' && m.content.includes('compacted'))).toBe(true);
  });
});

describe('approvals, cancel and resume', () => {
  it('an approval survives a restart and the run continues once answered', async () => {
    const dataDir = makeDataDir(fake.url);
    const first = await open(dataDir);
    const task = await newTask(first);
    fake.script([{ toolCalls: [{ id: 'call_w1', name: 'write', arguments: '{"path":"work/out.txt","content":"approved!"}' }] }]);
    const { run_id } = await first.handlers.sendMessage({ task_id: task.id, content: 'write it' });
    await waitForEvent(first, task.id, run_id, 'approval_required');
    await closeNow(first);

    const second = await open(dataDir);
    const t = await second.handlers.getTask({ task_id: task.id });
    expect(t.last_run).toMatchObject({ status: 'interrupted' });
    const { approvals } = await second.handlers.listApprovals({ task_id: task.id });
    expect(approvals).toMatchObject([{ call_id: 'call_w1', name: 'write', kind: 'edit' }]);
    fake.script([{ text: 'written' }]);
    await second.handlers.decideApproval({ task_id: task.id, run_id, call_id: 'call_w1', decision: 'allow_once' });
    const runId2 = second.runs.activeRunFor(task.id)!;
    const events = await collect(second, task.id, runId2);
    expect(events.at(-1)).toMatchObject({ reason: 'done' });
    expect(readFileSync(join(taskDir(dataDir, task.id), 'work', 'out.txt'), 'utf8')).toBe('approved!');
    expect((await second.handlers.listApprovals({ task_id: task.id })).approvals).toEqual([]);
    const roles = (await second.handlers.listMessages({ task_id: task.id })).messages.map((m) => m.role);
    expect(roles).toEqual(['user', 'assistant', 'tool', 'assistant']);
  });

  it('cancel during a stalled stream ends the run within a second and keeps the text', async () => {
    const core = await open(makeDataDir(fake.url));
    const task = await newTask(core);
    // The provider sends the first 30 chunks of a 40-word answer and goes silent. The first chunks
    // show as they come; the run's secret scrubber holds back the last characters (as long as a
    // key's longest encoded form) until more text comes or the run ends.
    const words = Array.from({ length: 40 }, (_, i) => `word${i}`);
    fake.script([{ fault: 'stall', afterChunks: 31, text: words.join(' ') }]);
    const { run_id } = await core.handlers.sendMessage({ task_id: task.id, content: 'x' });
    await waitForEvent(core, task.id, run_id, 'text_delta');
    const t0 = Date.now();
    const finished = collect(core, task.id, run_id);
    await core.handlers.cancelRun({ task_id: task.id, run_id });
    const events = await finished;
    expect(Date.now() - t0).toBeLessThan(1000);
    expect(events.at(-1)).toMatchObject({ reason: 'cancelled' });
    expect((await core.handlers.listRuns({ task_id: task.id })).runs[0].status).toBe('cancelled');
    const { messages } = await core.handlers.listMessages({ task_id: task.id });
    // All that arrived is kept, the held words too, marked incomplete (is_error) for Continue.
    const last = messages.at(-1);
    expect(last).toMatchObject({ role: 'assistant', is_error: true });
    const kept = last?.content ?? '';
    expect(kept.length).toBeGreaterThan(100);
    expect(words.join(' ').startsWith(kept)).toBe(true);
    // What the person was shown (the held tail released when the run ended) is what is kept.
    const shown = events.map((e) => (e.type === 'text_delta' ? e.delta : '')).join('');
    expect(shown).toBe(kept);
  });

  it('cancel during a long shell command kills it within a second', async () => {
    const core = await open(makeDataDir(fake.url));
    const task = await newTask(core);
    await core.ctx.store.grants.grant(task.id, 'shell', normalizeCommand('sleep 30; echo finished > work/late.txt'));
    fake.script([{ toolCalls: [{ name: 'shell', arguments: '{"command":"sleep 30; echo finished > work/late.txt"}' }] }]);
    const { run_id } = await core.handlers.sendMessage({ task_id: task.id, content: 'x' });
    await waitForEvent(core, task.id, run_id, 'tool_call');
    await new Promise((r) => setTimeout(r, 200));
    const t0 = Date.now();
    const finished = collect(core, task.id, run_id);
    await core.handlers.cancelRun({ task_id: task.id, run_id });
    const events = await finished;
    expect(Date.now() - t0).toBeLessThan(1500);
    expect(events.at(-1)).toMatchObject({ reason: 'cancelled' });
    expect(existsSync(join(taskDir(core.dataDir, task.id), 'work', 'late.txt'))).toBe(false);
  });

  it('a second message while a run is active is refused with conflict', async () => {
    const core = await open(makeDataDir(fake.url));
    const task = await newTask(core);
    fake.script([{ fault: 'stall', afterChunks: 1 }]);
    const { run_id } = await core.handlers.sendMessage({ task_id: task.id, content: 'x' });
    await expect(core.handlers.sendMessage({ task_id: task.id, content: 'y' })).rejects.toMatchObject({ code: 'conflict' });
    await core.handlers.cancelRun({ task_id: task.id, run_id });
  });
});

describe('tasks', () => {
  it('lazy creation: an unused task leaves no folder and is gone after a restart', async () => {
    const dataDir = makeDataDir(fake.url);
    const first = await open(dataDir);
    const unused = await newTask(first);
    const used = await newTask(first);
    fake.script([{ text: 'ok' }]);
    const { run_id } = await first.handlers.sendMessage({ task_id: used.id, content: 'hi' });
    await collect(first, used.id, run_id);
    expect(existsSync(taskDir(dataDir, unused.id))).toBe(false);
    expect(existsSync(join(taskDir(dataDir, used.id), 'source'))).toBe(true);
    await closeNow(first);
    const second = await open(dataDir);
    expect((await second.handlers.listTasks({})).tasks.map((t) => t.id)).toEqual([used.id]);
  });

  it('a restart keeps a task the person said something about: a description, done or abandoned', async () => {
    const dataDir = makeDataDir(fake.url);
    const first = await open(dataDir);
    const untouched = await newTask(first);
    const described = await newTask(first);
    await first.handlers.updateTask({ task_id: described.id, description: 'a talk for Monday' });
    const done = await newTask(first);
    await first.handlers.updateTask({ task_id: done.id, status: 'completed' });
    const abandoned = await newTask(first);
    await first.handlers.updateTask({ task_id: abandoned.id, status: 'abandoned' });
    const titled = await first.handlers.createTask({ mode: 'ppt', title: 'Board deck' });
    await closeNow(first);
    const second = await open(dataDir);
    const kept = (await second.handlers.listTasks({})).tasks.map((t) => t.id).sort();
    expect(kept).toEqual([described.id, done.id, abandoned.id, titled.id].sort());
    expect(kept).not.toContain(untouched.id);
    expect((await second.handlers.getTask({ task_id: described.id })).description).toBe('a talk for Monday');
  });

  it('files are copied (never moved) into source/, with a suffix for a taken name, and deleting a task removes its folder', async () => {
    const core = await open(makeDataDir(fake.url));
    const task = await newTask(core);
    const src = join(core.dataDir, '报告.txt');
    writeFileSync(src, 'hello');
    const a = await core.handlers.addFiles({ task_id: task.id, paths: [src] });
    const b = await core.handlers.addFiles({ task_id: task.id, paths: [src] });
    expect(a.files[0].path).toBe('source/报告.txt');
    expect(b.files[0].path).toBe('source/报告-2.txt');
    expect(existsSync(src)).toBe(true);
    const read = await core.handlers.readFile({ task_id: task.id, path: 'source/报告-2.txt' });
    expect(read).toMatchObject({ encoding: 'utf8', data: 'hello', size: 5 });
    await expect(core.handlers.readFile({ task_id: task.id, path: '../../folio.db' })).rejects.toMatchObject({ code: 'path_escape' });
    await core.handlers.deleteTask({ task_id: task.id });
    expect(existsSync(taskDir(core.dataDir, task.id))).toBe(false);
  });

  it('a corrupt PDF gets a clear extraction error and the task goes on', async () => {
    const core = await open(makeDataDir(fake.url));
    const task = await newTask(core);
    const bad = join(core.dataDir, 'broken.pdf');
    writeFileSync(bad, '%PDF-1.4\n1 0 obj garbage');
    await core.handlers.addFiles({ task_id: task.id, paths: [bad] });
    let sources = (await core.handlers.listSources({ task_id: task.id })).sources;
    for (let i = 0; i < 200 && sources.some((s) => s.status === 'pending'); i++) {
      await new Promise((r) => setTimeout(r, 50));
      sources = (await core.handlers.listSources({ task_id: task.id })).sources;
    }
    expect(sources).toMatchObject([{ path: 'source/broken.pdf', status: 'error' }]);
    expect(sources[0].message).toMatch(/corrupt|truncated/i);
    const files = (await core.handlers.listFiles({ task_id: task.id })).files.map((f) => f.path);
    expect(files).toEqual(['source/broken.pdf']);
    fake.script([{ text: 'still here' }]);
    const { run_id } = await core.handlers.sendMessage({ task_id: task.id, content: 'hello' });
    const events = await collect(core, task.id, run_id);
    expect(events.at(-1)).toMatchObject({ reason: 'done' });
    const prompt = (fake.requests.at(-1)!.body as { messages: { role: string; content: string }[] }).messages[0].content;
    expect(prompt).toContain('source/broken.pdf');
    expect(prompt).toMatch(/error/);
  });

  it('never writes the API key to a log line, an event or the database', async () => {
    const lines: string[] = [];
    const spies = (['log', 'info', 'warn', 'error', 'debug'] as const).map((level) =>
      vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void lines.push(args.map(String).join(' '))),
    );
    try {
      const core = await open(makeDataDir(fake.url));
      const task = await newTask(core);
      fake.script([{ fault: 'status', status: 401, body: { error: { message: `bad key ${TEST_KEY}` } } }]);
      const first = await core.handlers.sendMessage({ task_id: task.id, content: 'hello' });
      const events = await collect(core, task.id, first.run_id);
      fake.script([{ text: 'ok' }]);
      const second = await core.handlers.sendMessage({ task_id: task.id, content: 'again' });
      events.push(...(await collect(core, task.id, second.run_id)));
      expect(JSON.stringify(events)).not.toContain(TEST_KEY);
      expect(lines.join('\n')).not.toContain(TEST_KEY);
      await closeNow(core);
      expect(await testStoreContains(core.dataDir, TEST_KEY)).toBe(false);
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
  });

  it("a task's mode picks its default profile unless the task names one", async () => {
    const dataDir = makeDataDir(fake.url);
    writeFileSync(
      join(dataDir, 'models', 'fake2.yaml'),
      fakeModelsYaml(fake.url).replace('provider: fake', 'provider: fake2').replace('model: fake-model', 'model: proposal-model').replace('    role: chat', '    role: chat\n    default_for: [proposal]'),
    );
    const core = await open(dataDir);
    const proposal = await core.handlers.createTask({ mode: 'proposal' });
    fake.script([{ text: 'ok' }]);
    let { run_id } = await core.handlers.sendMessage({ task_id: proposal.id, content: 'x' });
    await collect(core, proposal.id, run_id);
    expect((fake.requests.at(-1)!.body as { model: string }).model).toBe('proposal-model');
    const general = await core.handlers.createTask({ mode: 'general' });
    fake.script([{ text: 'ok' }]);
    ({ run_id } = await core.handlers.sendMessage({ task_id: general.id, content: 'x' }));
    await collect(core, general.id, run_id);
    expect((fake.requests.at(-1)!.body as { model: string }).model).toBe('fake-model');
  });

  it('a new message after an interruption (instead of Continue) answers the open call and the provider accepts the conversation', async () => {
    const dataDir = makeDataDir(fake.url);
    const first = await open(dataDir);
    const task = await newTask(first);
    fake.script([{ toolCalls: [{ id: 'call_open', name: 'write', arguments: '{"path":"work/x.txt","content":"x"}' }] }]);
    const { run_id } = await first.handlers.sendMessage({ task_id: task.id, content: 'write it' });
    await waitForEvent(first, task.id, run_id, 'approval_required');
    await closeNow(first);

    const second = await open(dataDir);
    fake.script([{ text: 'Understood, something else then.' }]);
    const next = await second.handlers.sendMessage({ task_id: task.id, content: 'never mind, do something else' });
    const events = await collect(second, task.id, next.run_id);
    expect(events.at(-1)).toMatchObject({ reason: 'done' });
    const { messages } = await second.handlers.listMessages({ task_id: task.id });
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'user', 'assistant']);
    expect(messages[2]).toMatchObject({ tool_call_id: 'call_open', is_error: true });
    expect(messages[2].content).toMatch(/Not run/);
    expect((await second.handlers.listApprovals({ task_id: task.id })).approvals).toEqual([]);
    expect(existsSync(join(taskDir(dataDir, task.id), 'work', 'x.txt'))).toBe(false);
  });

  it('approval decisions must name a pending question; deleting a task waits only for its own run', async () => {
    const core = await open(makeDataDir(fake.url));
    const waiting = await newTask(core);
    fake.script([{ toolCalls: [{ id: 'call_q', name: 'write', arguments: '{"path":"work/q.txt","content":"q"}' }] }]);
    const { run_id } = await core.handlers.sendMessage({ task_id: waiting.id, content: 'write' });
    await waitForEvent(core, waiting.id, run_id, 'approval_required');
    await expect(core.handlers.decideApproval({ task_id: waiting.id, run_id, call_id: 'call_other', decision: 'allow_once' })).rejects.toMatchObject({ code: 'not_found' });
    await expect(core.handlers.decideApproval({ task_id: waiting.id, run_id: 'r_wrong', call_id: 'call_q', decision: 'allow_once' })).rejects.toMatchObject({ code: 'not_found' });
    // Another task with a stalled stream is deleted while the first still waits for its approval.
    const doomed = await newTask(core);
    fake.script([{ fault: 'stall', afterChunks: 1 }]);
    await core.handlers.sendMessage({ task_id: doomed.id, content: 'x' });
    await core.handlers.deleteTask({ task_id: doomed.id });
    await expect(core.handlers.getTask({ task_id: doomed.id })).rejects.toMatchObject({ code: 'not_found' });
    await core.handlers.cancelRun({ task_id: waiting.id, run_id });
  });

  it.skipIf(!sandboxStatus().active)('shell commands cannot read the stored keys even when the person allows them (needs bubblewrap)', async () => {
    const core = await open(makeDataDir(fake.url), { PATH: process.env.PATH });
    await core.handlers.setApiKey({ env: 'FAKE_API_KEY', key: 'sk-stored-secret-4242' });
    const task = await newTask(core);
    await core.ctx.store.grants.grant(task.id, 'shell', normalizeCommand('cat ../../keys.json; echo END'));
    fake.script([{ toolCalls: [{ id: 'call_cat', name: 'shell', arguments: '{"command":"cat ../../keys.json; echo END"}' }] }, { text: 'ok' }]);
    const { run_id } = await core.handlers.sendMessage({ task_id: task.id, content: 'x' });
    const asked = await waitForEvent(core, task.id, run_id, 'approval_required');
    expect(asked).toMatchObject({ risk: 'destructive' });
    await core.handlers.decideApproval({ task_id: task.id, run_id, call_id: 'call_cat', decision: 'allow_once' });
    await collect(core, task.id, run_id);
    const result = (await core.handlers.getToolResult({ task_id: task.id, call_id: 'call_cat' })).content;
    expect(result).toContain('END');
    expect(result).not.toContain('sk-stored-secret-4242');
  });

  it('a coding task edits its project folder while source/ and artifacts/ stay in the task folder', async () => {
    const core = await open(makeDataDir(fake.url));
    const repo = mkdtempSync(join(tmpdir(), 'folio-repo-'));
    writeFileSync(join(repo, 'main.js'), 'console.log(1);\n');
    const task = await core.handlers.createTask({ mode: 'coding' });
    await core.handlers.updateTask({ task_id: task.id, workspace_path: repo, approval_mode: 'auto-edit' });
    const src = join(core.dataDir, 'notes.txt');
    writeFileSync(src, 'requirements: print 2');
    await core.handlers.addFiles({ task_id: task.id, paths: [src] });
    fake.script([
      { toolCalls: [{ name: 'read', arguments: '{"path":"source/notes.txt"}' }] },
      { toolCalls: [{ name: 'edit', arguments: '{"path":"main.js","old_str":"log(1)","new_str":"log(2)"}' }] },
      { toolCalls: [{ name: 'render_deck', arguments: JSON.stringify({ spec: { title: 'Change', slides: [{ layout: 'title', title: 'Change' }] }, name: 'change' }) }] },
      { text: 'done' },
    ]);
    const { run_id } = await core.handlers.sendMessage({ task_id: task.id, content: 'do it' });
    await collect(core, task.id, run_id);
    const tools = (await core.handlers.listMessages({ task_id: task.id })).messages.filter((m) => m.role === 'tool');
    expect(tools.map((m) => m.is_error)).toEqual([false, false, false]);
    expect(tools[0].content).toContain('requirements: print 2');
    expect(readFileSync(join(repo, 'main.js'), 'utf8')).toBe('console.log(2);\n');
    expect(existsSync(join(repo, 'artifacts'))).toBe(false);
    expect((await core.handlers.listFiles({ task_id: task.id })).files.map((f) => f.path)).toContain('artifacts/change.pptx');
    await expect(core.handlers.updateTask({ task_id: task.id, workspace_path: 'relative/path' })).rejects.toMatchObject({ code: 'invalid_input' });
  });
});
