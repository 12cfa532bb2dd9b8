// Audit events: every request that leaves the service is one append-only row naming the tenant,
// user and task that caused it, the kind, the host and the bytes each way; the platform pages
// through them with GET /v1/audit (platform key + a token with the admin claim), nobody else can.
import { createServer, type Server } from 'node:http';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Run, Task } from '../../shared/contract/entities';
import { pgSkipReason } from '../../../testing/postgres/test-database';
import { PLATFORM_KEY, startTeamServer, type TeamServer } from './team-server.test-support';

const skip = pgSkipReason();
if (skip !== null) console.warn(`team audit tests skipped: ${skip}`);

interface AuditPage {
  events: { id: number; tenant_id: string; user_id: string; task_id: string | null; kind: string; host: string; bytes_out: number; bytes_in: number; status: number | null; at: string }[];
  next_after: number | null;
}

async function json<T>(res: Response, status: number): Promise<T> {
  const text = await res.text();
  expect(res.status, `${res.url}: ${text}`).toBe(status);
  return JSON.parse(text) as T;
}

describe.skipIf(skip !== null)('team service: audit events for data leaving the service', () => {
  let s: TeamServer;
  let search: Server;
  let searchHost = '';

  beforeAll(async () => {
    s = await startTeamServer(['acme']);
    search = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ results: [{ title: 'A', url: 'https://example.com/a', content: 'x' }] })));
    await new Promise<void>((resolve) => search.listen(0, '127.0.0.1', resolve));
    searchHost = `127.0.0.1:${(search.address() as { port: number }).port}`;
  }, 60_000);
  afterAll(async () => {
    await new Promise((resolve) => search?.close(resolve));
    await s?.close();
  });

  async function admin(path: string): Promise<Response> {
    const token = await new SignJWT({ tenant_id: 'platform', folio_admin: true }).setProtectedHeader({ alg: 'HS256' }).setSubject('ops').setExpirationTime('5m').sign(new TextEncoder().encode('jwt-secret-0123456789abcdef-0123456789'));
    return fetch(`${s.url}${path}`, { headers: { authorization: `Bearer ${PLATFORM_KEY}`, 'x-folio-user': token } });
  }

  it("writes a row per model call and search request, with who caused it, and pages them for the platform's admin only", async () => {
    const task = await json<Task>(await s.as('acme', 'alice', '/v1/tasks', { method: 'POST', json: { mode: 'general', model: 'fake.main', title: 'audit' } }), 201);
    s.fake.script([{ text: 'Hello from the model.', usage: { prompt: 5, completion: 4 } }]);
    const { run_id: runId } = await json<{ run_id: string }>(await s.as('acme', 'alice', `/v1/tasks/${task.id}/messages`, { method: 'POST', json: { content: 'Hi' } }), 200);
    for (let i = 0; i < 400; i++) {
      const { runs } = await json<{ runs: Run[] }>(await s.as('acme', 'alice', `/v1/tasks/${task.id}/runs`), 200);
      if (runs.find((r) => r.id === runId)?.status === 'done') break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    await json(await s.as('acme', 'bob', '/v1/settings', { method: 'PATCH', json: { search: { backend: 'searxng', url: `http://${searchHost}` } } }), 200);
    await json(await s.as('acme', 'bob', '/v1/settings/search/test', { method: 'POST', json: {} }), 200);

    let page: AuditPage = { events: [], next_after: null };
    for (let i = 0; i < 100 && page.events.length < 2; i++) {
      page = await json<AuditPage>(await admin('/v1/audit?limit=1000'), 200);
      if (page.events.length < 2) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const fakeHost = new URL(s.fake.url).host;
    const model = page.events.find((e) => e.kind === 'model');
    expect(model).toMatchObject({ tenant_id: 'acme', user_id: 'alice', task_id: task.id, host: fakeHost, status: 200 });
    expect(model!.bytes_out).toBeGreaterThan(50);
    expect(model!.bytes_in).toBeGreaterThan(50);
    expect(page.events.find((e) => e.kind === 'web_search')).toMatchObject({ tenant_id: 'acme', user_id: 'bob', host: searchHost, status: 200 });

    // Paged: one at a time, oldest first, until next_after is null.
    const first = await json<AuditPage>(await admin('/v1/audit?limit=1'), 200);
    expect(first.events).toHaveLength(1);
    const second = await json<AuditPage>(await admin(`/v1/audit?limit=1&after=${first.next_after}`), 200);
    expect(second.events[0].id).toBeGreaterThan(first.events[0].id);
    expect((await json<AuditPage>(await admin('/v1/audit?tenant_id=globex'), 200)).events).toEqual([]);

    // A tenant's user, even with the platform key, is refused.
    const refused = await s.as('acme', 'alice', '/v1/audit');
    expect(refused.status).toBe(403);
    // So is the probe route, an admin's.
    expect((await s.as('acme', 'alice', '/v1/models/probe', { method: 'POST', json: { profile_id: 'fake.main' } })).status).toBe(403);
  }, 60_000);

  it('answers GET /metrics in Prometheus format without credentials, like /healthz', async () => {
    await s.as('acme', 'alice', '/v1/tasks');
    await fetch(`${s.url}/v1/no-such-route/abc123`);
    const res = await fetch(`${s.url}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    const text = await res.text();
    expect(text).toMatch(/folio_http_requests_total\{method="GET",route="\/v1\/tasks",status="200"\} [1-9]/);
    // A path no route matched is counted under one label, never as itself.
    expect(text).toContain('route="unmatched"');
    expect(text).not.toContain('abc123');
    expect(text).toMatch(/folio_runs\{status="done"\} [1-9]/);
    expect(text).toMatch(/folio_outbound_request_duration_seconds_count\{kind="model",host="127\.0\.0\.1:\d+",status="200"\} [1-9]/);
    expect(text).toMatch(/folio_outbound_request_duration_seconds_count\{kind="web_search",/);
    expect(text).toMatch(/folio_sse_clients 0/);
    expect(text).toMatch(/folio_library_queue_depth 0/);
    expect(text).toMatch(/folio_lease_takeovers_total 0/);
  });
});
