// Migration 8 on a desktop data folder: every existing row becomes the local tenant's
// and user's, settings keep their values under the tenant-keyed primary key, and the team tables
// appear (derived from the PostgreSQL DDL, so STRICT would reject any type left untranslated).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from './index';
import { migrations, teamSchemaForSqlite } from './migrations';
import { openDatabase } from './open-database';
import { makeTempDir } from './test-helpers';

let temp: ReturnType<typeof makeTempDir>;
let store: Store | undefined;
beforeEach(() => {
  temp = makeTempDir();
});
afterEach(() => {
  store?.close();
  temp.cleanup();
});

describe('migration 8', () => {
  it('makes existing rows the local tenant’s and keeps settings writable', () => {
    const raw = openDatabase(temp.dbPath, migrations.filter((m) => m.version < 8));
    raw.prepare("INSERT INTO tasks (id, title, mode, created_at, updated_at) VALUES ('t', 't', 'general', 1, 1)").run();
    raw.prepare("INSERT INTO settings (key, value) VALUES ('language', '\"zh-CN\"')").run();
    raw.prepare("INSERT INTO library_files (id, path, size, mtime_ms, sha256, created_at, updated_at) VALUES ('f', 'a.pdf', 1, 1, 's', 1, 1)").run();
    raw.close();

    store = openStore(temp.dbPath);
    const owner = store.db.prepare<[], { tenant_id: string; user_id: string }>("SELECT tenant_id, user_id FROM tasks WHERE id = 't'").get();
    expect(owner).toEqual({ tenant_id: 'local', user_id: 'local' });
    expect(store.settings.get('language')).toBe('zh-CN');
    store.settings.set('language', 'en');
    expect(store.settings.get('language')).toBe('en');
    // The library stays one path per library.
    expect(() => store!.library.add({ id: 'g', project_id: null, path: 'a.pdf', size: 1, mtime_ms: 1, sha256: 's' })).toThrow(/already has a.pdf/u);
    expect(store.db.prepare("SELECT id FROM users WHERE tenant_id = 'local'").pluck().all()).toEqual(['local']);
  });

  it('derives SQLite DDL from the PostgreSQL team schema', () => {
    const sqlite = teamSchemaForSqlite('CREATE TABLE w (\n  id BIGSERIAL PRIMARY KEY,\n  n BIGINT,\n  c DOUBLE PRECISION,\n  e JSONB,\n  draining BOOLEAN NOT NULL DEFAULT FALSE\n);');
    expect(sqlite).toBe('CREATE TABLE w (\n  id INTEGER PRIMARY KEY,\n  n INTEGER,\n  c REAL,\n  e TEXT,\n  draining INTEGER NOT NULL DEFAULT 0 CHECK (draining IN (0, 1))\n) STRICT;');
  });
});
