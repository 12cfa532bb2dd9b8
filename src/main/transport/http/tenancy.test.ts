// The HTTP server in service mode: platform key + user JWT, one core per tenant, request ids,
// per-tenant rate limits, JSON request logs, /healthz, /readyz and the graceful drain.
import { request } from 'node:http';
import { SignJWT } from 'jose';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Task } from '../../../shared/contract/entities';
import { createAuthenticator } from '../../tenancy/auth';
import { createRateLimiter } from '../../tenancy/rate-limit';
import { createJsonLogger } from '../../tenancy/request-log';
import { MODEL_KEY_HEADER, checkModelKeyHeader, modelKeyHeaderValues } from '../../tenancy/byo-keys';
import { MCP_REDACTED } from '../../../shared/contract/mcp';
import { createMemoryTenantRegistry } from '../../tenancy/tenant-registry';
import { type FakeCore, createFakeCore } from '../fake-core.test-support';
import { type RawResponse, errorOf } from './http-test-kit.test-support';
import { type RunningHttpServer, type StartHttpServerOptions, startHttpServer } from './index';

const PLATFORM_KEY = 'platform-key-0123456789abcdef-0123456789';
const SECRET = new TextEncoder().encode('jwt-secret-0123456789abcdef-0123456789');
const PUBLIC_HOST = 'folio.example.com';

function userToken(tenant: string, user: string): Promise<string> {
  return new SignJWT({ tenant_id: tenant }).setProtectedHeader({ alg: 'HS256' }).setSubject(user).setExpirationTime('5m').sign(SECRET);
}

interface Harness {
  srv: RunningHttpServer;
  cores: Map<string, FakeCore>;
  lines: string[];
  registry: ReturnType<typeof createMemoryTenantRegistry>;
  setReady(value: boolean): void;
  as(tenant: string, user: string, path: string, init?: RequestInit & { json?: unknown }): Promise<Response>;
  raw(path: string, headers?: Record<string, string>): Promise<RawResponse>;
}

async function startHarness(overrides: Partial<StartHttpServerOptions> & { perMinute?: number } = {}): Promise<Harness> {
  const cores = new Map<string, FakeCore>();
  const lines: string[] = [];
  const registry = createMemoryTenantRegistry();
  let ready = true;
  const { perMinute, ...rest } = overrides;
  const srv = await startHttpServer(
    (scope) => {
      let core = cores.get(scope.tenant_id);
      if (!core) cores.set(scope.tenant_id, (core = createFakeCore()));
      return core;
    },
    {
      tenancy: {
        authenticator: createAuthenticator({ platformKey: PLATFORM_KEY, jwt: { kind: 'secret', secret: SECRET } }),
        registry,
        rateLimiter: createRateLimiter({ defaultPerMinute: perMinute ?? 1000 }),
        publicHosts: [PUBLIC_HOST],
      },
      logger: createJsonLogger((line) => lines.push(line)),
      ready: () => Promise.resolve(ready),
      onInternalError: (_where, error) => {
        throw error;
      },
      ...rest,
    },
  );
  return {
    srv,
    cores,
    lines,
    registry,
    setReady: (value) => {
      ready = value;
    },
    async as(tenant, user, path, init = {}) {
      const { json, ...restInit } = init;
      const headers = new Headers(restInit.headers);
      headers.set('authorization', `Bearer ${PLATFORM_KEY}`);
      headers.set('x-folio-user', await userToken(tenant, user));
      if (json !== undefined) headers.set('content-type', 'application/json');
      return fetch(`${srv.url}${path}`, { ...restInit, headers, body: json !== undefined ? JSON.stringify(json) : restInit.body });
    },
    raw(path, headers = {}) {
      return new Promise((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port: srv.port, path, headers }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
          res.on('error', reject);
        });
        req.on('error', reject);
        req.end();
      });
    },
  };
}

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
});
afterEach(async () => {
  await h.srv.close();
});

const logged = () => h.lines.map((line) => JSON.parse(line) as Record<string, unknown>);
/** The log line is written when the response closes, just after the client has it. */
async function logFor(requestId: string): Promise<Record<string, unknown>> {
  for (let i = 0; i < 100; i++) {
    const found = logged().find((l) => l.request_id === requestId);
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error(`no log line for ${requestId}`);
}

describe('who is asking', () => {
  it('serves each tenant from its own core and records tenants and users on first sight', async () => {
    const created = await h.as('acme', 'alice', '/v1/tasks', { method: 'POST', json: { mode: 'general' } });
    expect(created.status).toBe(201);
    const task = (await created.json()) as Task;
    expect(((await (await h.as('acme', 'bob', '/v1/tasks')).json()) as { tasks: Task[] }).tasks).toHaveLength(1);
    expect(((await (await h.as('globex', 'carol', '/v1/tasks')).json()) as { tasks: Task[] }).tasks).toHaveLength(0);
    const foreign = await h.as('globex', 'carol', `/v1/tasks/${task.id}`);
    expect(foreign.status).toBe(404);
    expect(h.registry.seen()).toEqual([
      { tenant_id: 'acme', user_id: 'alice' },
      { tenant_id: 'acme', user_id: 'bob' },
      { tenant_id: 'globex', user_id: 'carol' },
    ]);
  });

  it('refuses requests without the platform key or the user token, before routing', async () => {
    const noUser = await fetch(`${h.srv.url}/v1/tasks`, { headers: { authorization: `Bearer ${PLATFORM_KEY}` } });
    expect(noUser.status).toBe(401);
    expect((await errorOf(noUser)).message).toContain('X-Folio-User');
    const wrongKey = await fetch(`${h.srv.url}/v1/no-such-route`, { headers: { authorization: 'Bearer single-user-token-0123456789', 'x-folio-user': await userToken('acme', 'a') } });
    expect(wrongKey.status).toBe(401);
    expect((await errorOf(wrongKey)).message).toBe('Authorization: wrong platform key');
    expect(h.cores.size).toBe(0);
  });

  it('accepts the configured public host name and loopback, and refuses others', async () => {
    const headers = { authorization: `Bearer ${PLATFORM_KEY}`, 'x-folio-user': await userToken('acme', 'alice') };
    expect((await h.raw('/v1/tasks', { ...headers, host: PUBLIC_HOST })).status).toBe(200);
    expect((await h.raw('/v1/tasks', { ...headers, host: `FOLIO.example.com` })).status).toBe(200);
    expect((await h.raw('/v1/tasks', { ...headers, host: `127.0.0.1:${h.srv.port}` })).status).toBe(200);
    for (const host of ['evil.example', `${PUBLIC_HOST}.evil.example`, `${PUBLIC_HOST}:1234`]) {
      expect((await h.raw('/v1/tasks', { ...headers, host })).status, host).toBe(403);
    }
  });
});

describe('request ids', () => {
  it('echoes a given id and generates one otherwise, on successes and errors alike', async () => {
    const given = await h.as('acme', 'alice', '/v1/tasks', { headers: { 'x-request-id': 'req-abc.123' } });
    expect(given.headers.get('x-request-id')).toBe('req-abc.123');
    const unauthorized = await fetch(`${h.srv.url}/v1/tasks`, { headers: { 'x-request-id': 'req-401' } });
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers.get('x-request-id')).toBe('req-401');
    const notFound = await h.as('acme', 'alice', '/v1/nothing-here', { headers: { 'x-request-id': 'req-404' } });
    expect(notFound.status).toBe(404);
    expect(notFound.headers.get('x-request-id')).toBe('req-404');
    const generated = await h.as('acme', 'alice', '/v1/tasks', { headers: { 'x-request-id': 'bad id with spaces' } });
    expect(generated.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect((await h.raw('/healthz')).headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('echoes it on an SSE stream, and the drain ends the stream', async () => {
    const task = (await (await h.as('acme', 'alice', '/v1/tasks', { method: 'POST', json: { mode: 'general' } })).json()) as Task;
    const { run_id: runId } = (await (await h.as('acme', 'alice', `/v1/tasks/${task.id}/messages`, { method: 'POST', json: { content: 'go' } })).json()) as { run_id: string };
    const stream = await h.as('acme', 'alice', `/v1/tasks/${task.id}/runs/${runId}/events`, { headers: { 'x-request-id': 'req-sse' } });
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toContain('text/event-stream');
    expect(stream.headers.get('x-request-id')).toBe('req-sse');
    // A stream does not hold the drain up: it ends, and the client resumes on another worker.
    await h.srv.drain({ graceMs: 5000 });
    expect(await stream.text()).toContain('event: run_started');
    expect(await logFor('req-sse')).toMatchObject({ route: '/v1/tasks/:task_id/runs/:run_id/events', tenant: 'acme', run_id: runId, status: 200 });
  });
});

describe('per-tenant rate limit', () => {
  it('answers 429 with Retry-After once a tenant is over its figure, and leaves other tenants alone', async () => {
    await h.srv.close();
    h = await startHarness({ perMinute: 2 });
    expect((await h.as('acme', 'alice', '/v1/tasks')).status).toBe(200);
    expect((await h.as('acme', 'bob', '/v1/tasks')).status).toBe(200);
    const limited = await h.as('acme', 'alice', '/v1/tasks');
    expect(limited.status).toBe(429);
    expect((await errorOf(limited)).code).toBe('rate_limited');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(limited.headers.get('x-request-id')).not.toBeNull();
    expect((await h.as('globex', 'carol', '/v1/tasks')).status).toBe(200);
  });
});

describe('health and graceful shutdown', () => {
  it('answers /healthz and /readyz without credentials and whatever the Host', async () => {
    expect(await h.raw('/healthz', { host: '10.0.0.7:4319' })).toMatchObject({ status: 200 });
    expect(JSON.parse((await h.raw('/readyz', { host: '10.0.0.7:4319' })).body)).toEqual({ status: 'ready' });
    h.setReady(false);
    const notReady = await h.raw('/readyz');
    expect(notReady.status).toBe(503);
    expect((JSON.parse(notReady.body) as { error: { code: string } }).error.code).toBe('unavailable');
    expect((await h.raw('/healthz')).status).toBe(200);
  });

  it('on drain: readyz turns 503, in-flight requests finish, new ones are refused, then onDrain runs', async () => {
    const task = (await (await h.as('acme', 'alice', '/v1/tasks', { method: 'POST', json: { mode: 'general' } })).json()) as Task;
    const core = h.cores.get('acme')!;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const listTasks = core.handlers.listTasks.bind(core.handlers);
    let entered = false;
    core.handlers.listTasks = async (input) => {
      entered = true;
      await gate;
      return listTasks(input);
    };
    const slow = h.as('acme', 'alice', '/v1/tasks');
    while (!entered) await new Promise((resolve) => setTimeout(resolve, 5));
    const order: string[] = [];
    const drained = h.srv.drain({ graceMs: 10_000, onDrain: () => (order.push('onDrain'), Promise.resolve()) }).then(() => order.push('drained'));
    expect((await h.raw('/readyz')).status).toBe(503);
    const refused = await h.as('acme', 'alice', '/v1/tasks');
    expect(refused.status).toBe(503);
    expect((await errorOf(refused)).code).toBe('unavailable');
    expect(order).toEqual([]);
    release();
    const answer = await slow;
    expect(answer.status).toBe(200);
    expect(((await answer.json()) as { tasks: Task[] }).tasks.map((t) => t.id)).toEqual([task.id]);
    await drained;
    expect(order).toEqual(['onDrain', 'drained']);
  });

  it('a stream still subscribing when the drain begins ends at once, and does not hold the drain for its grace', async () => {
    const task = (await (await h.as('acme', 'alice', '/v1/tasks', { method: 'POST', json: { mode: 'general' } })).json()) as Task;
    const { run_id: runId } = (await (await h.as('acme', 'alice', `/v1/tasks/${task.id}/messages`, { method: 'POST', json: { content: 'go' } })).json()) as { run_id: string };
    const core = h.cores.get('acme')!;
    const subscribe = core.events.subscribe.bind(core.events);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let entered = false;
    // The cluster's hub looks the run up in the database before it answers.
    core.events.subscribe = async (...args: Parameters<typeof subscribe>) => {
      entered = true;
      await gate;
      return subscribe(...args);
    };
    const stream = h.as('acme', 'alice', `/v1/tasks/${task.id}/runs/${runId}/events`).then((res) => res.text());
    while (!entered) await new Promise((resolve) => setTimeout(resolve, 5));
    const drained = h.srv.drain({ graceMs: 120_000 }).then(() => 'drained');
    await new Promise((resolve) => setTimeout(resolve, 20));
    release();
    const outcome = await Promise.race([drained, new Promise((resolve) => setTimeout(() => resolve('still waiting'), 10_000))]);
    expect(outcome).toBe('drained');
    expect(await stream).toContain('event: run_started');
  });

  it('closes connections whose requests outlive the grace', async () => {
    await h.as('acme', 'alice', '/v1/tasks');
    const core = h.cores.get('acme')!;
    core.handlers.listTasks = () => new Promise(() => undefined);
    const hung = h.as('acme', 'alice', '/v1/tasks').then(
      () => 'answered',
      () => 'closed',
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    await h.srv.drain({ graceMs: 50 });
    expect(await hung).toBe('closed');
  });
});

describe('request logs', () => {
  it('write one JSON line per request with id, route, tenant and user, and never a credential', async () => {
    const token = await userToken('acme', 'alice');
    const res = await fetch(`${h.srv.url}/v1/tasks?token=${PLATFORM_KEY}&jwt=${token}`, {
      headers: { authorization: `Bearer ${PLATFORM_KEY}`, 'x-folio-user': token, 'x-request-id': 'req-log' },
    });
    expect(res.status).toBe(400);
    await fetch(`${h.srv.url}/v1/tasks`, { headers: { authorization: `Bearer ${PLATFORM_KEY}x`, 'x-folio-user': token, 'x-request-id': 'req-log-401' } });
    await h.as('acme', 'alice', '/v1/tasks', { headers: { 'x-request-id': 'req-log-ok' } });
    expect(await logFor('req-log')).toMatchObject({ level: 'warn', method: 'GET', route: '/v1/tasks', status: 400, tenant: 'acme', user: 'alice', error: 'invalid_input' });
    expect(await logFor('req-log-401')).toMatchObject({ status: 401, error: 'unauthorized' });
    expect(await logFor('req-log-ok')).toMatchObject({ level: 'info', status: 200, tenant: 'acme' });
    const all = h.lines.join('\n');
    expect(all).not.toContain(PLATFORM_KEY);
    expect(all).not.toContain(token);
    expect(all).not.toContain(token.split('.')[1]);
    expect(all).not.toContain('?');
  });
});

describe('request logs and the tenant\'s secrets', () => {
  it('scrub a stored and a brought key from a logged path, request id and the internal error a request causes', async () => {
    const stored = 'sk-stored-5f1c0e7a9b2d4c68';
    const brought = 'sk-brought-8d3a6b1e0f7c2947';
    const internal = createJsonLogger((line) => h.lines.push(line));
    await h.srv.close();
    h = await startHarness({
      tenancy: {
        authenticator: createAuthenticator({ platformKey: PLATFORM_KEY, jwt: { kind: 'secret', secret: SECRET } }),
        registry: createMemoryTenantRegistry(),
        publicHosts: [],
        checkHeaders: checkModelKeyHeader,
        logSecrets: (headers, scope) => [...modelKeyHeaderValues(headers[MODEL_KEY_HEADER]), ...(scope?.tenant_id === 'acme' ? [stored] : [])],
      },
      // As the team service logs an internal error.
      onInternalError: (where, error) => internal.error({ msg: `http ${where} failed`, error: error instanceof Error ? `${error.name}: ${error.message}\n${error.stack ?? ''}` : String(error) }),
    });
    const core = createFakeCore();
    core.sabotage.getTask = () => {
      throw new Error(`provider refused ${brought} and ${stored}`);
    };
    h.cores.set('acme', core);
    const byo = { [MODEL_KEY_HEADER]: `ACME_KEY=${brought}` };
    expect((await h.as('acme', 'alice', `/v1/${stored}/${Buffer.from(brought).toString('base64url')}`, { headers: { ...byo, 'x-request-id': brought } })).status).toBe(404);
    expect((await h.as('acme', 'alice', `/v1/tasks/${stored}`, { headers: { ...byo, 'x-request-id': 'req-secret-500' } })).status).toBe(500);
    // A malformed header is refused, and its key is still scrubbed.
    expect((await h.as('acme', 'alice', `/v1/tasks/${brought}`, { headers: { [MODEL_KEY_HEADER]: brought, 'x-request-id': 'req-secret-400' } })).status).toBe(400);
    expect(await logFor('req-secret-500')).toMatchObject({ status: 500, task_id: MCP_REDACTED });
    // Logged like any other request: its route and its tenant.
    expect(await logFor('req-secret-400')).toMatchObject({ status: 400, error: 'invalid_input', route: '/v1/tasks/:task_id', tenant: 'acme', user: 'alice' });
    expect(logged().find((l) => l.status === 404)).toMatchObject({ request_id: MCP_REDACTED, route: `/v1/${MCP_REDACTED}/${MCP_REDACTED}` });
    const all = h.lines.join('\n');
    expect(all).toContain('provider refused');
    for (const key of [stored, brought]) expect(all).not.toContain(key.slice(3));
    // Another tenant's requests are not scrubbed of acme's keys (nor slowed by them).
    await h.as('globex', 'gus', '/v1/tasks', { headers: { 'x-request-id': 'req-globex' } });
    expect(await logFor('req-globex')).toMatchObject({ request_id: 'req-globex' });
  });
});

describe('single-user mode beside it', () => {
  it('takes either a token or tenancy, never both or neither', async () => {
    const tenancy = {
      authenticator: createAuthenticator({ platformKey: PLATFORM_KEY, jwt: { kind: 'secret' as const, secret: SECRET } }),
      registry: createMemoryTenantRegistry(),
      publicHosts: [],
    };
    await expect(startHttpServer(createFakeCore(), { token: 'single-user-token-0123456789', tenancy })).rejects.toThrow('not both');
    await expect(startHttpServer(createFakeCore(), {})).rejects.toThrow('either a token');
  });

  it('keeps its bearer token, and gains /healthz and request ids', async () => {
    const token = 'single-user-token-0123456789';
    const single = await startHttpServer(createFakeCore(), { token });
    try {
      const health = await fetch(`${single.url}/healthz`);
      expect(health.status).toBe(200);
      expect(health.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
      expect((await fetch(`${single.url}/v1/tasks`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
      const denied = await fetch(`${single.url}/v1/tasks`, { headers: { authorization: `Bearer ${PLATFORM_KEY}`, 'x-folio-user': await userToken('acme', 'a'), 'x-request-id': 'r-1' } });
      expect(denied.status).toBe(401);
      expect(denied.headers.get('x-request-id')).toBe('r-1');
    } finally {
      await single.close();
    }
  });
});
