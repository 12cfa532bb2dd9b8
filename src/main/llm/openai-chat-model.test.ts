import { createServer } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FolioError } from '../../shared/errors';
import { startFakeOpenAI, type FakeOpenAI } from '../../../testing/fake-openai/server';
import { fakeProfile } from '../../../testing/fake-openai/fake-profile';
import { assertKey, createChatModel, estimateCost } from './openai-chat-model';
import type { ChatRequest, ChatStreamEvent } from './types';

const KEY = 'sk-test-secret-abcd1234';
let fake: FakeOpenAI;

beforeAll(async () => {
  fake = await startFakeOpenAI();
});
afterAll(async () => {
  await fake.close();
});
beforeEach(() => fake.reset());

const hello: ChatRequest = { messages: [{ role: 'user', content: 'hello' }] };

async function collect(iterable: AsyncIterable<ChatStreamEvent>): Promise<ChatStreamEvent[]> {
  const out: ChatStreamEvent[] = [];
  for await (const e of iterable) out.push(e);
  return out;
}

function done(events: ChatStreamEvent[]): Extract<ChatStreamEvent, { type: 'done' }> {
  const last = events.at(-1);
  if (last?.type !== 'done') throw new Error(`expected a done event last, got ${JSON.stringify(last)}`);
  return last;
}

async function failure(iterable: AsyncIterable<ChatStreamEvent>): Promise<{ error: FolioError; events: ChatStreamEvent[] }> {
  const events: ChatStreamEvent[] = [];
  try {
    for await (const e of iterable) events.push(e);
  } catch (err) {
    if (err instanceof FolioError) return { error: err, events };
    throw err;
  }
  throw new Error('expected the stream to fail');
}

function lastBody(): Record<string, unknown> {
  const body = fake.requests.at(-1)?.body;
  if (typeof body !== 'object' || body === null) throw new Error('no recorded request body');
  return body as Record<string, unknown>;
}

const fast = { baseDelayMs: 5, idleTimeoutMs: 2000, outbound: null };

describe('createChatModel streaming', () => {
  it('streams text deltas, then done with usage from the final chunk, and prices it', async () => {
    fake.script([{ text: 'Hello there, how are you today?', usage: { prompt: 1000, completion: 500 }, chunkSize: 5 }]);
    const profile = fakeProfile(fake.url);
    const events = await collect(createChatModel(profile, KEY, fast).stream(hello, new AbortController().signal));

    const texts = events.filter((e) => e.type === 'text');
    expect(texts.length).toBeGreaterThan(3);
    expect(texts.map((e) => e.delta).join('')).toBe('Hello there, how are you today?');
    const d = done(events);
    expect(d.content).toBe('Hello there, how are you today?');
    expect(d.reasoning).toBeNull();
    expect(d.finishReason).toBe('stop');
    expect(d.usage).toEqual({ promptTokens: 1000, completionTokens: 500 });
    expect(estimateCost(profile, d.usage)).toBeCloseTo((1000 * 2 + 500 * 8) / 1e6, 12);
    expect(fake.requests[0]?.authLast4).toBe('1234');
  });

  it('estimates usage at ~4 chars per token when the provider sends none', async () => {
    fake.script([{ text: 'x'.repeat(40), noUsage: true }]);
    const events = await collect(createChatModel(fakeProfile(fake.url), KEY, fast).stream(hello, new AbortController().signal));
    expect(done(events).usage).toEqual({ promptTokens: 2, completionTokens: 10 });
  });

  it('yields reasoning deltas from reasoning_content and from reasoning (Ollama)', async () => {
    fake.script([
      { reasoning: 'Let me think about this carefully.', text: 'Answer: 4', chunkSize: 6 },
      { reasoning: 'Local thinking.', reasoningField: 'reasoning', text: 'ok' },
    ]);
    const model = createChatModel(fakeProfile(fake.url, { thinking_mode: 'always' }), KEY, fast);
    const first = await collect(model.stream(hello, new AbortController().signal));
    expect(first.filter((e) => e.type === 'reasoning').length).toBeGreaterThan(2);
    expect(first.findIndex((e) => e.type === 'reasoning')).toBeLessThan(first.findIndex((e) => e.type === 'text'));
    expect(done(first).reasoning).toBe('Let me think about this carefully.');
    expect(done(first).content).toBe('Answer: 4');

    const second = await collect(model.stream(hello, new AbortController().signal));
    expect(done(second).reasoning).toBe('Local thinking.');
  });

  it('assembles two parallel tool calls whose arguments arrive in pieces', async () => {
    const a = JSON.stringify({ city: 'Paris', units: 'metric', detail: 'full forecast please' });
    const b = JSON.stringify({ timezone: 'Europe/Paris' });
    fake.script([{ toolCalls: [{ id: 'call_a', name: 'get_weather', arguments: a }, { id: 'call_b', name: 'get_time', arguments: b }], chunkSize: 7 }]);
    const events = await collect(createChatModel(fakeProfile(fake.url), KEY, fast).stream(hello, new AbortController().signal));
    const d = done(events);
    expect(d.finishReason).toBe('tool_calls');
    expect(d.toolCalls).toEqual([
      { id: 'call_a', name: 'get_weather', arguments: a },
      { id: 'call_b', name: 'get_time', arguments: b },
    ]);
  });
});

describe('request parameters derived from the profile', () => {
  const tools = [{ name: 'get_time', description: 'time', parameters: { type: 'object', properties: {} } }];

  it('sends parallel_tool_calls, thinking, reasoning_effort, max tokens, temperature and extra_body', async () => {
    fake.script([{ text: 'ok' }]);
    const profile = fakeProfile(fake.url, {
      parallel_tools: true,
      thinking_mode: 'toggle',
      reasoning_effort_levels: ['low', 'medium', 'high'],
      temperature: 0.3,
      max_output: 1234,
      extra_body: { top_p: 0.9 },
    });
    await collect(createChatModel(profile, KEY, fast).stream({ ...hello, tools, thinking: true }, new AbortController().signal));
    const body = lastBody();
    expect(body).toMatchObject({
      model: 'fake-model',
      stream: true,
      stream_options: { include_usage: true },
      parallel_tool_calls: true,
      thinking: { type: 'enabled' },
      reasoning_effort: 'medium',
      temperature: 0.3,
      max_tokens: 1234,
      top_p: 0.9,
    });
    expect(body.tools).toEqual([{ type: 'function', function: { name: 'get_time', description: 'time', parameters: { type: 'object', properties: {} } } }]);
  });

  it('omits capability fields the profile does not declare', async () => {
    fake.script([{ text: 'ok' }, { text: 'ok' }]);
    const plain = fakeProfile(fake.url, { parallel_tools: false, thinking_mode: 'none' });
    await collect(createChatModel(plain, KEY, fast).stream({ ...hello, tools, thinking: true, reasoningEffort: 'high' }, new AbortController().signal));
    const body = lastBody();
    for (const field of ['parallel_tool_calls', 'thinking', 'enable_thinking', 'reasoning_effort']) expect(body).not.toHaveProperty(field);

    // Without tools, parallel_tool_calls is not sent even when supported; Qwen-style toggle and OpenAI-style max tokens.
    const qwen = fakeProfile(fake.url, { parallel_tools: true, thinking_mode: 'toggle', thinking_param: 'enable_thinking', max_tokens_param: 'max_completion_tokens' });
    await collect(createChatModel(qwen, KEY, fast).stream({ ...hello, thinking: false }, new AbortController().signal));
    const second = lastBody();
    expect(second).not.toHaveProperty('parallel_tool_calls');
    expect(second).not.toHaveProperty('max_tokens');
    expect(second).toMatchObject({ enable_thinking: false, max_completion_tokens: 4096 });
  });

  it('maps assistant tool calls and tool results, echoing reasoning only within the current turn', async () => {
    fake.script([{ text: 'done' }]);
    const profile = fakeProfile(fake.url, { thinking_mode: 'always' });
    await collect(
      createChatModel(profile, KEY, fast).stream(
        {
          messages: [
            { role: 'system', content: 'sys' },
            { role: 'user', content: 'first' },
            { role: 'assistant', content: 'old answer', reasoning: 'old thoughts' },
            { role: 'user', content: 'second' },
            { role: 'assistant', content: '', reasoning: 'new thoughts', tool_calls: [{ id: 'c1', name: 'get_time', arguments: '{}' }] },
            { role: 'tool', content: '12:00', tool_call_id: 'c1', name: 'get_time' },
          ],
        },
        new AbortController().signal,
      ),
    );
    expect(lastBody().messages).toEqual([
      { role: 'system', content: 'sys' },
      { role: 'user', content: 'first' },
      { role: 'assistant', content: 'old answer' },
      { role: 'user', content: 'second' },
      { role: 'assistant', content: '', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'get_time', arguments: '{}' } }], reasoning_content: 'new thoughts' },
      { role: 'tool', tool_call_id: 'c1', content: '12:00' },
    ]);
  });
});

describe('faults and retries', () => {
  it('401: provider_error naming the profile, without the key, and no retry', async () => {
    fake.script([{ fault: 'status', status: 401, body: { error: { message: `Incorrect API key provided: ${KEY}` } } }]);
    const { error, events } = await failure(createChatModel(fakeProfile(fake.url), KEY, fast).stream(hello, new AbortController().signal));
    expect(error.code).toBe('provider_error');
    expect(error.message).toBe('The provider rejected the API key (401) for profile fake.main');
    expect(error.message).not.toContain(KEY);
    expect(events.filter((e) => e.type === 'retry')).toHaveLength(0);
    expect(fake.requests).toHaveLength(1);
  });

  it('400: provider_error carrying the provider message, key scrubbed, no retry', async () => {
    fake.script([{ fault: 'status', status: 400, body: { error: { message: `Unknown parameter: thinking (key ${KEY})` } } }]);
    const { error } = await failure(createChatModel(fakeProfile(fake.url), KEY, fast).stream(hello, new AbortController().signal));
    expect(error.code).toBe('provider_error');
    expect(error.message).toContain('Unknown parameter: thinking');
    expect(error.message).not.toContain(KEY);
    expect(fake.requests).toHaveLength(1);
  });

  it('429 with retry-after: yields a retry event, waits as asked, then succeeds', async () => {
    fake.script([{ fault: 'status', status: 429, retryAfter: 1 }, { text: 'after the wait' }]);
    const started = Date.now();
    const events = await collect(createChatModel(fakeProfile(fake.url), KEY, { ...fast, baseDelayMs: 1 }).stream(hello, new AbortController().signal));
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(events[0]).toEqual({ type: 'retry', attempt: 1, reason: 'rate limited (429)', cause: 'rate_limited', delayMs: 1000 });
    expect(done(events).content).toBe('after the wait');
  });

  it('honours retry-after-ms', async () => {
    fake.script([{ fault: 'status', status: 429, retryAfterMs: 40 }, { text: 'ok' }]);
    const events = await collect(createChatModel(fakeProfile(fake.url), KEY, { ...fast, baseDelayMs: 5000 }).stream(hello, new AbortController().signal));
    expect(events[0]).toMatchObject({ type: 'retry', delayMs: 40 });
  });

  it('500 twice, then success', async () => {
    fake.script([{ fault: 'status', status: 500 }, { fault: 'status', status: 503 }, { text: 'third time' }]);
    const events = await collect(createChatModel(fakeProfile(fake.url), KEY, fast).stream(hello, new AbortController().signal));
    expect(events.filter((e) => e.type === 'retry').map((e) => (e.type === 'retry' ? [e.attempt, e.reason] : null))).toEqual([
      [1, 'HTTP 500'],
      [2, 'HTTP 503'],
    ]);
    expect(done(events).content).toBe('third time');
    expect(fake.requests).toHaveLength(3);
  });

  it('a stalled stream trips the idle watchdog, is retried, and the partial output is voided', async () => {
    fake.script([{ fault: 'stall', afterChunks: 2 }, { text: 'fresh answer' }]);
    const started = Date.now();
    const events = await collect(createChatModel(fakeProfile(fake.url), KEY, { baseDelayMs: 5, idleTimeoutMs: 300, outbound: null }).stream(hello, new AbortController().signal));
    expect(Date.now() - started).toBeGreaterThanOrEqual(280);
    const retryAt = events.findIndex((e) => e.type === 'retry');
    expect(retryAt).toBeGreaterThan(0);
    expect(events[retryAt]).toMatchObject({ type: 'retry', attempt: 1, reason: 'no data from the provider for 300 ms', cause: 'stalled' });
    expect(events.slice(0, retryAt).some((e) => e.type === 'text')).toBe(true);
    expect(done(events).content).toBe('fresh answer');
  });

  it('a dropped connection mid-stream is retried', async () => {
    fake.script([{ fault: 'drop', afterChunks: 2 }, { text: 'second try' }]);
    const events = await collect(createChatModel(fakeProfile(fake.url), KEY, fast).stream(hello, new AbortController().signal));
    expect(events.filter((e) => e.type === 'retry')).toHaveLength(1);
    expect(done(events).content).toBe('second try');
  });

  it('a stream that ends cleanly but without finish_reason is treated as dropped', async () => {
    fake.script([{ fault: 'truncate', afterChunks: 3 }, { text: 'complete' }]);
    const events = await collect(createChatModel(fakeProfile(fake.url), KEY, fast).stream(hello, new AbortController().signal));
    expect(events.find((e) => e.type === 'retry')).toMatchObject({ reason: 'the stream ended before the response was complete' });
    expect(done(events).content).toBe('complete');
  });

  it('429 until retries run out: rate_limited', async () => {
    fake.script([
      { fault: 'status', status: 429, retryAfter: 0 },
      { fault: 'status', status: 429, retryAfter: 0 },
      { fault: 'status', status: 429, retryAfter: 0 },
    ]);
    const { error, events } = await failure(createChatModel(fakeProfile(fake.url), KEY, { ...fast, maxRetries: 2 }).stream(hello, new AbortController().signal));
    expect(error.code).toBe('rate_limited');
    expect(events.filter((e) => e.type === 'retry')).toHaveLength(2);
    expect(fake.requests).toHaveLength(3);
  });

  it('connection refused: provider_unreachable naming the api_base', async () => {
    const port = await closedPort();
    const base = `http://127.0.0.1:${port}/v1`;
    const { error, events } = await failure(createChatModel(fakeProfile(base), KEY, { ...fast, maxRetries: 1 }).stream(hello, new AbortController().signal));
    expect(error.code).toBe('provider_unreachable');
    expect(error.message).toContain(base);
    expect(error.message).toContain('ECONNREFUSED');
    expect(events.filter((e) => e.type === 'retry')).toHaveLength(1);
  });

  it('abort mid-stream: cancelled promptly, no retry', async () => {
    fake.script([{ text: 'a long answer that keeps coming '.repeat(20), chunkDelayMs: 50, chunkSize: 4 }]);
    const controller = new AbortController();
    const events: ChatStreamEvent[] = [];
    let abortedAt = 0;
    const run = (async () => {
      for await (const e of createChatModel(fakeProfile(fake.url), KEY, fast).stream(hello, controller.signal)) {
        events.push(e);
        if (events.length === 3) {
          abortedAt = Date.now();
          controller.abort();
        }
      }
    })();
    await expect(run).rejects.toMatchObject({ code: 'cancelled' });
    expect(Date.now() - abortedAt).toBeLessThan(500);
    expect(events.some((e) => e.type === 'retry')).toBe(false);
    expect(fake.requests).toHaveLength(1);
  });

  it('abort during a retry wait: cancelled without waiting the delay out', async () => {
    fake.script([{ fault: 'status', status: 429, retryAfter: 30 }]);
    const controller = new AbortController();
    const started = Date.now();
    const run = (async () => {
      for await (const e of createChatModel(fakeProfile(fake.url), KEY, fast).stream(hello, controller.signal)) {
        if (e.type === 'retry') setTimeout(() => controller.abort(), 20);
      }
    })();
    await expect(run).rejects.toMatchObject({ code: 'cancelled' });
    expect(Date.now() - started).toBeLessThan(2000);
  });
});

describe('assertKey', () => {
  it('throws missing_api_key naming the env var, and passes key-less profiles', () => {
    const profile = { ...fakeProfile('http://127.0.0.1:1/v1', { api_key_env: 'DEEPSEEK_API_KEY' }), id: 'deepseek.flash' };
    expect(() => assertKey(profile, undefined)).toThrow('No API key for deepseek.flash: set DEEPSEEK_API_KEY or enter a key in Settings');
    expect(() => assertKey(profile, ' ')).toThrow(FolioError);
    expect(assertKey(profile, 'sk-1')).toBe('sk-1');
    expect(assertKey(fakeProfile('http://127.0.0.1:1/v1', { api_key_env: null }), undefined)).toBe('');
  });
});

function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr !== null ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}
