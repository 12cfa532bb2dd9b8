// The core on a store that is not the SQLite file (the team service's PostgreSQL): here a port over
// SQLite that calls itself postgres, so the SQLite-only parts (backups) are seen to stand aside
// instead of failing the start, while the library (search, the embedding backfill) goes through the
// port like everything else.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findResourcesDir } from '../config/app-paths';
import { openSqliteStorePort } from '../store/sqlite-port';
import { makeDataDir } from './core-test-kit';
import { createCore, type Core } from './create-core';

let core: Core | undefined;
let dataDir: string | undefined;
afterEach(async () => {
  await core?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('createCore with an opened store', () => {
  it('runs on a non-SQLite port: tasks work, library search answers through the port, health has no backups', async () => {
    dataDir = makeDataDir('http://127.0.0.1:9/v1');
    const opened = openSqliteStorePort(join(dataDir, 'other.db'));
    let closed = false;
    core = await createCore({
      dataDir,
      resourcesDir: findResourcesDir(),
      env: { PATH: process.env.PATH },
      store: { port: { ...opened.port, dialect: 'postgres' }, close: async () => ((closed = true), opened.close()) },
    });
    const task = await core.handlers.createTask({ mode: 'general', title: 'on the port' });
    expect(opened.store.tasks.get(task.id)?.title).toBe('on the port');
    expect(await core.handlers.searchLibrary({ project_id: 'personal', q: 'anything' })).toEqual({ hits: [], mode: 'text', note: null });
    expect(await core.handlers.getHealth({})).toMatchObject({ database: 'ok', backup_at: null });
    expect(core.backfill.status()).toEqual({ running: false, embedded: 0, error: null });
    await core.close();
    core = undefined;
    expect(closed).toBe(true);
  });

  it.each([{ teamPolicy: false }, { teamPolicy: true }])('answers with frozen handlers (teamPolicy: $teamPolicy): none is reassigned after construction', async ({ teamPolicy }) => {
    dataDir = makeDataDir('http://127.0.0.1:9/v1');
    core = await createCore({ dataDir, resourcesDir: findResourcesDir(), env: { PATH: process.env.PATH }, teamPolicy });
    expect(Object.isFrozen(core.handlers)).toBe(true);
    const { getUsage } = core.handlers;
    expect(() => {
      (core!.handlers as { getUsage: unknown }).getUsage = async () => ({});
    }).toThrow(TypeError);
    expect(core.handlers.getUsage).toBe(getUsage);
  });
});
