// Retention per plan on the team service's PostgreSQL database: a dry run lists and changes nothing;
// a pass archives the tasks idle past their plan's days (telling the person in the task when the
// files go), a later pass removes the files of those still unused and frees their storage, a task
// used again is active again, a tenant without such a plan keeps everything, and only one pass runs
// at a time.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileEntry, Message, Task } from '../../shared/contract/entities';
import { parseSystemNotice } from '../../shared/contract/system-notices';
import { pgSkipReason } from '../../../testing/postgres/test-database';
import { DAY_MS } from './retention';
import { retentionCommand } from './retention-command';
import { tenantCommand } from './tenant-command';
import { expectJson, startTeamServer, type TeamServer } from './team-server.test-support';

const skip = pgSkipReason();
if (skip !== null) console.warn(`team retention tests skipped: ${skip}`);

describe.skipIf(skip !== null)('team service: retention per plan', () => {
  let s: TeamServer;
  let db: pg.Client;
  let old: Task;
  let recent: Task;
  let revived: Task;
  let otherTenant: Task;

  async function taskWithFile(tenant: string, user: string, title: string, bytes: number): Promise<Task> {
    const task = await expectJson<Task>(await s.as(tenant, user, '/v1/tasks', { method: 'POST', json: { mode: 'general', model: 'fake.main', title } }), 201);
    const form = new FormData();
    form.append('file', new Blob(['r'.repeat(bytes)], { type: 'text/plain' }), 'notes.txt');
    await expectJson(await s.as(tenant, user, `/v1/tasks/${task.id}/files`, { method: 'POST', body: form }), 201);
    return task;
  }
  const storage = async (tenant: string, user: string) => (await expectJson<{ storage_bytes: number }>(await s.as(tenant, user, '/v1/usage'), 200)).storage_bytes;
  const files = async (tenant: string, user: string, task: Task) => (await expectJson<{ files: FileEntry[] }>(await s.as(tenant, user, `/v1/tasks/${task.id}/files`), 200)).files.map((f) => f.path);
  const systemNotes = async (tenant: string, user: string, task: Task) =>
    (await expectJson<{ messages: Message[] }>(await s.as(tenant, user, `/v1/tasks/${task.id}/messages`), 200)).messages.filter((m) => m.role === 'system').map((m) => m.content);
  async function retention(args: string[], now = Date.now()): Promise<{ code: number; lines: string[] }> {
    const lines: string[] = [];
    const code = await retentionCommand([...args, '--database', s.databaseUrl], { out: (l) => lines.push(l), err: (l) => lines.push(l), now });
    return { code, lines };
  }
  const archivedRows = async () => (await db.query<{ task_id: string; purged: boolean }>('SELECT task_id, files_purged_at IS NOT NULL AS purged FROM task_retention ORDER BY task_id')).rows;
  const age = (task: Task, days: number) => db.query('UPDATE tasks SET updated_at = $1 WHERE id = $2', [Date.now() - days * DAY_MS, task.id]);

  beforeAll(async () => {
    s = await startTeamServer(['acme', 'globex']);
    db = new pg.Client({ connectionString: s.databaseUrl });
    await db.connect();
    old = await taskWithFile('acme', 'alice', 'Old survey', 300);
    recent = await taskWithFile('acme', 'alice', 'This week', 100);
    revived = await taskWithFile('acme', 'alice', 'Comes back', 40);
    otherTenant = await taskWithFile('globex', 'gus', 'Kept forever', 50);
    expect((await retention(['set-plan', '--plan', 'short', '--archive-after-days', '30', '--purge-files-after-days', '7'])).lines).toEqual([
      'Plan short: archive tasks unused for 30 days; remove an archived task\'s files after 7 days.',
    ]);
    expect(await tenantCommand(['set-plan', '--database', s.databaseUrl, '--tenant', 'acme', '--plan', 'short'], { out: () => undefined })).toBe(0);
    await age(old, 40);
    await age(revived, 40);
    await age(otherTenant, 400);
  }, 60_000);
  afterAll(async () => {
    await db?.end();
    await s?.close();
  });

  it('lists what a pass would do on a dry run, and changes nothing', async () => {
    const { code, lines } = await retention(['run', '--storage-root', s.storageRoot, '--dry-run']);
    expect(code).toBe(0);
    expect(lines).toHaveLength(2);
    expect(lines.join('\n')).toContain(`would archive acme/${old.id} "Old survey" (user alice, plan short)`);
    expect(lines.join('\n')).toContain(`would archive acme/${revived.id} "Comes back"`);
    expect(lines.join('\n')).not.toContain(recent.id);
    expect(lines.join('\n')).not.toContain(otherTenant.id);
    // In a Chinese terminal the same plan is said in Chinese.
    const zh: string[] = [];
    await retentionCommand(['run', '--storage-root', s.storageRoot, '--dry-run', '--database', s.databaseUrl], { env: { LC_ALL: 'zh_CN.UTF-8' }, out: (l) => zh.push(l) });
    expect(zh.join('\n')).toContain(`将归档 acme/${old.id}“Old survey”（用户 alice，方案 short）：自 `);
    expect(await archivedRows()).toEqual([]);
    expect(await systemNotes('acme', 'alice', old)).toEqual([]);
  });

  it('archives the idle tasks, telling the person in the task when their files go; the files stay for now', async () => {
    const { code, lines } = await retention(['run', '--storage-root', s.storageRoot]);
    expect(code).toBe(0);
    expect(lines.filter((l) => l.startsWith('archive '))).toHaveLength(2);
    expect((await archivedRows()).map((r) => r.task_id).sort()).toEqual([old.id, revived.id].sort());
    const before = Date.now();
    const [note] = await systemNotes('acme', 'alice', old);
    // Stored as data (what happened and when the files go), worded by each screen in its own language.
    const notice = parseSystemNotice(note);
    expect(notice).toMatchObject({ notice: 'task_archived', idle_days: 30 });
    const purgeAt = (notice as { purge_at: number }).purge_at;
    expect(purgeAt).toBeGreaterThan(before + 6 * DAY_MS);
    expect(purgeAt).toBeLessThanOrEqual(Date.now() + 7 * DAY_MS);
    expect(note).not.toMatch(/Archived|归档/u);
    expect(await files('acme', 'alice', old)).toEqual(['source/notes.txt']);
    expect(await storage('acme', 'alice')).toBe(440);
    // A second pass finds nothing new.
    expect((await retention(['run', '--storage-root', s.storageRoot])).lines).toEqual(['nothing to archive or purge']);
  });

  it("removes the files of archived tasks still unused after the plan's days and frees their storage; a task used again keeps its files", async () => {
    // The person comes back to one of them (after it was archived).
    await db.query('UPDATE task_retention SET archived_at = archived_at - 60000 WHERE task_id = $1', [revived.id]);
    await expectJson(await s.as('acme', 'alice', `/v1/tasks/${revived.id}`, { method: 'PATCH', json: { title: 'Comes back, renamed' } }), 200);

    const dryRun = await retention(['run', '--storage-root', s.storageRoot, '--dry-run'], Date.now() + 8 * DAY_MS);
    expect(dryRun.lines.sort()).toEqual([`would purge acme/${old.id} "Old survey" (user alice, plan short): archived ${new Date().toISOString().slice(0, 10)}, 300 bytes of files`, `would reactivate acme/${revived.id}: used again since it was archived`].sort());
    expect(await files('acme', 'alice', old)).toEqual(['source/notes.txt']);

    const { lines } = await retention(['run', '--storage-root', s.storageRoot], Date.now() + 8 * DAY_MS);
    expect(lines.map((l) => l.split(' ')[0]).sort()).toEqual(['purge', 'reactivate']);
    expect(await files('acme', 'alice', old)).toEqual([]);
    expect(await storage('acme', 'alice')).toBe(140);
    const notes = await systemNotes('acme', 'alice', old);
    expect(notes).toHaveLength(2);
    const purged = parseSystemNotice(notes[1]);
    expect(purged?.notice).toBe('task_files_purged');
    expect(Object.keys(purged ?? {}).sort()).toEqual(['archived_at', 'notice']);
    expect(new Date((purged as { archived_at: number }).archived_at).toISOString().slice(0, 10)).toBe(new Date().toISOString().slice(0, 10));
    expect(notes[1]).not.toMatch(/removed|删除/u);
    // The conversation and the task stay; the revived task is active with its files.
    expect((await expectJson<Task>(await s.as('acme', 'alice', `/v1/tasks/${old.id}`), 200)).title).toBe('Old survey');
    expect(await files('acme', 'alice', revived)).toEqual(['source/notes.txt']);
    expect(await archivedRows()).toEqual([{ task_id: old.id, purged: true }]);
    // The tenant without a retention plan keeps its idle task's files.
    expect(await files('globex', 'gus', otherTenant)).toEqual(['source/notes.txt']);
    expect(await storage('globex', 'gus')).toBe(50);
    // The purged task is neither archived again nor purged again.
    const later = (await retention(['run', '--storage-root', s.storageRoot, '--dry-run'], Date.now() + 100 * DAY_MS)).lines.join('\n');
    expect(later).toContain(`would archive acme/${recent.id}`);
    expect(later).not.toContain(old.id);
  });

  it('runs one pass at a time: while another holds the lock, a pass does nothing', async () => {
    await age(recent, 40);
    await db.query("SELECT pg_advisory_lock(hashtext('folio:retention'))");
    try {
      const { code, lines } = await retention(['run', '--storage-root', s.storageRoot]);
      expect(code).toBe(3);
      expect(lines).toEqual(['Another retention pass is running (a worker holds the lock); nothing done.']);
      expect(await systemNotes('acme', 'alice', recent)).toEqual([]);
    } finally {
      await db.query("SELECT pg_advisory_unlock(hashtext('folio:retention'))");
    }
    expect((await retention(['run', '--storage-root', s.storageRoot])).lines.join('\n')).toContain(`archive acme/${recent.id}`);
  });
});
