import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI } from './server';

let fake: FakeOpenAI;
beforeAll(async () => {
  fake = await startFakeOpenAI();
});
afterAll(async () => {
  await fake.close();
});
beforeEach(() => fake.reset());

function post(path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(fake.url.replace(/\/v1$/, '') + path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
}

function sseData(text: string): string[] {
  return text
    .split('\n\n')
    .filter((block) => block.startsWith('data: '))
    .map((block) => block.slice('data: '.length));
}

describe('fake-openai server', () => {
  it('binds 127.0.0.1 and serves /v1/models', async () => {
    expect(fake.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    const res = await fetch(`${fake.url}/models`);
    const list = (await res.json()) as { object: string; data: { id: string }[] };
    expect(list.object).toBe('list');
    expect(list.data[0]?.id).toBe('fake-model');
  });

  it('streams OpenAI-format SSE chunks with split arguments, a usage chunk, and [DONE]', async () => {
    fake.script([{ text: 'Hello world', toolCalls: [{ id: 'c1', name: 'f', arguments: '{"a":12345}' }], usage: { prompt: 7, completion: 3 }, chunkSize: 4 }]);
    const res = await post('/v1/chat/completions', { model: 'm1', messages: [], stream: true, stream_options: { include_usage: true } }, { authorization: 'Bearer sk-secret-wxyz' });
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const data = sseData(await res.text());
    expect(data.at(-1)).toBe('[DONE]');
    const chunks = data.slice(0, -1).map((d) => JSON.parse(d) as Record<string, unknown>);
    for (const c of chunks) expect(c).toMatchObject({ object: 'chat.completion.chunk', model: 'm1', id: chunks[0]?.id });
    expect(chunks[0]).toMatchObject({ choices: [{ index: 0, delta: { role: 'assistant' }, finish_reason: null }] });
    const usageChunk = chunks.at(-1);
    expect(usageChunk).toMatchObject({ choices: [], usage: { prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 } });
    expect(chunks.at(-2)).toMatchObject({ choices: [{ delta: {}, finish_reason: 'tool_calls' }] });
    const argPieces = chunks.flatMap((c) => {
      const choice = (c.choices as { delta: { tool_calls?: { function?: { arguments?: string } }[] } }[])[0];
      return choice?.delta.tool_calls?.map((t) => t.function?.arguments ?? '') ?? [];
    });
    expect(argPieces.filter((p) => p !== '').length).toBeGreaterThan(1);
    expect(argPieces.join('')).toBe('{"a":12345}');

    const recorded = fake.requests[0];
    expect(recorded).toMatchObject({ method: 'POST', path: '/v1/chat/completions', hasAuth: true, authLast4: 'wxyz', body: { model: 'm1' } });
    expect(JSON.stringify(recorded)).not.toContain('sk-secret');
  });

  it('answers non-streaming requests with a chat.completion object', async () => {
    fake.script([{ text: 'plain', reasoning: 'hmm' }]);
    const res = await post('/v1/chat/completions', { model: 'm', messages: [{ role: 'user', content: 'hi' }] });
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ object: 'chat.completion', choices: [{ message: { role: 'assistant', content: 'plain', reasoning_content: 'hmm' }, finish_reason: 'stop' }] });
    expect(body.usage).toMatchObject({ completion_tokens: expect.any(Number) as number });
  });

  it('scripted status faults carry retry-after and an OpenAI error body; an empty queue is a 500', async () => {
    fake.script([{ fault: 'status', status: 429, retryAfter: 2 }]);
    const limited = await post('/v1/chat/completions', { model: 'm', messages: [], stream: true });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('2');
    expect(((await limited.json()) as { error: { message: string } }).error.message).toContain('429');

    const empty = await post('/v1/chat/completions', { model: 'm', messages: [], stream: true });
    expect(empty.status).toBe(500);
    expect(((await empty.json()) as { error: { message: string } }).error.message).toBe('fake-openai: no scripted step left');
  });

  it('drop destroys the socket mid-stream', async () => {
    fake.script([{ fault: 'drop', afterChunks: 1 }]);
    const res = await post('/v1/chat/completions', { model: 'm', messages: [], stream: true });
    await expect(res.text()).rejects.toThrow();
  });

  it('the control API scripts, lists requests and resets', async () => {
    const scripted = await post('/__control/script', [{ text: 'via control' }]);
    expect(await scripted.json()).toEqual({ ok: true, pending: 1 });
    const res = await post('/v1/chat/completions', { model: 'm', messages: [], stream: false });
    expect(JSON.stringify(await res.json())).toContain('via control');
    const listed = (await (await fetch(fake.url.replace(/\/v1$/, '/__control/requests'))).json()) as unknown[];
    expect(listed).toHaveLength(1);
    await post('/__control/reset', {});
    expect(fake.requests).toHaveLength(0);
    expect((await post('/__control/script', { not: 'an array' })).status).toBe(400);
  });

  // ---- parameter refusals ----
  it('refuses scripted parameters (any value, or one exact value) without taking a step', async () => {
    fake.rejectParams([{ param: 'enable_thinking' }]);
    expect((await post('/__control/reject-params', [{ param: 'reasoning_effort', value: 'max' }])).status).toBe(200);
    fake.script([{ text: 'accepted' }]);
    const unknown = await post('/v1/chat/completions', { model: 'm', messages: [], enable_thinking: false });
    expect(unknown.status).toBe(400);
    expect(JSON.stringify(await unknown.json())).toContain("Unknown parameter: 'enable_thinking'");
    const badValue = await post('/v1/chat/completions', { model: 'm', messages: [], reasoning_effort: 'max' });
    expect(badValue.status).toBe(400);
    expect(fake.pending()).toBe(1);
    const fine = await post('/v1/chat/completions', { model: 'm', messages: [], reasoning_effort: 'high' });
    expect(JSON.stringify(await fine.json())).toContain('accepted');
    expect(fake.requests.map((r) => (r.body as { reasoning_effort?: string }).reasoning_effort)).toEqual([undefined, 'max', 'high']);
    fake.reset();
    fake.script([{ text: 'after reset' }]);
    expect((await post('/v1/chat/completions', { model: 'm', messages: [], enable_thinking: true })).status).toBe(200);
  });
});

describe('fake-openai CLI', () => {
  it('prints FAKE_OPENAI_URL and serves until terminated', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'testing/fake-openai/cli.ts', '--port', '0'], { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      const line = await new Promise<string>((resolve, reject) => {
        const rl = createInterface({ input: child.stdout });
        rl.once('line', resolve);
        child.once('exit', (code) => reject(new Error(`cli exited with ${code}`)));
      });
      const match = /^FAKE_OPENAI_URL=(http:\/\/127\.0\.0\.1:\d+\/v1)$/.exec(line);
      expect(match).not.toBeNull();
      const url = match?.[1] ?? '';
      await fetch(url.replace(/\/v1$/, '/__control/script'), { method: 'POST', body: JSON.stringify([{ text: 'from cli' }]) });
      const res = await fetch(`${url}/chat/completions`, { method: 'POST', body: JSON.stringify({ model: 'm', messages: [] }) });
      expect(JSON.stringify(await res.json())).toContain('from cli');
    } finally {
      child.kill('SIGTERM');
    }
  });
});
