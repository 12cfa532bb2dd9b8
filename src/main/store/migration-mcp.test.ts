// Migration 6 (MCP): approvals accept kind 'mcp' with every pending question kept; tasks
// gain mcp_servers (null: none), settable through the repo.
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
  temp.cleanup();
});

describe('migration 6', () => {
  it('rebuilds approvals so kind mcp is accepted, keeping pending approvals; tasks get mcp_servers', () => {
    const raw = openDatabase(temp.dbPath, migrations.filter((m) => m.version < 6));
    raw.prepare("INSERT INTO tasks (id, title, mode, created_at, updated_at) VALUES ('t', 't', 'general', 1, 1)").run();
    raw
      .prepare("INSERT INTO approvals (run_id, call_id, task_id, name, arguments, kind, risk, detail, created_at) VALUES ('r', 'c1', 't', 'write', '{}', 'edit', 'standard', NULL, 5)")
      .run();
    expect(() =>
      raw.prepare("INSERT INTO approvals (run_id, call_id, task_id, name, arguments, kind, risk, detail, created_at) VALUES ('r', 'c2', 't', 'mcp__a__b', '{}', 'mcp', 'standard', NULL, 6)").run(),
    ).toThrow(/CHECK/);
    raw.close();

    store = openStore(temp.dbPath);
    expect(store.db.pragma('user_version', { simple: true })).toBe(latestSchemaVersion);
    expect(store.approvals.list('t')).toMatchObject([{ call_id: 'c1', kind: 'edit', created_at: 5 }]);
    store.approvals.put('t', { run_id: 'r', call_id: 'c2', name: 'mcp__a__b', arguments: '{}', kind: 'mcp', risk: 'standard', detail: 'MCP server "a"', reasons: [], created_at: 6 });
    expect(store.approvals.get('r', 'c2')).toMatchObject({ kind: 'mcp' });
    // The task's approvals still go with it.
    expect(store.tasks.get('t')!.mcp_servers).toBeNull();
    expect(store.tasks.update('t', { mcp_servers: ['github', 'files'] }).mcp_servers).toEqual(['github', 'files']);
    expect(store.tasks.update('t', { title: 'renamed' }).mcp_servers).toEqual(['github', 'files']);
    expect(store.tasks.update('t', { mcp_servers: null }).mcp_servers).toBeNull();
    store.tasks.delete('t');
    expect(store.approvals.list('t')).toEqual([]);
  });
});
