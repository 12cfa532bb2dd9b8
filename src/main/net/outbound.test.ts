import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import OpenAI from 'openai';
import { startFakeOpenAI } from '../../../testing/fake-openai/server';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FolioError } from '../../shared/errors';
import { outboundFetch, restrictOutbound } from './outbound';

let server: Server;
let base: string;
const seen: string[] = [];
let connections = 0;
let releaseHeld = (): void => undefined;

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push(req.url ?? '');
    if (req.url === '/to-metadata') {
      res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
    } else if (req.url === '/to-self') {
      res.writeHead(301, { location: '/ok' }).end();
    } else if (req.url === '/echo') {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const echoed = { method: req.method, host: req.headers.host, type: req.headers['content-type'], auth: req.headers.authorization, body: Buffer.concat(chunks).toString() };
        res.writeHead(201, 'Made', { 'content-type': 'application/json', 'x-multi': ['a', 'b'] }).end(JSON.stringify(echoed));
      });
    } else if (req.url === '/gzip') {
      res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' }).end(gzipSync('unzipped'));
    } else if (req.url === '/held') {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: one\n\n');
      releaseHeld = () => res.end('data: two\n\n');
    } else if (req.url === '/stream') {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: one\n\n');
      setTimeout(() => res.end('data: two\n\n'), 20);
    } else {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('reached');
    }
  });
  server.on('connection', () => (connections += 1));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
afterEach(() => {
  restrictOutbound(null);
  seen.length = 0;
});

async function refusal(promise: Promise<unknown>): Promise<FolioError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(FolioError);
  return err as FolioError;
}

describe('requests to addresses a person typed', () => {
  it('go anywhere on a desktop', async () => {
    expect(await (await outboundFetch('model', null)(`${base}/ok`)).text()).toBe('reached');
  });

  it('in the team service, reach neither this machine nor private networks, and say why', async () => {
    restrictOutbound({ allow: [], lookup: () => Promise.resolve(['10.1.2.3']) });
    const loopback = await refusal(outboundFetch('model', null)(`${base}/ok`));
    expect(loopback.code).toBe('forbidden');
    expect(loopback.message).toMatch(/does not connect to 127\.0\.0\.1: a loopback address .*--allow-network/u);
    const named = await refusal(outboundFetch('model', null)('http://models.internal.example/v1/models'));
    expect(named.message).toMatch(/models\.internal\.example \(10\.1\.2\.3\): a private network address/u);
    const metadata = await refusal(outboundFetch('model', null)('http://[::ffff:169.254.169.254]/latest'));
    expect(metadata.message).toMatch(/cloud metadata|link-local/u);
    expect(seen).toEqual([]);
  });

  it('reach what the operator allowed, by address, range or host name', async () => {
    for (const allow of [['127.0.0.1'], ['127.0.0.0/8'], ['localhost']]) {
      restrictOutbound({ allow, lookup: () => Promise.resolve(['127.0.0.1']) });
      const url = allow[0] === 'localhost' ? base.replace('127.0.0.1', 'localhost') : base;
      expect(await (await outboundFetch('model', null)(`${url}/ok`)).text()).toBe('reached');
    }
    expect(seen).toEqual(['/ok', '/ok', '/ok']);
  });

  it('connect to the address the check vetted, not to what DNS answers later (rebinding)', async () => {
    // The system resolver has never heard of this name: only the checked answer can reach the server.
    const lookups: string[] = [];
    restrictOutbound({ allow: ['127.0.0.1'], lookup: (host) => (lookups.push(host), Promise.resolve(['127.0.0.1'])) });
    const port = (server.address() as AddressInfo).port;
    const res = await outboundFetch('model', null)(`http://rebinding.invalid:${port}/echo`, {
      method: 'POST',
      headers: { authorization: 'Bearer k', 'content-type': 'application/json' },
      body: JSON.stringify({ q: 1 }),
    });
    expect(res.status).toBe(201);
    expect(res.statusText).toBe('Made');
    expect(res.url).toBe(`http://rebinding.invalid:${port}/echo`);
    expect(res.headers.get('x-multi')).toBe('a, b');
    expect(await res.json()).toEqual({ method: 'POST', host: `rebinding.invalid:${port}`, type: 'application/json', auth: 'Bearer k', body: '{"q":1}' });
    expect(lookups).toEqual(['rebinding.invalid']);
  });

  it('keep a pinned connection alive for the next request to the same host and address, and only for that', async () => {
    restrictOutbound({ allow: ['127.0.0.1'], lookup: () => Promise.resolve(['127.0.0.1']) });
    const port = (server.address() as AddressInfo).port;
    const before = connections;
    for (let i = 0; i < 3; i += 1) expect(await (await outboundFetch('model', null)(`http://kept.invalid:${port}/ok`)).text()).toBe('reached');
    expect(connections - before).toBe(1);
    expect(await (await outboundFetch('model', null)(`http://other.invalid:${port}/ok`)).text()).toBe('reached');
    expect(connections - before).toBe(2);
  });

  it('finish a streamed answer whose kept connection pool is let go meanwhile (more hosts than pools kept)', async () => {
    restrictOutbound({ allow: ['127.0.0.1'], lookup: () => Promise.resolve(['127.0.0.1']) });
    const port = (server.address() as AddressInfo).port;
    const reader = (await outboundFetch('model', null)(`http://held.invalid:${port}/held`)).body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = (await reader.read()).value ?? '';
    // Each new host gets a pool of its own; past the pools kept, the held answer's pool is the oldest.
    for (let i = 0; i < 40; i += 1) expect(await (await outboundFetch('model', null)(`http://host${i}.invalid:${port}/ok`)).text()).toBe('reached');
    releaseHeld();
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) text += chunk.value;
    expect(text).toBe('data: one\n\ndata: two\n\n');
  });

  it('answer through the pinned connection as fetch would: bodies of any kind sent, decoded and streamed', async () => {
    restrictOutbound({ allow: ['127.0.0.1'], lookup: () => Promise.resolve(['127.0.0.1']) });
    const named = base.replace('127.0.0.1', 'pinned.invalid');
    const form = new FormData();
    form.append('field', 'value');
    const echoed = (await (await outboundFetch('model', null)(`${named}/echo`, { method: 'POST', body: form })).json()) as { type: string; body: string };
    expect(echoed.type).toMatch(/^multipart\/form-data; boundary=/u);
    expect(echoed.body).toContain('value');
    const streamedBody = new Blob(['streamed']).stream();
    expect(((await (await outboundFetch('model', null)(`${named}/echo`, { method: 'PUT', body: streamedBody })).json()) as { body: string }).body).toBe('streamed');
    const gzip = await outboundFetch('model', null)(`${named}/gzip`);
    expect(gzip.headers.get('content-encoding')).toBeNull();
    expect(await gzip.text()).toBe('unzipped');
    const reader = (await outboundFetch('model', null)(`${named}/stream`)).body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) text += chunk.value;
    expect(text).toBe('data: one\n\ndata: two\n\n');
    const aborted = new AbortController();
    aborted.abort();
    await expect(outboundFetch('model', null)(`${named}/ok`, { signal: aborted.signal })).rejects.toMatchObject({ name: 'AbortError' });
  });

  it("carry a provider SDK's streamed chat completion through the pinned connection", async () => {
    const fake = await startFakeOpenAI();
    try {
      restrictOutbound({ allow: ['127.0.0.1'], lookup: () => Promise.resolve(['127.0.0.1']) });
      fake.script([{ text: 'Hello through a pinned socket.', usage: { prompt: 3, completion: 6 } }]);
      const client = new OpenAI({ baseURL: fake.url.replace('127.0.0.1', 'provider.invalid'), apiKey: 'sk-test', maxRetries: 0, fetch: outboundFetch('model', null) });
      const stream = await client.chat.completions.create({ model: 'fake-model', messages: [{ role: 'user', content: 'Hi' }], stream: true });
      let text = '';
      for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
      expect(text).toBe('Hello through a pinned socket.');
      expect(fake.requests.map((r) => [r.method, r.path, r.hasAuth])).toEqual([['POST', '/v1/chat/completions', true]]);
    } finally {
      await fake.close();
    }
  });

  it('check every redirect before following it', async () => {
    restrictOutbound({ allow: ['127.0.0.1'] });
    expect(await (await outboundFetch('model', null)(`${base}/to-self`)).text()).toBe('reached');
    const hop = await refusal(outboundFetch('model', null)(`${base}/to-metadata`));
    expect(hop.message).toMatch(/169\.254\.169\.254: a cloud metadata endpoint/u);
    expect(seen).toEqual(['/to-self', '/ok', '/to-metadata']);
    // A caller that handles redirects itself gets the 3xx, unfollowed.
    const manual = await outboundFetch('model', null)(`${base}/to-metadata`, { redirect: 'manual' });
    expect(manual.status).toBe(302);
  });
});
