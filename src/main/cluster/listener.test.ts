import { createServer, connect, type Server, type Socket } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, pgSkipReason } from '../../../testing/postgres/test-database';
import { Listener } from './listener';

const skip = pgSkipReason();
if (skip) console.warn(`skipping the LISTEN connection tests: ${skip}`);

/**
 * A TCP relay to the database whose open connections can be frozen: bytes stop flowing both ways
 * and nothing is closed, as when a NAT forgets a connection or a peer hangs. New connections pass.
 */
async function freezableRelay(target: { host: string; port: number }): Promise<{ port: number; freeze(): void; close(): Promise<void> }> {
  const pairs: [Socket, Socket][] = [];
  const all: [Socket, Socket][] = [];
  const server: Server = createServer((inbound) => {
    const outbound = connect(target.port, target.host);
    inbound.pipe(outbound);
    outbound.pipe(inbound);
    const drop = () => {
      inbound.destroy();
      outbound.destroy();
    };
    inbound.on('error', drop);
    outbound.on('error', drop);
    pairs.push([inbound, outbound]);
    all.push([inbound, outbound]);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    freeze() {
      for (const [inbound, outbound] of pairs.splice(0)) {
        inbound.unpipe(outbound);
        outbound.unpipe(inbound);
        inbound.pause();
        outbound.pause();
      }
    },
    async close() {
      for (const [inbound, outbound] of all) {
        inbound.destroy();
        outbound.destroy();
      }
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function until(check: () => boolean, what: string, ms = 8_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe.skipIf(skip !== null)('the LISTEN connection', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let pool: pg.Pool;
  beforeAll(async () => {
    db = await createTestDatabase();
    pool = new pg.Pool({ connectionString: db.url, max: 2 });
  });
  afterAll(async () => {
    await pool?.end();
    await db?.drop();
  });

  it('replaces a connection that went silent (no error, no end), so notifications flow again', async () => {
    const url = new URL(db.url);
    const relay = await freezableRelay({ host: url.hostname, port: Number(url.port) });
    const relayed = new URL(db.url);
    relayed.port = String(relay.port);
    const errors: Error[] = [];
    const listener = new Listener({ connectionString: relayed.href, retryMs: 20, pingMs: 100, pingTimeoutMs: 300, onError: (err) => errors.push(err) });
    const payloads: string[] = [];
    let reconnects = 0;
    await listener.on('folio_listener_test', (payload) => payloads.push(payload));
    listener.onReconnect(() => (reconnects += 1));
    try {
      await listener.start();
      await pool.query(`SELECT pg_notify('folio_listener_test', 'before')`);
      await until(() => payloads.includes('before'), 'the first notification');

      relay.freeze();
      // Subscribers re-read the tables on reconnect; without it they would wait forever.
      await until(() => reconnects > 0, 'a reconnect after the connection went silent');
      await pool.query(`SELECT pg_notify('folio_listener_test', 'after')`);
      await until(() => payloads.includes('after'), 'a notification on the new connection');
      expect(errors.some((e) => /ping/.test(e.message))).toBe(true);
    } finally {
      await listener.close();
      await relay.close();
    }
  });

  it('closes even when the connection went silent (a drain must not hang on it)', async () => {
    const url = new URL(db.url);
    const relay = await freezableRelay({ host: url.hostname, port: Number(url.port) });
    const relayed = new URL(db.url);
    relayed.port = String(relay.port);
    // No pings in this test: the connection is still the frozen one when close is called.
    const listener = new Listener({ connectionString: relayed.href, pingMs: 3_600_000, pingTimeoutMs: 200 });
    try {
      await listener.start();
      relay.freeze();
      let closed = false;
      void listener.close().then(() => (closed = true));
      await until(() => closed, 'close on a silent connection', 5_000);
    } finally {
      await relay.close();
    }
  });
});
