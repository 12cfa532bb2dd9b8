import type { PendingApproval } from '../../shared/contract';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FolioError } from '../../shared/errors';
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

/** A clock that ticks one ms per read, so ordering by time is deterministic. */
function tickingClock(start = 1_700_000_000_000): () => number {
  let t = start;
  return () => t++;
}

function open(): Store {
  store = openStore(temp.dbPath, { now: tickingClock() });
  return store;
}

function sha256(file: string): string {
  return createHash('sha256').update(fs.readFileSync(file)).digest('hex');
}

function newTask(s: Store, id: string, extra: Partial<{ title: string; description: string }> = {}) {
  return s.tasks.create({ id, mode: 'general', title: extra.title ?? id, description: extra.description ?? '', model: null });
}

function say(s: Store, taskId: string, id: string, content = id) {
  return s.messages.append({ id, task_id: taskId, run_id: null, role: 'user', content });
}

describe('migrations', () => {
  it('create every table from empty, set user_version and are idempotent on reopen', () => {
    let s = open();
    const tables = s.db
      .prepare<[], string>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
      .pluck()
      .all();
    expect(tables).toEqual([
      'approval_decisions', 'approvals', 'audit_events', 'files', 'library_files', 'library_fts', 'library_fts_config', 'library_fts_data', 'library_fts_docsize',
      'library_fts_idx', 'library_pages', 'messages', 'plans', 'projects', 'quotas', 'rate_buckets', 'run_events', 'run_leases', 'runs', 'settings',
      'task_retention', 'tasks', 'tenants', 'tool_grants', 'usage_events', 'users', 'workers',
    ]);
    expect(s.db.pragma('user_version', { simple: true })).toBe(latestSchemaVersion);
    expect(s.db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(s.db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(s.db.pragma('synchronous', { simple: true })).toBe(1); // NORMAL
    expect(s.db.pragma('busy_timeout', { simple: true })).toBe(5000);
    newTask(s, 't1');
    s.close();

    s = open();
    expect(s.db.pragma('user_version', { simple: true })).toBe(latestSchemaVersion);
    expect(s.tasks.get('t1')?.title).toBe('t1');
    expect(s.integrityCheck()).toBe('ok');
  });

  it('refuses a database written by a newer schema and leaves its bytes unchanged', () => {
    const raw = new Database(temp.dbPath);
    raw.exec('CREATE TABLE future (x INTEGER)');
    raw.pragma(`user_version = ${latestSchemaVersion + 5}`);
    raw.close();
    const before = sha256(temp.dbPath);
    const filesBefore = fs.readdirSync(temp.dir);

    let caught: unknown;
    try {
      openStore(temp.dbPath);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(FolioError);
    expect((caught as FolioError).code).toBe('schema_too_new');
    expect((caught as FolioError).message).toBe(
      `This data folder was written by a newer Folio (schema ${latestSchemaVersion + 5}, this build knows ${latestSchemaVersion}). Update Folio; the data was left untouched.`,
    );
    expect(sha256(temp.dbPath)).toBe(before);
    expect(fs.readdirSync(temp.dir)).toEqual(filesBefore);
  });

  it('also refuses a newer schema whose header is still in the WAL, without changing the main file', () => {
    const s = open();
    s.close();
    store = undefined;
    // Keep the WAL un-checkpointed by holding a second connection while the writer closes.
    const holder = new Database(temp.dbPath);
    holder.prepare('SELECT COUNT(*) FROM tasks').get();
    const writer = new Database(temp.dbPath);
    writer.pragma('wal_autocheckpoint = 0');
    writer.pragma(`user_version = ${latestSchemaVersion + 1}`);
    writer.close();
    expect(fs.statSync(`${temp.dbPath}-wal`).size).toBeGreaterThan(0);
    const before = sha256(temp.dbPath);

    expect(() => openStore(temp.dbPath)).toThrow(/schema \d+, this build knows/);
    expect(sha256(temp.dbPath)).toBe(before);
    holder.close();
  });

  it('refuses a file that is not an SQLite database without touching it', () => {
    fs.writeFileSync(temp.dbPath, 'definitely not sqlite '.repeat(10));
    const before = sha256(temp.dbPath);
    expect(() => openStore(temp.dbPath)).toThrow(expect.objectContaining({ code: 'unsupported' }) as Error);
    expect(sha256(temp.dbPath)).toBe(before);
  });
});

describe('tasks', () => {
  it('purges only never-used tasks after a restart (lazy creation)', () => {
    let s = open();
    newTask(s, 'used', { title: '' });
    newTask(s, 'unused', { title: '' });
    newTask(s, 'has-message', { title: '' });
    newTask(s, 'has-file', { title: '' });
    s.tasks.markMaterialized('used');
    say(s, 'has-message', 'm1');
    s.files.upsert({ task_id: 'has-file', path: 'source/a.pdf', kind: 'source', size: 3, sha256: 'abc', created_at: 1 });
    expect(s.tasks.isMaterialized('used')).toBe(true);
    expect(s.tasks.isMaterialized('unused')).toBe(false);
    s.close();

    s = open();
    expect(s.tasks.purgeUnmaterialized()).toEqual(['unused']);
    expect(s.tasks.list().map((t) => t.id).sort()).toEqual(['has-file', 'has-message', 'used']);
    expect(s.tasks.get('unused')).toBeUndefined();
    expect(s.tasks.purgeUnmaterialized()).toEqual([]);
  });

  it('creates with defaults, updates a patch (null clears), and reports last_run', () => {
    const s = open();
    const t = s.tasks.create({ id: 't1', mode: 'coding', title: 'Fix', description: 'd', model: 'm1', workspace_path: '/w' });
    expect(t).toMatchObject({ status: 'active', approval_mode: 'ask', workspace_path: '/w', model: 'm1', last_run: null, cost: 0 });
    const u = s.tasks.update('t1', { title: 'Fix bug', model: null, approval_mode: 'auto-edit', description: undefined });
    expect(u).toMatchObject({ title: 'Fix bug', model: null, approval_mode: 'auto-edit', description: 'd', workspace_path: '/w' });
    expect(u.updated_at).toBeGreaterThan(t.updated_at);

    s.runs.create({ id: 'r1', task_id: 't1', model: 'm1' });
    s.runs.create({ id: 'r2', task_id: 't1', model: 'm1' });
    s.runs.finish('r2', 'done');
    expect(s.tasks.get('t1')?.last_run).toEqual({ id: 'r2', status: 'done' });

    expect(() => s.tasks.update('nope', { title: 'x' })).toThrow(expect.objectContaining({ code: 'not_found' }) as Error);
    expect(() => newTask(s, 't1')).toThrow(expect.objectContaining({ code: 'conflict' }) as Error);
    expect(s.tasks.delete('t1')).toBe(true);
    expect(s.tasks.delete('t1')).toBe(false);
  });

  it('keeps the network switch off by default and changes it only when the patch names it', () => {
    const s = open();
    expect(newTask(s, 't1').allow_network).toBe(false);
    expect(s.tasks.update('t1', { allow_network: true }).allow_network).toBe(true);
    expect(s.tasks.update('t1', { title: 'x' }).allow_network).toBe(true);
    expect(s.tasks.update('t1', { allow_network: false }).allow_network).toBe(false);
  });

  it('lists newest updated first, filters by status, and searches case-insensitively', () => {
    const s = open();
    newTask(s, 'a', { title: 'Quarterly Report' });
    newTask(s, 'b', { title: 'Slides', description: 'about the QUARTERLY numbers' });
    newTask(s, 'c', { title: '季度报告' });
    s.tasks.touch('a');
    expect(s.tasks.list().map((t) => t.id)).toEqual(['a', 'c', 'b']);
    expect(s.tasks.list({ q: 'quarterly' }).map((t) => t.id)).toEqual(['a', 'b']);
    expect(s.tasks.list({ q: '报告' }).map((t) => t.id)).toEqual(['c']);
    s.tasks.update('b', { status: 'completed' });
    expect(s.tasks.list({ status: 'completed' }).map((t) => t.id)).toEqual(['b']);
    expect(s.tasks.list({ status: 'active', q: 'QUARTER' }).map((t) => t.id)).toEqual(['a']);
  });

  it('matches % and _ in the search literally', () => {
    const s = open();
    newTask(s, 'pct', { title: '100% done' });
    newTask(s, 'plain', { title: '1000 done' });
    newTask(s, 'under', { title: 'file_name' });
    newTask(s, 'nounder', { title: 'filename' });
    newTask(s, 'slash', { title: 'a\\b' });
    expect(s.tasks.list({ q: '0%' }).map((t) => t.id)).toEqual(['pct']);
    expect(s.tasks.list({ q: '%' }).map((t) => t.id)).toEqual(['pct']);
    expect(s.tasks.list({ q: 'e_n' }).map((t) => t.id)).toEqual(['under']);
    expect(s.tasks.list({ q: '_' }).map((t) => t.id)).toEqual(['under']);
    expect(s.tasks.list({ q: '\\' }).map((t) => t.id)).toEqual(['slash']);
  });

  it('accumulates usage per task and in the usage report', () => {
    const s = open();
    newTask(s, 'a', { title: 'A' });
    newTask(s, 'b', { title: 'B' });
    newTask(s, 'idle');
    s.tasks.addUsage('a', { prompt_tokens: 100, completion_tokens: 10, cost: 0.5 });
    s.tasks.addUsage('a', { prompt_tokens: 50, completion_tokens: 5, cost: 0.25 });
    s.tasks.addUsage('b', { prompt_tokens: 1, completion_tokens: 2, cost: 1 });
    s.tasks.addUsage('gone', { prompt_tokens: 1, completion_tokens: 1, cost: 1 }); // unknown id: ignored
    expect(s.tasks.get('a')).toMatchObject({ prompt_tokens: 150, completion_tokens: 15, cost: 0.75 });
    const report = s.usage();
    expect(report.total).toEqual({ prompt_tokens: 151, completion_tokens: 17, cost: 1.75 });
    expect(report.tasks).toEqual([
      { task_id: 'b', title: 'B', prompt_tokens: 1, completion_tokens: 2, cost: 1 },
      { task_id: 'a', title: 'A', prompt_tokens: 150, completion_tokens: 15, cost: 0.75 },
    ]);

    s.runs.create({ id: 'r1', task_id: 'a', model: null });
    s.runs.addUsage('r1', { prompt_tokens: 7, completion_tokens: 3, cost: 0.1 });
    s.runs.addUsage('r1', { prompt_tokens: 7, completion_tokens: 3, cost: 0.1 });
    expect(s.runs.get('r1')).toMatchObject({ prompt_tokens: 14, completion_tokens: 6, cost: 0.2 });
  });

  it('cascades a task delete to its messages, runs, files, approvals and grants', () => {
    const s = open();
    newTask(s, 'doomed');
    newTask(s, 'kept');
    say(s, 'doomed', 'm1');
    say(s, 'kept', 'm2');
    s.runs.create({ id: 'r1', task_id: 'doomed', model: null });
    s.files.upsert({ task_id: 'doomed', path: 'work/x.md', kind: 'work', size: 1, sha256: 'h', created_at: 1 });
    s.approvals.put('doomed', {
      run_id: 'r1', call_id: 'c1', name: 'shell', arguments: '{}', kind: 'execute', risk: 'standard', detail: null, reasons: [], created_at: 1,
    });
    s.grants.grant('doomed', 'shell');

    expect(s.tasks.delete('doomed')).toBe(true);
    const count = (table: string) => s.db.prepare<[], number>(`SELECT COUNT(*) FROM ${table}`).pluck().get();
    expect(count('messages')).toBe(1);
    expect(count('runs')).toBe(0);
    expect(count('files')).toBe(0);
    expect(count('approvals')).toBe(0);
    expect(count('tool_grants')).toBe(0);
    expect(s.messages.get('m2')?.task_id).toBe('kept');
  });
});

describe('messages', () => {
  it('pages backwards with before_seq, limit and has_more, each page ascending', () => {
    const s = open();
    newTask(s, 't');
    for (let i = 1; i <= 25; i++) say(s, 't', `m${i}`);

    const newest = s.messages.list('t', { limit: 10 });
    expect(newest.messages.map((m) => m.seq)).toEqual([16, 17, 18, 19, 20, 21, 22, 23, 24, 25]);
    expect(newest.has_more).toBe(true);
    const older = s.messages.list('t', { beforeSeq: 16, limit: 10 });
    expect(older.messages.map((m) => m.seq)).toEqual([6, 7, 8, 9, 10, 11, 12, 13, 14, 15]);
    expect(older.has_more).toBe(true);
    const oldest = s.messages.list('t', { beforeSeq: 6, limit: 10 });
    expect(oldest.messages.map((m) => m.seq)).toEqual([1, 2, 3, 4, 5]);
    expect(oldest.has_more).toBe(false);
    const exact = s.messages.list('t', { beforeSeq: 11, limit: 10 });
    expect(exact.messages.map((m) => m.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(exact.has_more).toBe(false);

    const all = s.messages.list('t');
    expect(all.messages).toHaveLength(25);
    expect(all.has_more).toBe(false);
    expect(s.messages.list('empty-task')).toEqual({ messages: [], has_more: false });
    expect(() => s.messages.list('t', { limit: 0 })).toThrow(expect.objectContaining({ code: 'invalid_input' }) as Error);
  });

  it('numbers interleaved appends to two tasks independently and without gaps', () => {
    const s = open();
    newTask(s, 'a');
    newTask(s, 'b');
    for (let i = 0; i < 30; i++) {
      say(s, i % 3 === 0 ? 'b' : 'a', `m${i}`);
    }
    const seqs = (t: string) => s.messages.all(t).map((m) => m.seq);
    expect(seqs('a')).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(seqs('b')).toEqual(Array.from({ length: 10 }, (_, i) => i + 1));
    expect(() => s.db.prepare("UPDATE messages SET seq = 1 WHERE id = 'm2'").run()).toThrow(/UNIQUE/);
  });

  it('stores tool calls and results, finalizes a streamed message, and finds a tool result', () => {
    const s = open();
    newTask(s, 't');
    const streaming = s.messages.append({ id: 'a1', task_id: 't', run_id: 'r1', role: 'assistant', content: '' });
    expect(streaming).toMatchObject({ seq: 1, reasoning: null, tool_calls: null, is_error: false, name: null });
    const calls = [{ id: 'call_1', name: 'read_file', arguments: '{"path":"a"}' }];
    const final = s.messages.update('a1', { content: 'Reading.', reasoning: 'think', tool_calls: calls });
    expect(final).toMatchObject({ content: 'Reading.', reasoning: 'think', tool_calls: calls, seq: 1 });
    expect(s.messages.update('a1', { reasoning: null })).toMatchObject({ content: 'Reading.', reasoning: null, tool_calls: calls });
    s.messages.append({
      id: 'tool1', task_id: 't', run_id: 'r1', role: 'tool', content: 'ENOENT', tool_call_id: 'call_1', name: 'read_file', is_error: true,
    });
    expect(s.messages.findToolResult('t', 'call_1')).toMatchObject({ id: 'tool1', is_error: true, name: 'read_file', seq: 2 });
    expect(s.messages.findToolResult('t', 'call_2')).toBeUndefined();
    expect(() => s.messages.update('missing', { content: 'x' })).toThrow(expect.objectContaining({ code: 'not_found' }) as Error);
    expect(() => say(s, 'no-such-task', 'x')).toThrow(expect.objectContaining({ code: 'not_found' }) as Error);
    expect(() => say(s, 't', 'a1')).toThrow(expect.objectContaining({ code: 'conflict' }) as Error);
    expect(s.messages.all('t').map((m) => m.seq)).toEqual([1, 2]);
  });
});

describe('runs', () => {
  it('marks running runs interrupted at start-up and keeps finished ones', () => {
    let s = open();
    newTask(s, 't');
    s.runs.create({ id: 'r1', task_id: 't', model: 'm' });
    s.runs.create({ id: 'r2', task_id: 't', model: 'm' });
    s.runs.create({ id: 'r3', task_id: 't', model: null });
    s.runs.finish('r1', 'failed', 'provider down');
    s.close();

    s = open();
    const interrupted = s.runs.markRunningAsInterrupted();
    expect(interrupted.map((r) => r.id).sort()).toEqual(['r2', 'r3']);
    expect(interrupted.every((r) => r.status === 'interrupted' && r.finished_at !== null)).toBe(true);
    expect(s.runs.get('r1')).toMatchObject({ status: 'failed', error: 'provider down' });
    expect(s.runs.markRunningAsInterrupted()).toEqual([]);
    expect(s.runs.list('t').map((r) => r.id)).toEqual(['r3', 'r2', 'r1']);
    expect(s.runs.latestForTask('t')?.id).toBe('r3');
    expect(s.runs.latestForTask('other')).toBeUndefined();
  });

  it('round-trips resumable state as JSON', () => {
    const s = open();
    newTask(s, 't');
    s.runs.create({ id: 'r1', task_id: 't', model: null });
    expect(s.runs.getState('r1')).toBeUndefined();
    s.runs.setState('r1', { step: 3, pending: ['c1'], note: '中文' });
    expect(s.runs.getState('r1')).toEqual({ step: 3, pending: ['c1'], note: '中文' });
    s.runs.setState('r1', null);
    expect(s.runs.getState('r1')).toBeUndefined();
    expect(() => s.runs.setState('nope', 1)).toThrow(expect.objectContaining({ code: 'not_found' }) as Error);
    expect(() => s.runs.finish('nope', 'done')).toThrow(expect.objectContaining({ code: 'not_found' }) as Error);
    expect(() => s.runs.create({ id: 'r2', task_id: 'nope', model: null })).toThrow(
      expect.objectContaining({ code: 'not_found' }) as Error,
    );
  });
});

describe('files, approvals, grants, settings', () => {
  it('upserts files by (task, path) and lists them by path', () => {
    const s = open();
    newTask(s, 't');
    s.files.upsert({ task_id: 't', path: 'work/b.md', kind: 'work', size: 1, sha256: 'x', created_at: 1 });
    s.files.upsert({ task_id: 't', path: 'artifacts/a.pptx', kind: 'artifact', size: 2, sha256: 'y', created_at: 2 });
    const replaced = s.files.upsert({ task_id: 't', path: 'work/b.md', kind: 'work', size: 9, sha256: 'z', created_at: 3 });
    expect(replaced).toEqual({ task_id: 't', path: 'work/b.md', kind: 'work', size: 9, sha256: 'z', created_at: 3 });
    expect(s.files.list('t').map((f) => f.path)).toEqual(['artifacts/a.pptx', 'work/b.md']);
    expect(s.files.get('t', 'work/b.md')?.size).toBe(9);
    expect(s.files.delete('t', 'work/b.md')).toBe(true);
    expect(s.files.delete('t', 'work/b.md')).toBe(false);
    expect(s.files.get('t', 'work/b.md')).toBeUndefined();
  });

  it('keeps pending approvals and tool grants per task', () => {
    const s = open();
    newTask(s, 't');
    const a: PendingApproval = { run_id: 'r1', call_id: 'c1', name: 'write_file', arguments: '{"path":"x"}', kind: 'edit', risk: 'destructive', detail: 'overwrites x', reasons: [{ code: 'overwrites', subject: 'x' }], created_at: 5 };
    s.approvals.put('t', a);
    s.approvals.put('t', { ...a, call_id: 'c0', created_at: 4, detail: null });
    expect(s.approvals.list('t').map((x) => x.call_id)).toEqual(['c0', 'c1']);
    expect(s.approvals.get('r1', 'c1')).toEqual(a);
    expect(s.approvals.delete('r1', 'c1')).toBe(true);
    expect(s.approvals.get('r1', 'c1')).toBeUndefined();

    expect(s.grants.has('t', 'shell')).toBe(false);
    s.grants.grant('t', 'shell');
    s.grants.grant('t', 'shell');
    expect(s.grants.has('t', 'shell')).toBe(true);
    expect(s.grants.has('t', 'write_file')).toBe(false);
  });

  it('keeps a scoped grant apart from the whole-tool grant and from other scopes', () => {
    const s = open();
    newTask(s, 't');
    s.grants.grant('t', 'shell', 'npm test');
    expect(s.grants.has('t', 'shell', 'npm test')).toBe(true);
    expect(s.grants.has('t', 'shell', 'rm -rf x')).toBe(false);
    expect(s.grants.has('t', 'shell')).toBe(false);
  });

  it('migration 2 keeps version-1 grants as whole-tool grants', () => {
    const raw = openDatabase(temp.dbPath, migrations.filter((m) => m.version === 1));
    raw.prepare("INSERT INTO tasks (id, title, mode, created_at, updated_at) VALUES ('t', 't', 'general', 1, 1)").run();
    raw.prepare("INSERT INTO tool_grants (task_id, tool_name) VALUES ('t', 'write'), ('t', 'shell')").run();
    raw.close();
    const s = open();
    expect(s.db.pragma('user_version', { simple: true })).toBe(latestSchemaVersion);
    expect(s.grants.has('t', 'write')).toBe(true);
    // The old whole-tool shell grant survives as data but matches no command.
    expect(s.grants.has('t', 'shell', 'npm test')).toBe(false);
  });

  it('stores settings as JSON and rolls back a failed transaction', () => {
    const s = open();
    expect(s.settings.get('language')).toBeUndefined();
    s.settings.set('language', 'zh-CN');
    s.settings.set('window', { w: 800, h: 600 });
    expect(s.settings.get<string>('language')).toBe('zh-CN');
    expect(s.settings.get<{ w: number }>('window')).toEqual({ w: 800, h: 600 });
    s.settings.set('language', undefined);
    expect(s.settings.get('language')).toBeUndefined();

    expect(() =>
      s.transaction(() => {
        s.settings.set('k', 1);
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(s.settings.get('k')).toBeUndefined();
    expect(s.transaction(() => 42)).toBe(42);
  });
});
