// The model list of an OpenAI-compatible server, read from the project's fake server and from small
// servers that fail in each way a person meets while typing a base URL.
import { createServer, type RequestListener } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI } from '../../../testing/fake-openai/server';
import { ANSWER_DEADLINE_MS } from './answer-deadline';
import { listProviderModels } from './provider-models';

let fake: FakeOpenAI;
beforeAll(async () => {
  fake = await startFakeOpenAI();
});
afterAll(async () => {
  await fake.close();
});

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function serve(handler: RequestListener): Promise<string> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}/v1`;
}

describe('listProviderModels', () => {
  it("lists the fake server's models and sends the key as a bearer token", async () => {
    expect(await listProviderModels(fake.url, { outbound: null, apiKey: ' sk-lan-4321 ' })).toEqual([{ id: 'fake-model', context_length: null }]);
    expect(fake.requests.at(-1)).toMatchObject({ method: 'GET', path: '/v1/models', hasAuth: true, authLast4: '4321' });
  });

  it('reads context windows where the server gives them, and drops duplicate ids', async () => {
    const base = await serve((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(
        JSON.stringify({ data: [{ id: 'a', context_length: 200000 }, { id: 'b', max_model_len: 8192 }, { id: 'a' }, { id: 'c', context_length: 'big' }] }),
      );
    });
    expect(await listProviderModels(base, { outbound: null })).toEqual([
      { id: 'a', context_length: 200000 },
      { id: 'b', context_length: 8192 },
      { id: 'c', context_length: null },
    ]);
  });

  it('an address where nothing listens is unreachable', async () => {
    const base = await serve(() => undefined);
    await closers.pop()?.();
    await expect(listProviderModels(base, { outbound: null })).rejects.toMatchObject({ name: 'ProviderUnreachableError', code: 'provider_unreachable', message: expect.stringContaining('ECONNREFUSED') as unknown });
  });

  it('401 says the key was rejected, or that one is needed, and never echoes the key', async () => {
    const base = await serve((_req, res) => res.writeHead(401).end('{"error":{"message":"bad key sk-secret-999"}}'));
    const withKey = listProviderModels(base, { outbound: null, apiKey: 'sk-secret-999' });
    await expect(withKey).rejects.toMatchObject({ name: 'ProviderKeyRejectedError', code: 'provider_error', message: expect.stringContaining('rejected the key (401)') as unknown });
    await expect(withKey).rejects.not.toThrow(/sk-secret/);
    await expect(listProviderModels(base, { outbound: null })).rejects.toThrow(/needs an API key \(401\)/);
  });

  it('a web page or a JSON that is not a model list is not OpenAI-compatible, with a hint about /v1', async () => {
    const html = await serve((_req, res) => res.writeHead(200, { 'Content-Type': 'text/html' }).end('<html>router login</html>'));
    await expect(listProviderModels(html, { outbound: null })).rejects.toMatchObject({ name: 'NotOpenAiCompatibleError', message: expect.stringContaining('/v1') as unknown });
    const other = await serve((_req, res) => res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"models":["x"]}'));
    await expect(listProviderModels(other, { outbound: null })).rejects.toMatchObject({ name: 'NotOpenAiCompatibleError' });
    const missing = await serve((_req, res) => res.writeHead(404).end('not found'));
    await expect(listProviderModels(missing, { outbound: null })).rejects.toThrow(/answered 404.*ends in \/v1/);
  });

  it('a key the provider refuses (403) is answered at once, with one request and no retry', async () => {
    fake.reset();
    fake.scriptModelList([{ fault: 'status', status: 403 }]);
    await expect(listProviderModels(fake.url, { outbound: null, apiKey: 'sk-wrong-1234' })).rejects.toMatchObject({ name: 'ProviderKeyRejectedError', message: expect.stringContaining('rejected the key (403)') as unknown });
    expect(fake.requests.filter((r) => r.path === '/v1/models')).toHaveLength(1);
  });

  it('a provider that never answers is given up on at the answer deadline, typed as a timeout', async () => {
    fake.reset();
    fake.scriptModelList([{ fault: 'stall' }]);
    await expect(listProviderModels(fake.url, { outbound: null, apiKey: 'k', timeoutMs: 100 })).rejects.toMatchObject({ name: 'ProviderTimeoutError', code: 'provider_unreachable' });
    expect(fake.requests.filter((r) => r.path === '/v1/models')).toHaveLength(1);
  });

  it('by default waits no longer than the key test does (4 s), so the setup answers within 5 s', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      let calls = 0;
      // A provider that never answers: the request ends only when its signal aborts.
      const hang: typeof fetch = (_input, init) => {
        calls += 1;
        return new Promise((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))));
      };
      const outcome = listProviderModels('http://203.0.113.9/v1', { outbound: null, fetch: hang }).then(
        () => 'listed',
        (err: unknown) => (err instanceof Error ? err.name : 'thrown'),
      );
      await vi.advanceTimersByTimeAsync(ANSWER_DEADLINE_MS - 1);
      expect(await Promise.race([outcome, Promise.resolve('waiting')])).toBe('waiting');
      await vi.advanceTimersByTimeAsync(1);
      expect(await Promise.race([outcome, Promise.resolve('waiting')])).toBe('ProviderTimeoutError');
      expect(ANSWER_DEADLINE_MS).toBeLessThan(5000);
      expect(calls).toBe(1);
    } finally {
      vi.useRealTimers();
    }
  });
});
