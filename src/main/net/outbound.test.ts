import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FolioError } from '../../shared/errors';
import { outboundFetch, restrictOutbound } from './outbound';

let server: Server;
let base: string;
const seen: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push(req.url ?? '');
    if (req.url === '/to-metadata') {
      res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
    } else if (req.url === '/to-self') {
      res.writeHead(301, { location: '/ok' }).end();
    } else {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('reached');
    }
  });
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
    expect(outboundFetch()).toBe(fetch);
    expect(await (await outboundFetch()(`${base}/ok`)).text()).toBe('reached');
  });

  it('in the team service, reach neither this machine nor private networks, and say why', async () => {
    restrictOutbound({ allow: [], lookup: () => Promise.resolve(['10.1.2.3']) });
    const loopback = await refusal(outboundFetch()(`${base}/ok`));
    expect(loopback.code).toBe('forbidden');
    expect(loopback.message).toMatch(/does not connect to 127\.0\.0\.1: a loopback address .*--allow-network/u);
    const named = await refusal(outboundFetch()('http://models.internal.example/v1/models'));
    expect(named.message).toMatch(/models\.internal\.example \(10\.1\.2\.3\): a private network address/u);
    const metadata = await refusal(outboundFetch()('http://[::ffff:169.254.169.254]/latest'));
    expect(metadata.message).toMatch(/cloud metadata|link-local/u);
    expect(seen).toEqual([]);
  });

  it('reach what the operator allowed, by address, range or host name', async () => {
    for (const allow of [['127.0.0.1'], ['127.0.0.0/8'], ['localhost']]) {
      restrictOutbound({ allow, lookup: () => Promise.resolve(['127.0.0.1']) });
      const url = allow[0] === 'localhost' ? base.replace('127.0.0.1', 'localhost') : base;
      expect(await (await outboundFetch()(`${url}/ok`)).text()).toBe('reached');
    }
    expect(seen).toEqual(['/ok', '/ok', '/ok']);
  });

  it('check every redirect before following it', async () => {
    restrictOutbound({ allow: ['127.0.0.1'] });
    expect(await (await outboundFetch()(`${base}/to-self`)).text()).toBe('reached');
    const hop = await refusal(outboundFetch()(`${base}/to-metadata`));
    expect(hop.message).toMatch(/169\.254\.169\.254: a cloud metadata endpoint/u);
    expect(seen).toEqual(['/to-self', '/ok', '/to-metadata']);
    // A caller that handles redirects itself gets the 3xx, unfollowed.
    const manual = await outboundFetch()(`${base}/to-metadata`, { redirect: 'manual' });
    expect(manual.status).toBe(302);
  });
});
