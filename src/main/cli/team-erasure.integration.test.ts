// Deletion that deletes: a unique marker is written through every path a person's content takes in
// the team service (task title, message, the model's streamed answer, a tool call's arguments and
// the file it writes, an approval waiting on the call, an upload, a project's library file and its
// pages), then the task, the project, a user's data and a whole tenant are deleted, and the whole
// database and storage root are searched for the marker. Only usage numbers may stay.
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PendingApproval, Task } from '../../shared/contract/entities';
import { pgSkipReason } from '../../../testing/postgres/test-database';
import { eraseTenant, eraseUser } from './tenant-erasure';
import { fakeProfileYaml } from '../../../testing/fake-openai/server';
import { expectJson, startTeamServer, type TeamServer, waitForRunEnd } from './team-server.test-support';
import { filesHolding, tablesHolding } from './team-traces.test-support';

const skip = pgSkipReason();
if (skip !== null) console.warn(`team erasure tests skipped: ${skip}`);

describe.skipIf(skip !== null)('team service: deleting removes every trace of the content', () => {
  let s: TeamServer;
  let db: pg.Client;

  beforeAll(async () => {
    s = await startTeamServer(['acme', 'globex']);
    db = new pg.Client({ connectionString: s.databaseUrl });
    await db.connect();
  }, 60_000);
  afterAll(async () => {
    await db?.end();
    await s?.close();
  });

  /** Bytes the ledger charges the tenant's storage for, over the rows `where` picks ($1, $2… are `params`). */
  async function storedBytes(where: string, params: unknown[] = [], tenant = 'acme'): Promise<number> {
    const { rows } = await db.query<{ bytes: string | null }>(
      `SELECT SUM(bytes) AS bytes FROM usage_events WHERE kind = 'storage' AND tenant_id = $${params.length + 1} AND ${where}`,
      [...params, tenant],
    );
    return Number(rows[0].bytes ?? 0);
  }

  /** Writes `marker` through every path a task's content takes; returns the task. */
  async function fillTask(tenant: string, user: string, marker: string): Promise<Task> {
    const task = await expectJson<Task>(await s.as(tenant, user, '/v1/tasks', { method: 'POST', json: { mode: 'general', model: 'fake.main', title: `Task ${marker}` } }), 201);
    const form = new FormData();
    form.append('file', new Blob([`source notes ${marker}\n`], { type: 'text/plain' }), 'notes.txt');
    await expectJson(await s.as(tenant, user, `/v1/tasks/${task.id}/files`, { method: 'POST', body: form }), 201);
    // The model streams the marker and writes it to a file; the write waits on an approval first.
    s.fake.script([
      { text: `Thinking about ${marker}. `, toolCalls: [{ id: 'call_w', name: 'write', arguments: JSON.stringify({ path: 'work/plan.md', content: `# Plan ${marker}` }) }], usage: { prompt: 20, completion: 5 } },
      { text: `Wrote the plan for ${marker}.`, usage: { prompt: 30, completion: 4 } },
    ]);
    const { run_id: runId } = await expectJson<{ run_id: string }>(await s.as(tenant, user, `/v1/tasks/${task.id}/messages`, { method: 'POST', json: { content: `Please plan ${marker}` } }), 200);
    let approvals: PendingApproval[] = [];
    for (let i = 0; i < 200 && approvals.length === 0; i++) {
      ({ approvals } = await expectJson<{ approvals: PendingApproval[] }>(await s.as(tenant, user, `/v1/tasks/${task.id}/approvals`), 200));
      if (approvals.length === 0) await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(approvals).toHaveLength(1);
    await expectJson(await s.as(tenant, user, `/v1/tasks/${task.id}/runs/${runId}/approvals/call_w`, { method: 'POST', json: { decision: 'allow_once' } }), 200);
    expect((await waitForRunEnd(s.as, tenant, user, task.id, runId)).status).toBe('done');
    return task;
  }

  async function fillProject(tenant: string, user: string, marker: string): Promise<string> {
    const project = await expectJson<{ id: string }>(await s.as(tenant, user, '/v1/projects', { method: 'POST', json: { name: `Project ${marker}`, instructions: `Always mention ${marker}` } }), 201);
    const form = new FormData();
    form.append('file', new Blob([`library page about ${marker}\n`], { type: 'text/plain' }), 'paper.txt');
    await expectJson(await s.as(tenant, user, `/v1/projects/${project.id}/files`, { method: 'POST', body: form }), 201);
    // Wait until the page is extracted, so its text (and vector) rows exist before the delete.
    for (let i = 0; i < 200 && (await tablesHolding(db, marker)).every((t) => !t.startsWith('library_pages')); i++) await new Promise((resolve) => setTimeout(resolve, 25));
    expect(await tablesHolding(db, marker)).toEqual(expect.arrayContaining([expect.stringMatching(/^library_pages/)]));
    return project.id;
  }

  it('a deleted task leaves its marker nowhere: not in run events, approvals, messages, files or on disk', async () => {
    const marker = `MRK${randomUUID().replace(/-/g, '')}`;
    const task = await fillTask('acme', 'alice', marker);
    const before = await tablesHolding(db, marker);
    expect(before).toEqual(expect.arrayContaining([expect.stringMatching(/^messages/), expect.stringMatching(/^run_events/), expect.stringMatching(/^tasks/)]));
    expect(filesHolding(s.storageRoot, marker).length).toBeGreaterThan(0);

    await expectJson(await s.as('acme', 'alice', `/v1/tasks/${task.id}`, { method: 'DELETE' }), 200);
    expect(await tablesHolding(db, marker)).toEqual([]);
    expect(filesHolding(s.storageRoot, marker)).toEqual([]);
    // Billing keeps its numbers, without content.
    const { rows } = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM usage_events WHERE tenant_id = 'acme' AND kind = 'tokens'");
    expect(rows[0].n).toBeGreaterThan(0);
  }, 60_000);

  it('a deleted project leaves its marker nowhere: not in library pages, vectors or library files', async () => {
    const marker = `MRK${randomUUID().replace(/-/g, '')}`;
    const projectId = await fillProject('acme', 'alice', marker);
    expect(filesHolding(s.storageRoot, marker).length).toBeGreaterThan(0);
    await expectJson(await s.as('acme', 'alice', `/v1/projects/${projectId}`, { method: 'DELETE' }), 200);
    expect(await tablesHolding(db, marker)).toEqual([]);
    expect(filesHolding(s.storageRoot, marker)).toEqual([]);
  }, 60_000);

  it("erasing a user's data removes their tasks' traces and leaves the tenant's other users alone", async () => {
    const marker = `MRK${randomUUID().replace(/-/g, '')}`;
    const other = `MRK${randomUUID().replace(/-/g, '')}`;
    await fillTask('acme', 'bob', marker);
    await fillTask('acme', 'bob', marker);
    await fillTask('acme', 'carol', other);
    const bobs = (await db.query<{ id: string }>("SELECT id FROM tasks WHERE tenant_id = 'acme' AND user_id = 'bob'")).rows.map((r) => r.id);
    const bobStored = await storedBytes("task_id = ANY($1::text[])", [bobs]);
    const tenantStored = await storedBytes('TRUE');
    expect(bobStored).toBeGreaterThan(0);
    const erased = await eraseUser({ db, storageRoot: s.storageRoot }, 'acme', 'bob');
    expect(erased.tasks).toBe(2);
    // Bob's files no longer fill the tenant's storage quota; carol's still do.
    expect(await storedBytes("task_id = ANY($1::text[])", [bobs])).toBe(0);
    expect(await storedBytes('TRUE')).toBe(tenantStored - bobStored);
    expect(await tablesHolding(db, marker)).toEqual([]);
    expect(filesHolding(s.storageRoot, marker)).toEqual([]);
    expect((await tablesHolding(db, other)).length).toBeGreaterThan(0);
    // Bob may come back: his next request works on an empty slate.
    expect((await expectJson<{ tasks: Task[] }>(await s.as('acme', 'bob', '/v1/tasks'), 200)).tasks).toEqual([]);
  }, 60_000);

  it('erasing a tenant removes every row and file of it, keeps its usage numbers and leaves other tenants alone', async () => {
    const marker = `MRK${randomUUID().replace(/-/g, '')}`;
    const kept = `MRK${randomUUID().replace(/-/g, '')}`;
    await fillTask('globex', 'gina', marker);
    await fillProject('globex', 'gina', marker);
    writeFileSync(join(s.storageRoot, 'tenants', 'globex', 'models', 'keyed.yaml'), fakeProfileYaml(s.fake.url).replace('provider: fake', 'provider: keyed').replace('api_key_env: null', 'api_key_env: GLOBEX_KEY'));
    await expectJson(await s.as('globex', 'gina', '/v1/keys', { method: 'POST', json: { env: 'GLOBEX_KEY', key: `sk-${marker}` } }), 200);
    await fillTask('acme', 'dora', kept);
    expect(await storedBytes('TRUE', [], 'globex')).toBeGreaterThan(0);
    await eraseTenant({ db, storageRoot: s.storageRoot }, 'globex');
    expect(await tablesHolding(db, marker)).toEqual([]);
    expect(filesHolding(s.storageRoot, marker)).toEqual([]);
    const { rows } = await db.query<{ table: string }>(
      `SELECT 'tasks' AS table FROM tasks WHERE tenant_id = 'globex' UNION ALL SELECT 'users' FROM users WHERE tenant_id = 'globex'
       UNION ALL SELECT 'tenants' FROM tenants WHERE id = 'globex' UNION ALL SELECT 'settings' FROM settings WHERE tenant_id = 'globex'`,
    );
    expect(rows).toEqual([]);
    const usage = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM usage_events WHERE tenant_id = 'globex'");
    expect(usage.rows[0].n).toBeGreaterThan(0);
    // Nothing of the tenant is stored any more, so nothing is charged: were it to come back, its quota is whole.
    expect(await storedBytes('TRUE', [], 'globex')).toBe(0);
    expect((await tablesHolding(db, kept)).length).toBeGreaterThan(0);
  }, 90_000);
});
