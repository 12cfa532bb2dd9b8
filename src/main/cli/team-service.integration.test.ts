// The team service as `folio serve --multi-tenant` runs it, in-process, on a real PostgreSQL
// database with the fake model: every task route is a 404 across tenants and across users of one
// tenant, and each quota is hit and reported with a message naming it.
import { createHash } from 'node:crypto';
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contract, methodNames, type MethodName } from '../../shared/contract/methods';
import { DECK_LAYOUTS } from '../../shared/specs/deck';
import type { FileEntry, Message, PendingApproval, Run, Task } from '../../shared/contract/entities';
import { pgSkipReason } from '../../../testing/postgres/test-database';
import { openPgStore } from '../store/postgres';
import { libraryDir, libraryFilePath } from '../workspace/library-paths';
import { tenantDataDir } from '../workspace/storage';
import { startTeamServer, type TeamServer } from './team-server.test-support';

const skip = pgSkipReason();
if (skip !== null) console.warn(`team service integration tests skipped: ${skip}`);

interface ErrorBody {
  error: { code: string; message: string };
}

async function json<T>(res: Response, status: number): Promise<T> {
  const text = await res.text();
  expect(res.status, `${res.url}: ${text}`).toBe(status);
  return JSON.parse(text) as T;
}

/** The error code of a 404, or the whole body when the route itself was not found (a test bug). */
function codeOf(text: string): string {
  const { error } = JSON.parse(text) as ErrorBody;
  return error.message === 'Unknown route' ? text : error.code;
}

async function waitForRunEnd(s: TeamServer, tenant: string, user: string, taskId: string, runId: string): Promise<Run> {
  let last: Run | undefined;
  for (let i = 0; i < 400; i++) {
    const { runs } = await json<{ runs: Run[] }>(await s.as(tenant, user, `/v1/tasks/${taskId}/runs`), 200);
    last = runs.find((r) => r.id === runId);
    if (last && last.status !== 'running') return last;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`run ${runId} did not end: ${JSON.stringify(last)}; the model had ${s.fake.requests.length} requests; log: ${s.lines.filter((l) => !l.includes('"route"')).join('\n')}`);
}

async function createTask(s: TeamServer, tenant: string, user: string): Promise<Task> {
  return json<Task>(await s.as(tenant, user, '/v1/tasks', { method: 'POST', json: { mode: 'general', model: 'fake.main', title: `${user}'s task` } }), 201);
}

function upload(s: TeamServer, tenant: string, user: string, taskId: string, name: string, bytes: number): Promise<Response> {
  const form = new FormData();
  form.append('file', new Blob(['x'.repeat(bytes)], { type: 'text/plain' }), name);
  return s.as(tenant, user, `/v1/tasks/${taskId}/files`, { method: 'POST', body: form });
}

/** A valid body per method whose route takes one (beyond its path parameters); {} for the rest. */
const bodies: Partial<Record<MethodName, Record<string, unknown>>> = {
  updateTask: { title: 'taken over' },
  sendMessage: { content: 'hello from another tenant' },
  decideApproval: { decision: 'allow_once' },
  saveOutline: { slides: [{ title: 'A takeaway', layout: DECK_LAYOUTS[0] }] },
  approveOutline: {},
  editMessage: { text: 'edited by another tenant' },
  attachMcpResource: { server: 'files', uri: 'file:///etc/hostname' },
  exportPdf: {},
  revokeTaskGrant: { tool: 'write', scope: 'work/' },
};

describe.skipIf(skip !== null)('team service: tenants and users see only their own tasks', () => {
  let s: TeamServer;
  let task: Task;
  let runId: string;
  let messageId: string;
  let filePath: string;
  let waitingRunId: string;
  let approvals: PendingApproval[] = [];

  beforeAll(async () => {
    s = await startTeamServer(['acme', 'globex']);
    task = await createTask(s, 'acme', 'alice');
    s.fake.script([{ text: 'Hello Alice.', usage: { prompt: 12, completion: 3 } }]);
    ({ run_id: runId } = await json<{ run_id: string }>(await s.as('acme', 'alice', `/v1/tasks/${task.id}/messages`, { method: 'POST', json: { content: 'Hi' } }), 200));
    expect((await waitForRunEnd(s, 'acme', 'alice', task.id, runId)).status).toBe('done');
    const { messages } = await json<{ messages: Message[] }>(await s.as('acme', 'alice', `/v1/tasks/${task.id}/messages`), 200);
    messageId = messages.find((m) => m.role === 'user')!.id;
    const { files } = await json<{ files: FileEntry[] }>(await upload(s, 'acme', 'alice', task.id, 'notes.txt', 64), 201);
    filePath = files[0].path;
    // A second run waits on alice's approval of a write, so the run, the call and the approval are live.
    s.fake.script([{ toolCalls: [{ id: 'call_w', name: 'write', arguments: JSON.stringify({ path: 'work/plan.md', content: '# Plan' }) }], usage: { prompt: 20, completion: 5 } }]);
    ({ run_id: waitingRunId } = await json<{ run_id: string }>(await s.as('acme', 'alice', `/v1/tasks/${task.id}/messages`, { method: 'POST', json: { content: 'Write a plan' } }), 200));
    for (let i = 0; i < 200 && approvals.length === 0; i++) {
      ({ approvals } = await json<{ approvals: PendingApproval[] }>(await s.as('acme', 'alice', `/v1/tasks/${task.id}/approvals`), 200));
      if (approvals.length === 0) await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(approvals.map((a) => [a.run_id, a.call_id, a.name])).toEqual([[waitingRunId, 'call_w', 'write']]);
  }, 60_000);
  afterAll(async () => {
    await s?.close();
  });

  const taskRoutes = methodNames.filter((name) => contract[name].http?.path.includes(':task_id') === true && contract[name].ipcOnly !== true);

  function pathFor(name: MethodName): string {
    return contract[name].http!.path
      .replace(':task_id', task.id)
      .replace(':run_id', waitingRunId)
      .replace(':call_id', 'call_w')
      .replace(':message_id', messageId)
      .replace('*path', filePath);
  }

  it('covers every task route of the contract', () => {
    expect(taskRoutes.length).toBeGreaterThan(25);
    expect(taskRoutes).toEqual(expect.arrayContaining(['getTask', 'sendMessage', 'readFile', 'decideApproval', 'editMessage']));
  });

  it.each([
    ['another tenant', 'globex', 'bob'],
    ['another user of the same tenant', 'acme', 'carol'],
  ])('answers 404 not_found on every task route to %s', async (_who, tenant, user) => {
    const answers: string[] = [];
    for (const name of taskRoutes) {
      const { method } = contract[name].http!;
      const hasBody = method === 'POST' || method === 'PATCH' || method === 'PUT';
      const body = bodies[name] ?? {};
      // The body is checked here so a 400 below cannot be a wrong test body.
      const fields: Record<string, unknown> = { task_id: task.id, run_id: waitingRunId, call_id: 'call_w', message_id: messageId, path: filePath, ...(hasBody ? body : {}) };
      const shape = contract[name].input as unknown as { shape?: Record<string, unknown> };
      const own = Object.fromEntries(Object.entries(fields).filter(([key]) => shape.shape === undefined || key in shape.shape));
      expect(contract[name].input.safeParse(own).success, `${name}: the test's body is invalid`).toBe(true);
      const res = await s.as(tenant, user, pathFor(name), hasBody ? { method, json: body } : { method });
      const text = await res.text();
      answers.push(`${name} ${method} ${res.status} ${res.status === 404 ? codeOf(text) : text}`);
    }
    for (const run of [runId, waitingRunId]) {
      const events = await s.as(tenant, user, `/v1/tasks/${task.id}/runs/${run}/events`);
      answers.push(`events GET ${events.status} ${codeOf(await events.text())}`);
    }
    const up = await upload(s, tenant, user, task.id, 'intruder.txt', 10);
    answers.push(`upload POST ${up.status} ${codeOf(await up.text())}`);
    expect(answers.filter((a) => !/ 404 not_found$/.test(a))).toEqual([]);
  }, 60_000);

  it('leaves the owner her task as it was, her run still waiting on her approval', async () => {
    const mine = await json<Task>(await s.as('acme', 'alice', `/v1/tasks/${task.id}`), 200);
    expect(mine.title).toBe(task.title);
    expect(mine.status).toBe('active');
    const { messages } = await json<{ messages: Message[] }>(await s.as('acme', 'alice', `/v1/tasks/${task.id}/messages`), 200);
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    const { runs } = await json<{ runs: Run[] }>(await s.as('acme', 'alice', `/v1/tasks/${task.id}/runs`), 200);
    expect(runs.map((r) => [r.id, r.status]).sort()).toEqual([[runId, 'done'], [waitingRunId, 'running']].sort());
    expect((await json<{ approvals: PendingApproval[] }>(await s.as('acme', 'alice', `/v1/tasks/${task.id}/approvals`), 200)).approvals).toEqual(approvals);
    // Only now does the owner answer; the run goes on with her decision.
    s.fake.script([{ text: 'Planned.', usage: { prompt: 30, completion: 2 } }]);
    await json(await s.as('acme', 'alice', `/v1/tasks/${task.id}/runs/${waitingRunId}/approvals/call_w`, { method: 'POST', json: { decision: 'deny' } }), 200);
    expect((await waitForRunEnd(s, 'acme', 'alice', task.id, waitingRunId)).status).toBe('done');
    const { files } = await json<{ files: FileEntry[] }>(await s.as('acme', 'alice', `/v1/tasks/${task.id}/files`), 200);
    expect(files.map((f) => f.path)).toEqual([filePath]);
    expect((await json<{ tasks: Task[] }>(await s.as('globex', 'bob', '/v1/tasks'), 200)).tasks).toEqual([]);
    expect((await json<{ tasks: Task[] }>(await s.as('acme', 'carol', '/v1/tasks'), 200)).tasks).toEqual([]);
  });
});

interface UsageAnswer {
  tenant_id?: string;
  total: { prompt_tokens: number; completion_tokens: number };
  users?: { user_id: string; prompt_tokens: number; completion_tokens: number }[];
  tasks: { task_id: string }[];
  quotas?: { name: string; limit: number | null; used: number | null }[];
}

describe.skipIf(skip !== null)('team service: quotas are hit and reported', () => {
  let s: TeamServer;

  beforeAll(async () => {
    s = await startTeamServer(['initech', 'hooli', 'umbrella', 'wayne', 'stark', 'tyrell', 'oscorp', 'massive']);
    // Before each tenant's first request: the limits are cached per tenant for a few seconds.
    await s.setQuotas('initech', { max_concurrent_runs: 1 });
    await s.setQuotas('hooli', { tokens_per_month: 100 });
    await s.setQuotas('umbrella', { upload_bytes: 1000 });
    await s.setQuotas('wayne', { requests_per_minute: 5 });
    await s.setQuotas('stark', { tokens_per_month: 100 });
    await s.setQuotas('tyrell', { max_concurrent_runs: 1 });
    await s.setQuotas('oscorp', { storage_bytes: 1000 });
    await s.setQuotas('massive', { storage_bytes: 1000 });
    await s.setQuotas('cyberdyne', { storage_bytes: 1000 });
    await s.setQuotas('soylent', { storage_bytes: 1000 });
  }, 60_000);
  afterAll(async () => {
    await s?.close();
  });

  async function send(tenant: string, user: string, taskId: string, content: string): Promise<Response> {
    return s.as(tenant, user, `/v1/tasks/${taskId}/messages`, { method: 'POST', json: { content } });
  }

  it('refuses a second concurrent run with 429 naming the quota, and accepts one when the first ends', async () => {
    const first = await createTask(s, 'initech', 'peter');
    const second = await createTask(s, 'initech', 'milton');
    s.fake.script([{ fault: 'stall' }]);
    const { run_id: stalled } = await json<{ run_id: string }>(await send('initech', 'peter', first.id, 'Think forever'), 200);
    const chats = () => s.fake.requests.filter((r) => r.path.endsWith('/chat/completions')).length;
    for (let i = 0; i < 200 && chats() === 0; i++) await new Promise((resolve) => setTimeout(resolve, 25));
    expect(chats()).toBe(1);

    const refused = await json<ErrorBody>(await send('initech', 'milton', second.id, 'Me too'), 429);
    expect(refused.error.code).toBe('quota_exceeded');
    expect(refused.error.message).toContain('Concurrent runs: 1 of 1 (tenant initech)');
    // The refused message started nothing: no run, no message.
    expect((await json<{ runs: Run[] }>(await s.as('initech', 'milton', `/v1/tasks/${second.id}/runs`), 200)).runs).toEqual([]);

    await json(await s.as('initech', 'peter', `/v1/tasks/${first.id}/runs/${stalled}/cancel`, { method: 'POST', json: {} }), 200);
    expect((await waitForRunEnd(s, 'initech', 'peter', first.id, stalled)).status).toBe('cancelled');
    s.fake.script([{ text: 'Now it is my turn.', usage: { prompt: 5, completion: 5 } }]);
    const { run_id: next } = await json<{ run_id: string }>(await send('initech', 'milton', second.id, 'Me too'), 200);
    expect((await waitForRunEnd(s, 'initech', 'milton', second.id, next)).status).toBe('done');
  }, 60_000);

  it('lets the call that crosses the token quota finish, then refuses the next message with 429', async () => {
    const dave = await createTask(s, 'hooli', 'dave');
    s.fake.script([{ text: 'Short.', usage: { prompt: 30, completion: 10 } }]);
    const { run_id: r1 } = await json<{ run_id: string }>(await send('hooli', 'dave', dave.id, 'One'), 200);
    expect((await waitForRunEnd(s, 'hooli', 'dave', dave.id, r1)).status).toBe('done');

    const alice = await createTask(s, 'hooli', 'alice');
    s.fake.script([{ text: 'Long.', usage: { prompt: 90, completion: 20 } }]);
    const { run_id: r2 } = await json<{ run_id: string }>(await send('hooli', 'alice', alice.id, 'Two'), 200);
    expect((await waitForRunEnd(s, 'hooli', 'alice', alice.id, r2)).status).toBe('done');

    const refused = await json<ErrorBody>(await send('hooli', 'alice', alice.id, 'Three'), 429);
    expect(refused.error.code).toBe('quota_exceeded');
    expect(refused.error.message).toMatch(/^Tokens this month: 150 of 100 \(tenant hooli\)\. The quota resets on \d{4}-\d{2}-01/);

    // Dave sees his own usage; Alice's id and tasks reach him only as the tenant's use of the quota.
    const usage = await json<UsageAnswer>(await s.as('hooli', 'dave', '/v1/usage'), 200);
    expect(usage.tenant_id).toBe('hooli');
    expect(usage.total).toMatchObject({ prompt_tokens: 30, completion_tokens: 10 });
    expect(usage.users?.map((u) => [u.user_id, u.prompt_tokens, u.completion_tokens])).toEqual([['dave', 30, 10]]);
    expect(usage.tasks.map((t) => t.task_id)).toEqual([dave.id]);
    expect(JSON.stringify(usage)).not.toContain('alice');
    expect(JSON.stringify(usage)).not.toContain(alice.id);
    expect(usage.quotas).toContainEqual({ name: 'tokens_per_month', limit: 100, used: 150 });
    expect(usage.quotas).toContainEqual({ name: 'max_concurrent_runs', limit: null, used: 0 });
  }, 60_000);

  it('ends a run whose model call crossed the token quota before its next call, naming the quota', async () => {
    const task = await createTask(s, 'stark', 'tony');
    const chatsBefore = s.fake.requests.filter((r) => r.path.endsWith('/chat/completions')).length;
    s.fake.script([{ toolCalls: [{ id: 'call_g', name: 'glob', arguments: JSON.stringify({ pattern: '**/*' }) }], usage: { prompt: 100, completion: 20 } }]);
    const { run_id: runId } = await json<{ run_id: string }>(await send('stark', 'tony', task.id, 'Look around'), 200);
    const run = await waitForRunEnd(s, 'stark', 'tony', task.id, runId);
    expect(run.status).toBe('failed');
    expect(run.error).toMatch(/^Tokens this month: 120 of 100 \(tenant stark\)\. The quota resets on /);
    expect(run).toMatchObject({ prompt_tokens: 100, completion_tokens: 20 });
    // The tool ran and its result is kept; the refused call never reached the provider.
    const { messages } = await json<{ messages: Message[] }>(await s.as('stark', 'tony', `/v1/tasks/${task.id}/messages`), 200);
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
    expect(s.fake.requests.filter((r) => r.path.endsWith('/chat/completions')).length).toBe(chatsBefore + 1);
  });

  // Two users of one tenant at the same moment: the check and the new row are one step per tenant
  // (the run manager takes the tenant's lock in the start transaction), so only one gets the slot.
  it('lets only one of two runs started at the same moment past a concurrent-runs quota of 1', async () => {
    const a = await createTask(s, 'tyrell', 'rachael');
    const b = await createTask(s, 'tyrell', 'roy');
    s.fake.script([{ fault: 'stall' }, { fault: 'stall' }]);
    const answers = await Promise.all([send('tyrell', 'rachael', a.id, 'One'), send('tyrell', 'roy', b.id, 'Two')]);
    const statuses = answers.map((res) => res.status);
    for (const [i, res] of answers.entries()) {
      if (res.status !== 200) continue;
      const { run_id: runId } = (await res.json()) as { run_id: string };
      const [user, task] = i === 0 ? ['rachael', a] : ['roy', b];
      await json(await s.as('tyrell', user, `/v1/tasks/${task.id}/runs/${runId}/cancel`, { method: 'POST', json: {} }), 200);
      await waitForRunEnd(s, 'tyrell', user, task.id, runId);
    }
    s.fake.reset(); // a refused start leaves its stall unused
    expect(statuses.sort()).toEqual([200, 429]);
  });

  it('shows each tenant only its own usage', async () => {
    const initech = await json<UsageAnswer>(await s.as('initech', 'milton', '/v1/usage'), 200);
    expect(initech.tenant_id).toBe('initech');
    expect(initech.users?.map((u) => u.user_id)).toEqual(['milton']);
    expect(initech.total).toMatchObject({ prompt_tokens: 5, completion_tokens: 5 });
    expect(initech.quotas).toContainEqual({ name: 'max_concurrent_runs', limit: 1, used: 0 });
    const umbrella = await json<UsageAnswer>(await s.as('umbrella', 'alice', '/v1/usage'), 200);
    expect(umbrella.tenant_id).toBe('umbrella');
    expect(umbrella.total).toMatchObject({ prompt_tokens: 0, completion_tokens: 0 });
    expect(umbrella.users ?? []).toEqual([]);
  });

  it('refuses an upload over the upload size with 429 naming the quota, and takes one under it', async () => {
    const task = await createTask(s, 'umbrella', 'alice');
    const refused = await json<ErrorBody>(await upload(s, 'umbrella', 'alice', task.id, 'big.txt', 5000), 429);
    expect(refused.error.code).toBe('quota_exceeded');
    expect(refused.error.message).toContain('over the limit of 1,000 bytes per upload (tenant umbrella)');
    expect((await json<{ files: FileEntry[] }>(await s.as('umbrella', 'alice', `/v1/tasks/${task.id}/files`), 200)).files).toEqual([]);
    const { files } = await json<{ files: FileEntry[] }>(await upload(s, 'umbrella', 'alice', task.id, 'small.txt', 500), 201);
    expect(files.map((f) => f.size)).toEqual([500]);
  });

  it('refuses an upload that would pass the storage quota, and frees the bytes of deleted files and tasks', async () => {
    const task = await createTask(s, 'oscorp', 'norman');
    const { files } = await json<{ files: FileEntry[] }>(await upload(s, 'oscorp', 'norman', task.id, 'a.txt', 600), 201);
    const refused = await json<ErrorBody>(await upload(s, 'oscorp', 'norman', task.id, 'b.txt', 600), 429);
    expect(refused.error.code).toBe('quota_exceeded');
    expect(refused.error.message).toBe('Storage: 600 of 1,000 bytes used (tenant oscorp); this upload of 600 bytes would pass the limit. Delete files to free space.');
    const storage = async () => (await json<UsageAnswer & { storage_bytes?: number }>(await s.as('oscorp', 'norman', '/v1/usage'), 200)).storage_bytes;
    expect(await storage()).toBe(600);

    await json(await s.as('oscorp', 'norman', `/v1/tasks/${task.id}/files/${files[0].path}`, { method: 'DELETE' }), 200);
    expect(await storage()).toBe(0);
    await json(await upload(s, 'oscorp', 'norman', task.id, 'b.txt', 600), 201);
    await json(await s.as('oscorp', 'norman', `/v1/tasks/${task.id}`, { method: 'DELETE' }), 200);
    expect(await storage()).toBe(0);
  });

  it('charges the files a run writes to the storage quota: the write past it is a tool error, the next one is not run', async () => {
    const task = await createTask(s, 'massive', 'mia');
    await json(await s.as('massive', 'mia', `/v1/tasks/${task.id}`, { method: 'PATCH', json: { approval_mode: 'auto' } }), 200);
    const write = (id: string, path: string, bytes: number) => ({ toolCalls: [{ id, name: 'write', arguments: JSON.stringify({ path, content: 'w'.repeat(bytes) }) }] });
    s.fake.script([write('call_a', 'work/a.md', 600), write('call_b', 'work/b.md', 600), write('call_c', 'work/c.md', 1), { text: 'Out of storage.' }]);
    const { run_id: runId } = await json<{ run_id: string }>(await send('massive', 'mia', task.id, 'Write three files'), 200);
    expect((await waitForRunEnd(s, 'massive', 'mia', task.id, runId)).status).toBe('done');

    const { messages } = await json<{ messages: Message[] }>(await s.as('massive', 'mia', `/v1/tasks/${task.id}/messages`), 200);
    const results = new Map(messages.filter((m) => m.role === 'tool').map((m) => [m.tool_call_id ?? '', m]));
    expect(results.get('call_a')?.is_error).toBe(false);
    expect(results.get('call_b')).toMatchObject({ is_error: true });
    expect(results.get('call_b')?.content).toMatch(/Storage quota: the files this call wrote \(600 bytes\) bring tenant massive to 1,200 of 1,000 bytes\. They were kept/);
    expect(results.get('call_c')).toMatchObject({ is_error: true });
    expect(results.get('call_c')?.content).toMatch(/^Storage quota: 1,200 of 1,000 bytes used \(tenant massive\), so this call was not run/);
    const { files } = await json<{ files: FileEntry[] }>(await s.as('massive', 'mia', `/v1/tasks/${task.id}/files`), 200);
    expect(files.map((f) => f.path).sort()).toEqual(['work/a.md', 'work/b.md']);

    const storage = async () => (await json<UsageAnswer & { storage_bytes?: number }>(await s.as('massive', 'mia', '/v1/usage'), 200)).storage_bytes;
    expect(await storage()).toBe(1200);
    // An upload is refused as before, and deleting the agent's file frees its bytes.
    expect((await upload(s, 'massive', 'mia', task.id, 'more.txt', 10)).status).toBe(429);
    await json(await s.as('massive', 'mia', `/v1/tasks/${task.id}/files/work/b.md`, { method: 'DELETE' }), 200);
    expect(await storage()).toBe(600);
    await json(await s.as('massive', 'mia', `/v1/tasks/${task.id}`, { method: 'DELETE' }), 200);
    expect(await storage()).toBe(0);
  }, 60_000);

  it('counts library files as stored bytes: a copy of a stored file adds nothing, deleting frees', async () => {
    const storage = async () => (await json<UsageAnswer & { storage_bytes?: number }>(await s.as('cyberdyne', 'miles', '/v1/usage'), 200)).storage_bytes;
    const toLibrary = (name: string, text: string) => {
      const form = new FormData();
      form.append('file', new Blob([text], { type: 'text/plain' }), name);
      return s.as('cyberdyne', 'miles', '/v1/projects/personal/files', { method: 'POST', body: form });
    };
    const notes = 'n'.repeat(600);
    await json(await toLibrary('notes.txt', notes), 201);
    expect(await storage()).toBe(600);
    await json(await toLibrary('notes-again.txt', notes), 201);
    expect(await storage()).toBe(600);
    const refused = await json<ErrorBody>(await toLibrary('more.txt', 'm'.repeat(600)), 429);
    expect(refused.error.message).toBe('Storage: 600 of 1,000 bytes used (tenant cyberdyne); this upload of 600 bytes would pass the limit. Delete files to free space.');
    await json(await s.as('cyberdyne', 'miles', '/v1/projects/personal/files/notes.txt', { method: 'DELETE' }), 200);
    expect(await storage()).toBe(0);
  });

  it("frees a deleted project's library bytes; its tasks keep their files and charges until they are deleted", async () => {
    const storage = async () => (await json<UsageAnswer & { storage_bytes?: number }>(await s.as('gotham', 'bruce', '/v1/usage'), 200)).storage_bytes;
    const project = await json<{ id: string }>(await s.as('gotham', 'bruce', '/v1/projects', { method: 'POST', json: { name: 'Cave' } }), 201);
    const form = new FormData();
    form.append('file', new Blob(['l'.repeat(300)], { type: 'text/plain' }), 'paper.txt');
    await json(await s.as('gotham', 'bruce', `/v1/projects/${project.id}/files`, { method: 'POST', body: form }), 201);
    const task = await json<Task>(await s.as('gotham', 'bruce', '/v1/tasks', { method: 'POST', json: { mode: 'general', model: 'fake.main', title: 'In the cave', project_id: project.id } }), 201);
    await json(await upload(s, 'gotham', 'bruce', task.id, 'notes.txt', 200), 201);
    expect(await storage()).toBe(500);

    await json(await s.as('gotham', 'bruce', `/v1/projects/${project.id}`, { method: 'DELETE' }), 200);
    expect(await storage()).toBe(200);
    // The task outlives its project (it leaves it) with its file, so its charge stays.
    const kept = await json<Task>(await s.as('gotham', 'bruce', `/v1/tasks/${task.id}`), 200);
    expect(kept.project_id).toBeNull();
    expect((await json<{ files: FileEntry[] }>(await s.as('gotham', 'bruce', `/v1/tasks/${task.id}/files`), 200)).files.map((f) => f.size)).toEqual([200]);
    await json(await s.as('gotham', 'bruce', `/v1/tasks/${task.id}`, { method: 'DELETE' }), 200);
    expect(await storage()).toBe(0);
  });

  it('lets only one of two uploads at once take the last free storage, task files and library files alike', async () => {
    const storage = async () => (await json<UsageAnswer & { storage_bytes?: number }>(await s.as('soylent', 'sol', '/v1/usage'), 200)).storage_bytes;
    const statusesOf = async (answers: Promise<Response>[]) => Promise.all((await Promise.all(answers)).map(async (res) => (await res.text(), res.status)));
    const task = await createTask(s, 'soylent', 'sol');
    const taskUploads = await statusesOf([upload(s, 'soylent', 'sol', task.id, 'a.txt', 600), upload(s, 'soylent', 'sol', task.id, 'b.txt', 600)]);
    expect(taskUploads.sort()).toEqual([201, 429]);
    expect(await storage()).toBe(600);
    const { files } = await json<{ files: FileEntry[] }>(await s.as('soylent', 'sol', `/v1/tasks/${task.id}/files`), 200);
    expect(files.map((f) => f.size)).toEqual([600]);
    await json(await s.as('soylent', 'sol', `/v1/tasks/${task.id}`, { method: 'DELETE' }), 200);
    expect(await storage()).toBe(0);

    const toLibrary = (name: string, text: string) => {
      const form = new FormData();
      form.append('file', new Blob([text], { type: 'text/plain' }), name);
      return s.as('soylent', 'sol', '/v1/projects/personal/files', { method: 'POST', body: form });
    };
    const libraryUploads = await statusesOf([toLibrary('a.txt', 'a'.repeat(600)), toLibrary('b.txt', 'b'.repeat(600))]);
    expect(libraryUploads.sort()).toEqual([201, 429]);
    expect(await storage()).toBe(600);
  });

  it('stops reading an upload once it passes the storage left, and answers with the quota', async () => {
    const task = await createTask(s, 'cyberdyne', 'miles');
    const size = 4 * 1024 * 1024;
    const refused = await json<ErrorBody>(await upload(s, 'cyberdyne', 'miles', task.id, 'huge.txt', size), 429);
    const seen = Number(/this upload of ([\d,]+) bytes would pass the limit/u.exec(refused.error.message)?.[1]?.replaceAll(',', ''));
    expect(refused.error.message).toMatch(/^Storage: 0 of 1,000 bytes used \(tenant cyberdyne\)/u);
    // Read up to the first chunk past the allowance, not the whole 4 MB.
    expect(seen).toBeGreaterThan(1000);
    expect(seen).toBeLessThan(size);
    expect((await json<{ files: FileEntry[] }>(await s.as('cyberdyne', 'miles', `/v1/tasks/${task.id}/files`), 200)).files).toEqual([]);
    // The tenant can still upload what fits.
    await json(await upload(s, 'cyberdyne', 'miles', task.id, 'fits.txt', 900), 201);
  });

  it('answers a burst over the request rate with 429 and Retry-After, for that tenant only', async () => {
    const statuses: number[] = [];
    let limited: Response | undefined;
    for (let i = 0; i < 10; i++) {
      const res = await s.as('wayne', 'bruce', '/v1/tasks');
      statuses.push(res.status);
      if (res.status === 429) limited ??= res;
      else await res.body?.cancel();
    }
    expect(statuses.filter((status) => status === 200).length).toBe(5);
    expect(statuses.slice(5)).toEqual([429, 429, 429, 429, 429]);
    expect(Number(limited!.headers.get('retry-after'))).toBeGreaterThan(0);
    const body = (await limited!.json()) as ErrorBody;
    expect(body.error.code).toBe('rate_limited');
    expect(body.error.message).toContain('Too many requests for this tenant');
    expect((await s.as('hooli', 'dave', '/v1/tasks')).status).toBe(200);
  });
});

describe.skipIf(skip !== null)('team service: the library', () => {
  let s: TeamServer;
  beforeAll(async () => {
    s = await startTeamServer(['initech']);
  });
  afterAll(async () => {
    await s?.close();
  });

  it("indexes a file another worker left pending once the tenant comes back, and finds it", async () => {
    // As a worker that died after the upload leaves it: the file in the tenant's library folder, its row pending.
    const text = 'Quarterly minutes: the 检索增强 pilot ships in March.\n';
    const dataDir = tenantDataDir(s.storageRoot, 'initech');
    mkdirSync(libraryDir(dataDir, 'personal'), { recursive: true });
    const file = libraryFilePath(dataDir, 'personal', 'minutes.txt');
    writeFileSync(file, text);
    const backend = await openPgStore(s.databaseUrl);
    try {
      await backend.scope({ tenant_id: 'initech', user_id: 'milton' }).library.add({
        id: 'lf_left_pending',
        project_id: null,
        path: 'minutes.txt',
        size: Buffer.byteLength(text),
        mtime_ms: Math.trunc(statSync(file).mtimeMs),
        sha256: createHash('sha256').update(text).digest('hex'),
      });
    } finally {
      await backend.close();
    }
    let status = '';
    for (let i = 0; i < 400 && status !== 'ok'; i++) {
      const { files } = await json<{ files: { path: string; status: string }[] }>(await s.as('initech', 'milton', '/v1/projects/personal/files'), 200);
      status = files.find((f) => f.path === 'minutes.txt')?.status ?? '';
      if (status !== 'ok') await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(status).toBe('ok');
    const { hits } = await json<{ hits: { path: string }[] }>(await s.as('initech', 'milton', `/v1/projects/personal/search?q=${encodeURIComponent('检索增强')}`), 200);
    expect(hits.map((h) => h.path)).toEqual(['minutes.txt']);
  });
});

describe.skipIf(skip !== null)('team service: addresses tenants type', () => {
  let s: TeamServer;
  beforeAll(async () => {
    s = await startTeamServer(['hooli']);
  });
  afterAll(async () => {
    await s?.close();
  });

  it("cannot point the worker at cloud metadata or its own network; the operator's allowed address still works", async () => {
    const probe = (apiBase: string) => s.as('hooli', 'gavin', '/v1/setup/provider-models', { method: 'POST', json: { api_base: apiBase } });
    const metadata = await json<ErrorBody>(await probe('http://169.254.169.254/v1'), 403);
    expect(metadata.error).toMatchObject({ code: 'forbidden', message: expect.stringContaining('169.254.169.254: a cloud metadata endpoint') as unknown });
    const privateNet = await json<ErrorBody>(await probe('http://10.0.0.7:11434/v1'), 403);
    expect(privateNet.error.message).toContain('a private network address');
    // 127.0.0.1 is on this server's --allow-network (the fake provider lives there): it answers.
    const { models } = await json<{ models: { id: string }[] }>(await probe(`${s.fake.url}`), 200);
    expect(models.length).toBeGreaterThan(0);
  });
});
