// Audit events: every request that leaves the service is one append-only row naming the tenant,
// user and task that caused it, the kind, the host and the bytes each way; the platform pages
// through them with GET /v1/audit (platform key + a token with the admin claim), nobody else can.
import { AsyncLocalStorage } from 'node:async_hooks';
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { join } from 'node:path';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { PendingApproval, Run, Task } from '../../shared/contract/entities';
import { pgSkipReason } from '../../../testing/postgres/test-database';
import { PLATFORM_KEY, startTeamServer, type TeamServer } from './team-server.test-support';

const skip = pgSkipReason();
if (skip !== null) console.warn(`team audit tests skipped: ${skip}`);

const EVERYTHING = join(process.cwd(), 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');

interface AuditPage {
  events: { id: number; tenant_id: string; user_id: string; task_id: string | null; run_id: string | null; kind: string; host: string; bytes_out: number; bytes_in: number; status: number | null; at: string }[];
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
  let mcp: ChildProcess | undefined;
  let mcpUrl = '';

  beforeAll(async () => {
    s = await startTeamServer(['acme', 'globex']);
    search = createServer((req, res) => {
      if (req.url?.startsWith('/page')) return void res.writeHead(200, { 'content-type': 'text/plain' }).end('A page for the audit test.');
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ results: [{ title: 'A', url: 'https://example.com/a', content: 'x' }] }));
    });
    await new Promise<void>((resolve) => search.listen(0, '127.0.0.1', resolve));
    searchHost = `127.0.0.1:${(search.address() as { port: number }).port}`;
    const port = await new Promise<number>((resolve) => {
      const probe = createNetServer().listen(0, '127.0.0.1', () => {
        const { port: p } = probe.address() as { port: number };
        probe.close(() => resolve(p));
      });
    });
    mcp = spawn(process.execPath, [EVERYTHING, 'streamableHttp'], { env: { PATH: process.env.PATH, PORT: String(port) }, stdio: ['ignore', 'ignore', 'pipe'] });
    await new Promise<void>((resolve, reject) => {
      let err = '';
      mcp!.stderr!.on('data', (chunk: Buffer) => {
        err += chunk.toString();
        if (err.includes('listening on port')) resolve();
      });
      mcp!.on('exit', () => reject(new Error(`server-everything (HTTP) exited: ${err}`)));
    });
    mcpUrl = `http://127.0.0.1:${port}/mcp`;
  }, 60_000);
  afterAll(async () => {
    mcp?.kill();
    await new Promise((resolve) => search?.close(resolve));
    await s?.close();
  });

  async function untilRunEnds(tenant: string, user: string, taskId: string, runId: string, approve = false): Promise<Run> {
    for (let i = 0; i < 800; i++) {
      if (approve) {
        const { approvals } = await json<{ approvals: PendingApproval[] }>(await s.as(tenant, user, `/v1/tasks/${taskId}/approvals`), 200);
        for (const a of approvals) await json(await s.as(tenant, user, `/v1/tasks/${taskId}/runs/${a.run_id}/approvals/${a.call_id}`, { method: 'POST', json: { decision: 'allow_once' } }), 200);
      }
      const { runs } = await json<{ runs: Run[] }>(await s.as(tenant, user, `/v1/tasks/${taskId}/runs`), 200);
      const run = runs.find((r) => r.id === runId);
      if (run && run.status !== 'running') return run;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error(`run ${runId} did not end`);
  }

  async function auditOf(tenant: string, count: (events: AuditPage['events']) => boolean): Promise<AuditPage['events']> {
    let events: AuditPage['events'] = [];
    for (let i = 0; i < 100; i++) {
      events = (await json<AuditPage>(await admin(`/v1/audit?limit=1000&tenant_id=${tenant}`), 200)).events;
      if (count(events)) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return events;
  }

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

  it("charges a run's web_fetch, MCP and model calls to its tenant, user, task and run, and a settings test's embeddings to its user, on either worker", async () => {
    // Who is charged is passed, never looked up in an async-context store: in Node 20 one entered
    // store runs a hook for every promise of the worker, a streaming run's deltas included.
    const entered = [vi.spyOn(AsyncLocalStorage.prototype, 'run'), vi.spyOn(AsyncLocalStorage.prototype, 'enterWith')];
    const second = await s.addWorker();
    await json(await s.as('globex', 'gina', '/v1/mcp/config', { method: 'PUT', json: { text: JSON.stringify({ mcpServers: { remote: { url: mcpUrl } } }) } }), 200);
    const task = await json<Task>(await s.as('globex', 'gina', '/v1/tasks', { method: 'POST', json: { mode: 'general', model: 'fake.main', title: 'fetch' } }), 201);
    await json(await s.as('globex', 'gina', `/v1/tasks/${task.id}`, { method: 'PATCH', json: { approval_mode: 'auto', mcp_servers: ['remote'] } }), 200);
    s.fake.script([
      { toolCalls: [{ id: 'call_f', name: 'web_fetch', arguments: JSON.stringify({ url: `http://${searchHost}/page` }) }] },
      { toolCalls: [{ id: 'call_m', name: 'mcp__remote__echo', arguments: JSON.stringify({ message: 'audited' }) }] },
      { text: 'Read it.' },
    ]);
    // Sent through the second worker: its rows must name the run as the first worker's do.
    const { run_id: runId } = await json<{ run_id: string }>(await second.as('globex', 'gina', `/v1/tasks/${task.id}/messages`, { method: 'POST', json: { content: 'Fetch the page' } }), 200);
    expect((await untilRunEnds('globex', 'gina', task.id, runId, true)).status).toBe('done');
    const tools = s.fake.requests.filter((r) => r.path.endsWith('/chat/completions')).slice(-1)[0].body as { messages: { role: string; content: string }[] };
    expect(tools.messages.filter((m) => m.role === 'tool').map((m) => m.content).join('\n')).toContain('Echo: audited');

    // An embedding endpoint tested from settings, with the key sent for this request only.
    await json(await second.as('globex', 'hank', '/v1/settings', { method: 'PATCH', json: { embedding: { base_url: s.fake.url, model: 'fake-embed', dimensions: 64 } } }), 200);
    const tested = await json<{ ok: boolean }>(await second.as('globex', 'hank', '/v1/settings/embedding/test', { method: 'POST', json: {}, headers: { 'x-folio-model-key': 'FOLIO_EMBEDDING_API_KEY=sk-embed-audit-1' } }), 200);
    expect(tested.ok).toBe(true);

    const events = await auditOf('globex', (e) => e.some((x) => x.kind === 'embeddings') && e.filter((x) => x.kind === 'model').length >= 3);
    const fakeHost = new URL(s.fake.url).host;
    const mcpHost = new URL(mcpUrl).host;
    const ofRun = { tenant_id: 'globex', user_id: 'gina', task_id: task.id, run_id: runId };
    expect(events.filter((e) => e.kind === 'web_fetch')).toEqual([expect.objectContaining({ ...ofRun, host: searchHost, status: 200 })]);
    expect(events.find((e) => e.kind === 'web_fetch')!.bytes_in).toBe('A page for the audit test.'.length);
    const mcpRows = events.filter((e) => e.kind === 'mcp');
    expect(mcpRows.length).toBeGreaterThan(0);
    for (const row of mcpRows) expect(row).toMatchObject({ ...ofRun, host: mcpHost });
    // One row per model call: three calls, no call counted twice by the two workers.
    const models = events.filter((e) => e.kind === 'model');
    expect(models).toHaveLength(3);
    for (const row of models) expect(row).toMatchObject({ ...ofRun, host: fakeHost, status: 200 });
    expect(events.filter((e) => e.kind === 'embeddings')).toEqual([expect.objectContaining({ tenant_id: 'globex', user_id: 'hank', task_id: null, run_id: null, host: fakeHost, status: 200 })]);
    // Nothing of globex's was charged to acme, nor left without a tenant.
    const all = (await json<AuditPage>(await admin('/v1/audit?limit=1000'), 200)).events;
    expect(all.filter((e) => e.task_id === task.id).every((e) => e.tenant_id === 'globex')).toBe(true);
    expect(all.filter((e) => e.tenant_id === '')).toEqual([]);
    for (const spy of entered) {
      expect(spy).not.toHaveBeenCalled();
      spy.mockRestore();
    }
  }, 90_000);

  it('answers GET /metrics in Prometheus format without credentials, like /healthz, counting what a run did', async () => {
    const task = await json<Task>(await s.as('acme', 'alice', '/v1/tasks', { method: 'POST', json: { mode: 'general', model: 'fake.main', title: 'metrics' } }), 201);
    await json(await s.as('acme', 'alice', `/v1/tasks/${task.id}`, { method: 'PATCH', json: { approval_mode: 'auto' } }), 200);
    s.fake.script([
      { toolCalls: [{ id: 'g1', name: 'glob', arguments: JSON.stringify({ pattern: '**/*' }) }], usage: { prompt: 11, completion: 7 } },
      { toolCalls: [{ id: 'r1', name: 'read', arguments: JSON.stringify({ path: 'no/such/file.txt' }) }], usage: { prompt: 13, completion: 5 } },
      { text: 'Done.', usage: { prompt: 17, completion: 3 } },
    ]);
    const { run_id: runId } = await json<{ run_id: string }>(await s.as('acme', 'alice', `/v1/tasks/${task.id}/messages`, { method: 'POST', json: { content: 'Look' } }), 200);
    expect((await untilRunEnds('acme', 'alice', task.id, runId)).status).toBe('done');
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
    // Tokens by provider (the first test's run: 5 + 4, then 11 + 13 + 17 and 7 + 5 + 3), model latency, tools by outcome, run duration.
    expect(text).toMatch(/folio_model_tokens_total\{provider="fake",kind="prompt"\} 46\n/);
    expect(text).toMatch(/folio_model_tokens_total\{provider="fake",kind="completion"\} 19\n/);
    expect(text).toMatch(/folio_model_call_duration_seconds_count\{provider="fake"\} 4\n/);
    expect(text).toMatch(/folio_tool_calls_total\{tool="glob",outcome="ok"\} 1\n/);
    expect(text).toMatch(/folio_tool_calls_total\{tool="read",outcome="error"\} 1\n/);
    expect(text).toMatch(/folio_run_duration_seconds_count\{reason="done"\} 2\n/);
    expect(text).toMatch(/folio_http_requests_total\{method="POST",route="\/v1\/tasks\/:task_id\/messages",status="200"\} [1-9]/);
  }, 60_000);
});
