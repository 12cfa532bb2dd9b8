// Migration 4: a version-3 database gains tasks.reasoning, keeps every task, and existing
// tasks read as "the profile's default" (null).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { latestSchemaVersion, openStore, type Store } from './index';
import { migrations } from './migrations';
import { openDatabase } from './open-database';
import { makeTempDir } from './test-helpers';

let temp: ReturnType<typeof makeTempDir>;
let store: Store | undefined;
beforeEach(() => {
  temp = makeTempDir();
});
afterEach(() => {
  store?.close();
  store = undefined;
  temp.cleanup();
});

describe('migration 4: tasks.reasoning', () => {
  it('keeps version-3 tasks with reasoning null, then stores and clears a setting', () => {
    const raw = openDatabase(temp.dbPath, migrations.filter((m) => m.version <= 3));
    expect(raw.pragma('user_version', { simple: true })).toBe(3);
    raw
      .prepare("INSERT INTO tasks (id, title, mode, model, allow_network, created_at, updated_at) VALUES ('t1', 'Old proposal', 'proposal', 'deepseek.pro', 1, 1, 2)")
      .run();
    raw.close();

    store = openStore(temp.dbPath, { now: () => 10 });
    expect(store.db.pragma('user_version', { simple: true })).toBe(latestSchemaVersion);
    expect(store.tasks.get('t1')).toMatchObject({ title: 'Old proposal', mode: 'proposal', model: 'deepseek.pro', allow_network: true, reasoning: null });

    expect(store.tasks.update('t1', { reasoning: 'max' }).reasoning).toBe('max');
    // Another field's patch leaves the setting alone; null is a value ("back to the default").
    expect(store.tasks.update('t1', { title: 'Renamed' }).reasoning).toBe('max');
    expect(store.tasks.update('t1', { reasoning: null }).reasoning).toBeNull();
    expect(store.tasks.create({ id: 't2', mode: 'general', title: '', description: '', model: null, reasoning: 'none' }).reasoning).toBe('none');
  });

  it('the column refuses values outside none/thinking/max', () => {
    store = openStore(temp.dbPath, { now: () => 10 });
    store.tasks.create({ id: 't1', mode: 'general', title: '', description: '', model: null });
    expect(() => store?.db.prepare("UPDATE tasks SET reasoning = 'ultra' WHERE id = 't1'").run()).toThrow(/CHECK constraint failed/);
    expect(store.tasks.get('t1')?.reasoning).toBeNull();
  });
});
