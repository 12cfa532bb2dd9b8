// What only the PostgreSQL store has to prove: tenants and users never see each other's rows (an id
// of theirs is an unknown id), the migration runner (from empty, two workers at once, a newer schema
// refused, a failed migration rolled back, data carried through the old migrations) and appends from
// many connections. The shared behaviour is in ../port-contract.test.ts.
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, pgSkipReason } from '../../../../testing/postgres/test-database';
import { latestSchemaVersion } from '../index';
import { migrations } from '../migrations';
import type { StorePort } from '../port';
import { openPgStore, type PgBackend } from './index';
import { migratePostgres, type PgMigration } from './migrate';
import { poolSql } from './sql';
import { openPgTestStore } from './test-store.test-support';

const skip = pgSkipReason();
if (skip) console.warn(`skipping PostgreSQL store tests: ${skip}`);

type TestDb = Awaited<ReturnType<typeof createTestDatabase>>;
const notFound = { code: 'not_found' };

async function withPool<T>(url: string, fn: (pool: pg.Pool) => Promise<T>): Promise<T> {
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  try {
    return await fn(pool);
  } finally {
    await pool.end();
  }
}

async function tableNames(pool: pg.Pool): Promise<string[]> {
  const { rows } = await pool.query<{ name: string }>("SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename");
  return rows.map((r) => r.name);
}

describe.skipIf(skip !== null)('PostgreSQL store', () => {
  const dbs: TestDb[] = [];
  const fresh = async (): Promise<TestDb> => {
    const db = await createTestDatabase();
    dbs.push(db);
    return db;
  };
  afterAll(async () => {
    for (const db of dbs) await db.drop();
  });

  describe('tenancy', () => {
    let backend: PgBackend;
    let alice: StorePort; // tenant acme, user alice
    let bob: StorePort; // tenant acme, user bob: same tenant, another person
    let eve: StorePort; // tenant evil, user alice: another tenant, even with the same user id

    beforeAll(async () => {
      backend = await openPgStore((await fresh()).url, { now: () => 1000, poolSize: 4 });
      alice = backend.scope({ tenant_id: 'acme', user_id: 'alice' });
      bob = backend.scope({ tenant_id: 'acme', user_id: 'bob' });
      eve = backend.scope({ tenant_id: 'evil', user_id: 'alice' });
      await alice.projects.create({ id: 'p1', name: 'Heat' });
      await alice.tasks.create({ id: 't1', mode: 'general', title: 'secret plan', description: '', model: null, project_id: 'p1' });
      await alice.messages.append({ id: 'm1', task_id: 't1', run_id: 'r1', role: 'user', content: 'hi' });
      await alice.runs.create({ id: 'r1', task_id: 't1', model: null });
      await alice.runs.setState('r1', { step: 1 });
      await alice.files.upsert({ task_id: 't1', path: 'work/a.md', kind: 'work', size: 1, sha256: 'x', created_at: 1 });
      await alice.approvals.put('t1', { run_id: 'r1', call_id: 'c1', name: 'shell', arguments: '{}', kind: 'execute', risk: 'standard', detail: null, reasons: [], created_at: 1 });
      await alice.grants.grant('t1', 'shell');
      await alice.tasks.addUsage('t1', { prompt_tokens: 5, completion_tokens: 5, cost: 1 });
      await alice.settings.set('language', 'zh-CN');
      await alice.library.add({ id: 'f1', project_id: 'p1', path: 'a.pdf', size: 1, mtime_ms: 1, sha256: 's1' });
      await alice.library.replacePages('f1', [{ page: 1, text: 'secret' }], { status: 'ok', pages: 1, message: null, sha256: 's1' });
    });
    afterAll(async () => backend.close());

    it.each([
      ['another tenant', () => eve],
      ['another user of the same tenant', () => bob],
    ])('hides tasks and everything reached through them from %s', async (_who, other) => {
      const s = other();
      expect(await s.tasks.get('t1')).toBeUndefined();
      expect(await s.tasks.list()).toEqual([]);
      expect(await s.tasks.list({ q: 'secret' })).toEqual([]);
      await expect(s.tasks.update('t1', { title: 'mine' })).rejects.toMatchObject(notFound);
      expect(await s.tasks.delete('t1')).toBe(false);
      await s.tasks.markMaterialized('t1');
      await s.tasks.addUsage('t1', { prompt_tokens: 1000, completion_tokens: 0, cost: 0 });
      await s.tasks.touch('t1');
      expect(await s.tasks.isMaterialized('t1')).toBe(false);
      expect(await s.tasks.purgeUnmaterialized()).toEqual([]);

      await expect(s.messages.append({ id: 'm2', task_id: 't1', run_id: null, role: 'user', content: 'x' })).rejects.toMatchObject(notFound);
      await expect(s.messages.update('m1', { content: 'x' })).rejects.toMatchObject(notFound);
      expect(await s.messages.get('m1')).toBeUndefined();
      expect(await s.messages.list('t1')).toEqual({ messages: [], has_more: false });
      expect(await s.messages.all('t1')).toEqual([]);
      expect(await s.messages.activeMessage('t1', 'm1')).toBeUndefined();
      expect(await s.messages.lastActive('t1', 'user')).toBeUndefined();
      expect(await s.messages.truncateActivePath('t1', 1)).toBe(0);
      await expect(s.messages.switchBranch('t1', 'm1')).rejects.toMatchObject(notFound);
      expect(await s.messages.branches('t1')).toEqual([]);

      await expect(s.runs.create({ id: 'r2', task_id: 't1', model: null })).rejects.toMatchObject(notFound);
      expect(await s.runs.get('r1')).toBeUndefined();
      expect(await s.runs.list('t1')).toEqual([]);
      expect(await s.runs.latestForTask('t1')).toBeUndefined();
      await expect(s.runs.finish('r1', 'cancelled')).rejects.toMatchObject(notFound);
      await expect(s.runs.setState('r1', null)).rejects.toMatchObject(notFound);
      expect(await s.runs.getState('r1')).toBeUndefined();
      await s.runs.addUsage('r1', { prompt_tokens: 1, completion_tokens: 1, cost: 1 });
      expect(await s.runs.markRunningAsInterrupted()).toEqual([]);

      await expect(s.files.upsert({ task_id: 't1', path: 'work/a.md', kind: 'work', size: 9, sha256: 'evil', created_at: 2 })).rejects.toMatchObject(notFound);
      expect(await s.files.list('t1')).toEqual([]);
      expect(await s.files.get('t1', 'work/a.md')).toBeUndefined();
      expect(await s.files.delete('t1', 'work/a.md')).toBe(false);

      await expect(s.approvals.put('t1', { run_id: 'r1', call_id: 'c1', name: 'x', arguments: '{}', kind: 'read', risk: 'standard', detail: null, reasons: [], created_at: 2 })).rejects.toMatchObject(notFound);
      expect(await s.approvals.list('t1')).toEqual([]);
      expect(await s.approvals.get('r1', 'c1')).toBeUndefined();
      expect(await s.approvals.delete('r1', 'c1')).toBe(false);
      await expect(s.grants.grant('t1', 'write_file')).rejects.toMatchObject(notFound);
      expect(await s.grants.has('t1', 'shell')).toBe(false);
      expect(await s.usage()).toEqual({ total: { prompt_tokens: 0, completion_tokens: 0, cost: 0 }, tasks: [] });

      // Nothing of alice's changed.
      expect(await alice.tasks.get('t1')).toMatchObject({ title: 'secret plan', prompt_tokens: 5, updated_at: 1000 });
      expect((await alice.messages.all('t1')).map((m) => m.content)).toEqual(['hi']);
      expect(await alice.runs.get('r1')).toMatchObject({ status: 'running', prompt_tokens: 0 });
      expect(await alice.runs.getState('r1')).toEqual({ step: 1 });
      expect(await alice.files.get('t1', 'work/a.md')).toMatchObject({ size: 1 });
      expect(await alice.approvals.get('r1', 'c1')).toMatchObject({ name: 'shell' });
      expect(await alice.grants.has('t1', 'shell')).toBe(true);
    });

    it('shares projects, the library and settings within a tenant, never across tenants', async () => {
      expect((await bob.projects.list()).map((p) => p.id)).toEqual(['p1']);
      // Bob sees the project but none of alice's private tasks in its count.
      expect(await bob.projects.get('p1')).toMatchObject({ task_count: 0, file_count: 1 });
      expect(await alice.projects.get('p1')).toMatchObject({ task_count: 1, file_count: 1 });
      expect(await bob.settings.get('language')).toBe('zh-CN');
      expect((await bob.library.list('p1')).map((f) => f.id)).toEqual(['f1']);

      expect(await eve.projects.get('p1')).toBeUndefined();
      expect(await eve.projects.list()).toEqual([]);
      await expect(eve.projects.update('p1', { name: 'x' })).rejects.toMatchObject(notFound);
      expect(await eve.projects.delete('p1')).toBe(false);
      await expect(eve.tasks.create({ id: 'e1', mode: 'general', title: '', description: '', model: null, project_id: 'p1' })).rejects.toMatchObject(notFound);
      await eve.tasks.create({ id: 'e2', mode: 'general', title: '', description: '', model: null });
      await expect(eve.tasks.update('e2', { project_id: 'p1' })).rejects.toMatchObject(notFound);
      expect(await eve.settings.get('language')).toBeUndefined();
      await eve.settings.set('language', 'en');
      expect(await alice.settings.get('language')).toBe('zh-CN');

      expect(await eve.library.byId('f1')).toBeUndefined();
      expect(await eve.library.get('p1', 'a.pdf')).toBeUndefined();
      expect(await eve.library.list('p1')).toEqual([]);
      expect(await eve.library.all()).toEqual([]);
      expect(await eve.library.queued()).toEqual([]);
      expect(await eve.library.findBySha('p1', 's1')).toBeUndefined();
      expect(await eve.library.pages('f1')).toEqual([]);
      expect(await eve.library.fileCount('p1')).toBe(0);
      expect(await eve.library.progress('p1')).toEqual({ total_files: 0, queued_files: 0, indexed_pages: 0, embedded_pages: 0 });
      expect(await eve.library.replacePages('f1', [{ page: 1, text: 'overwritten' }], { status: 'ok', pages: 1, message: null, sha256: 's1' })).toBe(false);
      await eve.library.changed('f1', { size: 2, mtime_ms: 2, sha256: 'evil' });
      await eve.library.setStatus('f1', 'pending');
      await eve.library.touched('f1', 2);
      expect(await eve.library.delete('p1', 'a.pdf')).toBe(false);
      await expect(eve.library.add({ id: 'f2', project_id: 'p1', path: 'b.pdf', size: 1, mtime_ms: 1, sha256: 's2' })).rejects.toMatchObject({ code: 'conflict' });
      // The same path in each tenant's personal library is two files.
      await eve.library.add({ id: 'f3', project_id: null, path: 'a.pdf', size: 1, mtime_ms: 1, sha256: 's1' });
      await alice.library.add({ id: 'f4', project_id: null, path: 'a.pdf', size: 1, mtime_ms: 1, sha256: 's1' });

      expect(await alice.library.byId('f1')).toMatchObject({ status: 'ok', sha256: 's1', mtime_ms: 1 });
      expect(await alice.library.pages('f1')).toEqual([{ page: 1, text: 'secret' }]);
    });
  });

  describe('migrations', () => {
    it('create every table from empty and record each version', async () => {
      const db = await fresh();
      const backend = await openPgStore(db.url);
      await backend.close();
      await withPool(db.url, async (pool) => {
        const names = await tableNames(pool);
        for (const table of ['tasks', 'messages', 'runs', 'files', 'approvals', 'tool_grants', 'settings', 'projects', 'library_files', 'library_pages', 'tenants', 'users', 'usage_events', 'quotas', 'run_events', 'run_leases', 'workers', 'schema_migrations']) {
          expect(names).toContain(table);
        }
        const { rows } = await pool.query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version');
        expect(rows.map((r) => r.version)).toEqual(migrations.map((m) => m.version));
        const { rows: tenants } = await pool.query<{ id: string }>('SELECT id FROM tenants');
        expect(tenants.map((t) => t.id)).toEqual(['local']);
        // FTS5's stand-in: a trigram index on the page text wherever the server ships pg_trgm.
        const { rows: trgm } = await pool.query<{ available: boolean; indexed: boolean }>(`SELECT
          EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'pg_trgm') AS available,
          EXISTS (SELECT 1 FROM pg_indexes WHERE indexname = 'library_pages_trgm') AS indexed`);
        expect(trgm[0].indexed).toBe(trgm[0].available);
      });
      // Opening again runs nothing.
      const again = await openPgStore(db.url);
      await again.close();
    });

    it('migrate once when two workers start together (advisory lock)', async () => {
      const db = await fresh();
      await withPool(db.url, (a) =>
        withPool(db.url, async (b) => {
          expect(await Promise.all([migratePostgres(a), migratePostgres(b), migratePostgres(a)])).toEqual([latestSchemaVersion, latestSchemaVersion, latestSchemaVersion]);
          const { rows } = await a.query<{ n: number }>('SELECT count(*)::integer AS n FROM schema_migrations');
          expect(rows[0].n).toBe(migrations.length);
        }),
      );
    });

    it('refuse a database written by a newer schema and leave it untouched', async () => {
      const db = await fresh();
      await (await openPgStore(db.url)).close();
      await withPool(db.url, async (pool) => {
        await pool.query('INSERT INTO schema_migrations (version, applied_at) VALUES ($1, 0)', [latestSchemaVersion + 5]);
        const before = await tableNames(pool);
        await expect(openPgStore(db.url)).rejects.toMatchObject({
          code: 'schema_too_new',
          message: `This database was written by a newer Folio (schema ${latestSchemaVersion + 5}, this build knows ${latestSchemaVersion}). Update Folio; the data was left untouched.`,
        });
        expect(await tableNames(pool)).toEqual(before);
        const { rows } = await pool.query<{ n: number }>('SELECT count(*)::integer AS n FROM schema_migrations');
        expect(rows[0].n).toBe(migrations.length + 1);
      });
    });

    it('carry stored run events into batched rows (migration 13): each old row becomes a row of one event', async () => {
      const db = await fresh();
      await withPool(db.url, async (pool) => {
        await migratePostgres(pool, migrations.filter((m) => m.version < 13));
        const event = (seq: number, type: string) => JSON.stringify({ run_id: 'r1', task_id: 't1', seq, at: seq, type, ...(type === 'text_delta' ? { delta: `d${seq}` } : {}) });
        for (const [seq, type] of [[1, 'run_started'], [2, 'text_delta'], [3, 'run_finished']] as const) {
          await pool.query('INSERT INTO run_events (run_id, seq, tenant_id, task_id, event) VALUES ($1, $2, $3, $4, $5::jsonb)', ['r1', seq, 'acme', 't1', event(seq, type)]);
        }
        expect(await migratePostgres(pool)).toBe(latestSchemaVersion);
        const { rows } = await pool.query<{ seq: number; last_seq: number; ended: boolean; events: string }>('SELECT seq, last_seq, ended, events FROM run_events ORDER BY seq');
        expect(rows.map((r) => [r.seq, r.last_seq, r.ended])).toEqual([
          [1, 1, false],
          [2, 2, false],
          [3, 3, true],
        ]);
        expect(JSON.parse(rows[1].events)).toEqual([{ run_id: 'r1', task_id: 't1', seq: 2, at: 2, type: 'text_delta', delta: 'd2' }]);
      });
    });

    it('roll a failed migration back whole and keep the versions before it', async () => {
      const db = await fresh();
      const broken: PgMigration[] = [...migrations, { version: latestSchemaVersion + 1, postgres: 'CREATE TABLE half_done (x int); SELECT no_such_function();' }];
      await withPool(db.url, async (pool) => {
        await expect(migratePostgres(pool, broken)).rejects.toThrow(/no_such_function/);
        expect(await tableNames(pool)).not.toContain('half_done');
        const { rows } = await pool.query<{ v: number }>('SELECT max(version) AS v FROM schema_migrations');
        expect(rows[0].v).toBe(latestSchemaVersion);
        // The lock was released: migrating again works.
        expect(await migratePostgres(pool)).toBe(latestSchemaVersion);
      });
    });

    it('carry a version-4 database through the later migrations: one active path per task, tenancy defaults', async () => {
      const db = await fresh();
      await withPool(db.url, async (pool) => {
        await migratePostgres(pool, migrations.filter((m) => m.version < 5));
        await pool.query("INSERT INTO tasks (id, title, mode, created_at, updated_at) VALUES ('t', 't', 'general', 1, 1), ('o', 'o', 'general', 1, 1)");
        await pool.query(`INSERT INTO messages (id, task_id, seq, role, content, created_at) VALUES
          ('m3', 't', 3, 'user', 'again', 1), ('m1', 't', 1, 'user', 'hello', 1), ('o1', 'o', 1, 'user', 'other', 1), ('m2', 't', 2, 'assistant', 'hi', 1)`);
        await pool.query("INSERT INTO approvals (run_id, call_id, task_id, name, arguments, kind, risk, created_at) VALUES ('r', 'c', 't', 'x', '{}', 'read', 'standard', 1)");
        await pool.query("INSERT INTO settings (key, value) VALUES ('language', '\"en\"')");
      });
      const backend = await openPgStore(db.url);
      try {
        const local = backend.scope({ tenant_id: 'local', user_id: 'local' });
        expect((await local.messages.all('t')).map((m) => m.id)).toEqual(['m1', 'm2', 'm3']);
        expect(await local.messages.branches('t')).toEqual([]);
        const next = await local.messages.append({ id: 'm4', task_id: 't', run_id: null, role: 'assistant', content: 'x' });
        expect(next.seq).toBe(4);
        expect(await local.settings.get('language')).toBe('en');
        await local.approvals.put('t', { run_id: 'r', call_id: 'c2', name: 'mcp', arguments: '{}', kind: 'mcp', risk: 'standard', detail: null, reasons: [], created_at: 2 });
        expect((await local.approvals.list('t')).map((a) => a.call_id)).toEqual(['c', 'c2']);
        expect(await backend.scope({ tenant_id: 'other', user_id: 'local' }).tasks.list()).toEqual([]);
      } finally {
        await backend.close();
      }
    });
  });

  it('gives suites a migrated store of their own (openPgTestStore)', async () => {
    const a = await openPgTestStore({ now: () => 7 });
    const b = await openPgTestStore();
    try {
      expect(a.port.scope).toEqual({ tenant_id: 'local', user_id: 'local' });
      expect(await a.port.tasks.create({ id: 't', mode: 'general', title: 't', description: '', model: null })).toMatchObject({ created_at: 7 });
      expect(await b.port.tasks.get('t')).toBeUndefined();
    } finally {
      await a.close();
      await b.close();
    }
  });

  describe('writes deferred to commit (Sql.atCommit)', () => {
    let backend: PgBackend | undefined;
    afterEach(async () => backend?.close());

    it('run once, the last given per key, after the transaction\'s work; a rolled-back savepoint drops its own', async () => {
      const db = await fresh();
      await withPool(db.url, async (pool) => {
        const ran: string[] = [];
        const sql = poolSql(pool);
        await sql.atomic(async (tx) => {
          await tx.atCommit('a', async () => ran.push('a1'));
          await tx.atCommit('b', async () => ran.push('b'));
          await tx.atCommit('a', async () => ran.push('a2'));
          await tx
            .atomic(async (inner) => {
              await inner.atCommit('c', async () => ran.push('c'));
              await inner.atCommit('b', async () => ran.push('b-rolled-back'));
              throw new Error('rolled back');
            })
            .catch(() => undefined);
          ran.push('work');
        });
        expect(ran).toEqual(['work', 'b', 'a2']);
        ran.length = 0;
        await sql.atCommit('now', async () => ran.push('at once'));
        expect(ran).toEqual(['at once']);
      });
    });

    it('touch a task once per transaction of many appends, with the last append\'s time', async () => {
      let clock = 1_000;
      backend = await openPgStore((await fresh()).url, { now: () => (clock += 10) });
      const s = backend.scope({ tenant_id: 'acme', user_id: 'alice' });
      await s.tasks.create({ id: 't', mode: 'general', title: 't', description: '', model: null });
      const before = await s.tasks.get('t');
      let lastAt = 0;
      await s.transaction(async (tx) => {
        for (let i = 0; i < 300; i += 1) lastAt = (await tx.messages.append({ id: `m${i}`, task_id: 't', run_id: null, role: 'user', content: `${i}` })).created_at;
        // Inside the transaction the task is not touched yet: that happens once, at commit.
        expect((await tx.tasks.get('t'))?.updated_at).toBe(before?.updated_at);
      });
      expect((await s.messages.all('t')).map((m) => m.seq)).toEqual(Array.from({ length: 300 }, (_, i) => i + 1));
      const { rows } = await backend.pool.query<{ materialized: number; updated_at: number }>("SELECT materialized, updated_at FROM tasks WHERE id = 't'");
      expect(rows[0]).toEqual({ materialized: 1, updated_at: lastAt });
    });
  });

  describe('appends from many connections', () => {
    let backend: PgBackend;
    /** Task t's messages' parents, in seq order. */
    const parents = async (pool: pg.Pool) => (await pool.query<{ parent_id: string | null }>("SELECT parent_id FROM messages WHERE task_id = 't' ORDER BY seq")).rows.map((r) => r.parent_id);
    afterEach(async () => backend?.close());

    it('number concurrent appends to one task without gaps or duplicates', async () => {
      backend = await openPgStore((await fresh()).url, { poolSize: 8 });
      const s = backend.scope({ tenant_id: 'acme', user_id: 'alice' });
      await s.tasks.create({ id: 't', mode: 'general', title: 't', description: '', model: null });
      await Promise.all(Array.from({ length: 40 }, (_, i) => s.messages.append({ id: `m${i}`, task_id: 't', run_id: null, role: 'user', content: `${i}` })));
      const all = await s.messages.all('t');
      expect(all.map((m) => m.seq)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
      // Each append continued the path: every message but the first has the one before it as parent.
      expect(await parents(backend.pool)).toEqual([null, ...all.slice(0, -1).map((m) => m.id)]);
    });

    it('number appends on their own and appends inside a transaction to one task at once, neither waiting on the other for good', async () => {
      backend = await openPgStore((await fresh()).url, { poolSize: 8 });
      const s = backend.scope({ tenant_id: 'acme', user_id: 'alice' });
      await s.tasks.create({ id: 't', mode: 'general', title: 't', description: '', model: null });
      const alone = Array.from({ length: 20 }, (_, i) => s.messages.append({ id: `a${i}`, task_id: 't', run_id: null, role: 'user', content: `${i}` }));
      const batches = Array.from({ length: 3 }, (_, b) =>
        s.transaction(async (tx) => {
          for (let i = 0; i < 5; i++) await tx.messages.append({ id: `b${b}-${i}`, task_id: 't', run_id: null, role: 'assistant', content: `${i}` });
        }),
      );
      await Promise.all([...alone, ...batches]);
      const all = await s.messages.all('t');
      expect(all.map((m) => m.seq)).toEqual(Array.from({ length: 35 }, (_, i) => i + 1));
      expect(await parents(backend.pool)).toEqual([null, ...all.slice(0, -1).map((m) => m.id)]);
      // A transaction's appends are one unit: nobody else's message lands between them.
      for (let b = 0; b < 3; b++) {
        const at = all.findIndex((m) => m.id === `b${b}-0`);
        expect(all.slice(at, at + 5).map((m) => m.id)).toEqual(Array.from({ length: 5 }, (_, i) => `b${b}-${i}`));
      }
    });
  });
});
