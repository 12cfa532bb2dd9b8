// The app starts in recovery when folio.db is damaged: web mode answers getHealth with what is
// wrong, every other call with the typed 503, and restoreBackup brings the data back.
import { existsSync, readdirSync, rmSync, truncateSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startHttpServer, type RunningHttpServer } from '../transport/http';
import { findResourcesDir } from '../config/app-paths';
import { makeCore, makeDataDir } from './core-test-kit';
import { sqliteOnly } from '../store/test-store.test-support';
import { createRecoverableCore, type RecoverableCore } from './recovery-core';

const TOKEN = 'recovery-token-0123456789';
let server: RunningHttpServer | undefined;
let core: RecoverableCore | undefined;
const dirs: string[] = [];

afterEach(async () => {
  await server?.close();
  await core?.close();
  server = undefined;
  core = undefined;
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A data folder whose database holds one task and whose newest backup (taken at start) has it. */
async function dataFolderWithBackup(): Promise<{ dataDir: string; taskId: string }> {
  const dataDir = makeDataDir('http://127.0.0.1:9/v1');
  dirs.push(dataDir);
  const first = await makeCore(dataDir);
  const task = await first.handlers.createTask({ mode: 'general', title: '恢复我' });
  await first.handlers.sendMessage({ task_id: task.id, content: 'keep this task' }).catch(() => undefined);
  await first.close();
  // The daily backup is taken at start; drop the first day's so the next start backs up the task.
  rmSync(join(dataDir, 'backups'), { recursive: true, force: true });
  await (await makeCore(dataDir)).close();
  expect(readdirSync(join(dataDir, 'backups'))).toHaveLength(1);
  return { dataDir, taskId: task.id };
}

async function api(path: string, method = 'GET'): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${server?.url}${path}`, { method, headers: { authorization: `Bearer ${TOKEN}` } });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

// Recovery is about folio.db itself: a damaged file, its daily backups, the restore.
const notHere = sqliteOnly('recovery checks and restores the SQLite file folio.db and its backups');
describe.skipIf(notHere !== null)(`recovery state${notHere ? ` (${notHere})` : ''}`, () => {
  it('reports a half-truncated database, refuses other calls with 503, and restores the backup', async () => {
    const { dataDir, taskId } = await dataFolderWithBackup();
    const dbPath = join(dataDir, 'folio.db');
    truncateSync(dbPath, Math.floor(statSync(dbPath).size / 2));

    core = await createRecoverableCore({ dataDir, resourcesDir: findResourcesDir() });
    expect(core.corruption()).toMatchObject({ code: 'database_corrupt', kind: 'damaged' });
    server = await startHttpServer(core, { token: TOKEN, onInternalError: () => undefined });

    const health = await api('/v1/health');
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({ database: 'corrupt', message: expect.stringMatching(/is damaged/) as string, backup_at: expect.any(Number) as number });
    const tasks = await api('/v1/tasks');
    expect(tasks.status).toBe(503);
    expect(tasks.body).toEqual({ error: { name: 'DatabaseCorruptError', code: 'database_corrupt', message: expect.any(String) as string } });

    const restored = await api('/v1/health/restore', 'POST');
    expect(restored.status).toBe(200);
    const corruptCopy = restored.body.corrupt_copy as string;
    expect(corruptCopy).toMatch(/folio\.db\.corrupt-/);
    expect(existsSync(corruptCopy)).toBe(true);
    expect(core.corruption()).toBeNull();
    expect((await api('/v1/health')).body).toMatchObject({ database: 'ok', message: null });
    const after = await api(`/v1/tasks/${taskId}`);
    expect(after.status).toBe(200);
    expect(after.body).toMatchObject({ title: '恢复我' });
    // A second restore has nothing to do.
    expect((await api('/v1/health/restore', 'POST')).status).toBe(409);
  });

  it('a healthy database starts normally', async () => {
    const { dataDir, taskId } = await dataFolderWithBackup();
    core = await createRecoverableCore({ dataDir, resourcesDir: findResourcesDir() });
    expect(core.corruption()).toBeNull();
    expect((await core.handlers.getTask({ task_id: taskId })).title).toBe('恢复我');
    expect(await core.handlers.getHealth({})).toMatchObject({ database: 'ok', backup_at: expect.any(Number) as number });
  });
});
