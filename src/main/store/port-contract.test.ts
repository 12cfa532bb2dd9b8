// The store port's contract, asserted once and run against every backend (SQLite and PostgreSQL):
// the behaviours of store.test.ts, branches.test.ts and projects-library.test.ts that are not about
// one dialect's files, pragmas or full-text index.
import type { PendingApproval } from '../../shared/contract';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { StorePort } from './port';
import { type OpenedPort, portBackends } from './port-backends.test-support';

for (const backend of portBackends) {
  const skip = backend.skip();
  if (skip) console.warn(`skipping the ${backend.name} store contract: ${skip}`);
}

/** A clock that ticks one ms per read, so ordering by time is deterministic. */
function tickingClock(start = 1_700_000_000_000): () => number {
  let t = start;
  return () => t++;
}

const notFound = { code: 'not_found' };
const conflict = { code: 'conflict' };

describe.each(portBackends.map((b) => [b.name, b] as const))('store port on %s', (_name, backend) => {
  const skip = backend.skip() !== null;
  let opened: OpenedPort | undefined;

  beforeAll(async () => {
    if (!skip) await backend.setUp();
  });
  afterAll(async () => {
    if (!skip) await backend.tearDown();
  });
  afterEach(async () => {
    await opened?.close();
    opened = undefined;
  });

  async function open(now: () => number = tickingClock()): Promise<StorePort> {
    opened = await backend.open({ now });
    return opened.port;
  }
  const scalar = (sql: string) => opened!.scalar(sql);
  const newTask = (s: StorePort, id: string, extra: Partial<{ title: string; description: string; project_id: string | null }> = {}) =>
    s.tasks.create({ id, mode: 'general', title: extra.title ?? id, description: extra.description ?? '', model: null, project_id: extra.project_id });
  const say = (s: StorePort, taskId: string, id: string, role: 'user' | 'assistant' = 'user') =>
    s.messages.append({ id, task_id: taskId, run_id: null, role, content: id });

  describe.skipIf(skip)('tasks', () => {
    it('purges only never-used tasks (lazy creation)', async () => {
      const s = await open();
      for (const id of ['used', 'unused', 'has-message', 'has-file']) await newTask(s, id, { title: '' });
      await s.tasks.markMaterialized('used');
      await say(s, 'has-message', 'm1');
      await s.files.upsert({ task_id: 'has-file', path: 'source/a.pdf', kind: 'source', size: 3, sha256: 'abc', created_at: 1 });
      expect(await s.tasks.isMaterialized('used')).toBe(true);
      expect(await s.tasks.isMaterialized('unused')).toBe(false);
      expect(await s.tasks.purgeUnmaterialized()).toEqual(['unused']);
      expect((await s.tasks.list()).map((t) => t.id).sort()).toEqual(['has-file', 'has-message', 'used']);
      expect(await s.tasks.get('unused')).toBeUndefined();
      expect(await s.tasks.purgeUnmaterialized()).toEqual([]);
    });

    it('keeps a task the person said something about (a title, a description, done, abandoned)', async () => {
      const s = await open();
      for (const id of ['untouched', 'described', 'done', 'abandoned']) await newTask(s, id, { title: '' });
      await newTask(s, 'titled', { title: 'Board deck' });
      await s.tasks.update('described', { description: 'for Monday' });
      await s.tasks.update('done', { status: 'completed' });
      await s.tasks.update('abandoned', { status: 'abandoned' });
      expect(await s.tasks.purgeUnmaterialized()).toEqual(['untouched']);
      expect((await s.tasks.list()).map((t) => t.id).sort()).toEqual(['abandoned', 'described', 'done', 'titled']);
    });

    it('creates with defaults, updates a patch (null clears), and reports last_run', async () => {
      const s = await open();
      const t = await s.tasks.create({ id: 't1', mode: 'coding', title: 'Fix', description: 'd', model: 'm1', workspace_path: '/w' });
      expect(t).toMatchObject({ status: 'active', approval_mode: 'ask', workspace_path: '/w', model: 'm1', last_run: null, cost: 0, reasoning: null, mcp_servers: null, project_id: null, allow_network: false });
      expect(t.created_at).toBe(1_700_000_000_000);
      const u = await s.tasks.update('t1', { title: 'Fix bug', model: null, approval_mode: 'auto-edit', description: undefined, mcp_servers: ['fs'], reasoning: 'max' });
      expect(u).toMatchObject({ title: 'Fix bug', model: null, approval_mode: 'auto-edit', description: 'd', workspace_path: '/w', mcp_servers: ['fs'], reasoning: 'max' });
      expect(u.updated_at).toBeGreaterThan(t.updated_at);
      expect((await s.tasks.update('t1', { mcp_servers: null })).mcp_servers).toBeNull();

      await s.runs.create({ id: 'r1', task_id: 't1', model: 'm1' });
      await s.runs.create({ id: 'r2', task_id: 't1', model: 'm1' });
      await s.runs.finish('r2', 'done');
      expect((await s.tasks.get('t1'))?.last_run).toEqual({ id: 'r2', status: 'done' });

      await expect(s.tasks.update('nope', { title: 'x' })).rejects.toMatchObject(notFound);
      await expect(newTask(s, 't1')).rejects.toMatchObject(conflict);
      expect(await s.tasks.delete('t1')).toBe(true);
      expect(await s.tasks.delete('t1')).toBe(false);
    });

    it('keeps the network switch off by default and changes it only when the patch names it', async () => {
      const s = await open();
      expect((await newTask(s, 't1')).allow_network).toBe(false);
      expect((await s.tasks.update('t1', { allow_network: true })).allow_network).toBe(true);
      expect((await s.tasks.update('t1', { title: 'x' })).allow_network).toBe(true);
      expect((await s.tasks.update('t1', { allow_network: false })).allow_network).toBe(false);
    });

    it('lists newest updated first (ties: newest created), filters by status, and searches case-insensitively', async () => {
      const s = await open();
      await newTask(s, 'a', { title: 'Quarterly Report' });
      await newTask(s, 'b', { title: 'Slides', description: 'about the QUARTERLY numbers' });
      await newTask(s, 'c', { title: '季度报告' });
      await newTask(s, 'd', { title: 'ÉCOLE' });
      await s.tasks.touch('a');
      expect((await s.tasks.list()).map((t) => t.id)).toEqual(['a', 'd', 'c', 'b']);
      expect((await s.tasks.list({ q: 'quarterly' })).map((t) => t.id)).toEqual(['a', 'b']);
      expect((await s.tasks.list({ q: '报告' })).map((t) => t.id)).toEqual(['c']);
      expect((await s.tasks.list({ q: 'école' })).map((t) => t.id)).toEqual(['d']);
      expect((await s.tasks.list({ q: '   ' })).map((t) => t.id)).toHaveLength(4);
      await s.tasks.update('b', { status: 'completed' });
      expect((await s.tasks.list({ status: 'completed' })).map((t) => t.id)).toEqual(['b']);
      expect((await s.tasks.list({ status: 'active', q: 'QUARTER' })).map((t) => t.id)).toEqual(['a']);
    });

    it('orders tasks created at the same instant newest first', async () => {
      const s = await open(() => 5);
      for (const id of ['x', 'y', 'z']) await newTask(s, id);
      expect((await s.tasks.list()).map((t) => t.id)).toEqual(['z', 'y', 'x']);
    });

    it('matches % and _ in the search literally', async () => {
      const s = await open();
      await newTask(s, 'pct', { title: '100% done' });
      await newTask(s, 'plain', { title: '1000 done' });
      await newTask(s, 'under', { title: 'file_name' });
      await newTask(s, 'nounder', { title: 'filename' });
      await newTask(s, 'slash', { title: 'a\\b' });
      expect((await s.tasks.list({ q: '0%' })).map((t) => t.id)).toEqual(['pct']);
      expect((await s.tasks.list({ q: '%' })).map((t) => t.id)).toEqual(['pct']);
      expect((await s.tasks.list({ q: 'e_n' })).map((t) => t.id)).toEqual(['under']);
      expect((await s.tasks.list({ q: '_' })).map((t) => t.id)).toEqual(['under']);
      expect((await s.tasks.list({ q: '\\' })).map((t) => t.id)).toEqual(['slash']);
    });

    it('accumulates usage per task and run, and in the usage report', async () => {
      const s = await open();
      await newTask(s, 'a', { title: 'A' });
      await newTask(s, 'b', { title: 'B' });
      await newTask(s, 'idle');
      await s.tasks.addUsage('a', { prompt_tokens: 100, completion_tokens: 10, cost: 0.5 });
      await s.tasks.addUsage('a', { prompt_tokens: 50, completion_tokens: 5, cost: 0.25 });
      await s.tasks.addUsage('b', { prompt_tokens: 1, completion_tokens: 2, cost: 1 });
      await s.tasks.addUsage('gone', { prompt_tokens: 1, completion_tokens: 1, cost: 1 }); // unknown id: ignored
      expect(await s.tasks.get('a')).toMatchObject({ prompt_tokens: 150, completion_tokens: 15, cost: 0.75 });
      const report = await s.usage();
      expect(report.total).toEqual({ prompt_tokens: 151, completion_tokens: 17, cost: 1.75 });
      expect(report.tasks).toEqual([
        { task_id: 'b', title: 'B', prompt_tokens: 1, completion_tokens: 2, cost: 1 },
        { task_id: 'a', title: 'A', prompt_tokens: 150, completion_tokens: 15, cost: 0.75 },
      ]);
      await s.runs.create({ id: 'r1', task_id: 'a', model: null });
      await s.runs.addUsage('r1', { prompt_tokens: 7, completion_tokens: 3, cost: 0.1 });
      await s.runs.addUsage('r1', { prompt_tokens: 7, completion_tokens: 3, cost: 0.1 });
      expect(await s.runs.get('r1')).toMatchObject({ prompt_tokens: 14, completion_tokens: 6, cost: 0.2 });
    });

    it('reports zero usage on an empty store', async () => {
      const s = await open();
      expect(await s.usage()).toEqual({ total: { prompt_tokens: 0, completion_tokens: 0, cost: 0 }, tasks: [] });
    });

    it('cascades a task delete to its messages, runs, files, approvals and grants', async () => {
      const s = await open();
      await newTask(s, 'doomed');
      await newTask(s, 'kept');
      await say(s, 'doomed', 'm1');
      await say(s, 'kept', 'm2');
      await s.runs.create({ id: 'r1', task_id: 'doomed', model: null });
      await s.files.upsert({ task_id: 'doomed', path: 'work/x.md', kind: 'work', size: 1, sha256: 'h', created_at: 1 });
      await s.approvals.put('doomed', { run_id: 'r1', call_id: 'c1', name: 'shell', arguments: '{}', kind: 'execute', risk: 'standard', detail: null, reasons: [], created_at: 1 });
      await s.grants.grant('doomed', 'shell');
      expect(await s.tasks.delete('doomed')).toBe(true);
      for (const [table, n] of [['messages', 1], ['runs', 0], ['files', 0], ['approvals', 0], ['tool_grants', 0]] as const) {
        expect(Number(await scalar(`SELECT COUNT(*) FROM ${table}`)), table).toBe(n);
      }
      expect((await s.messages.get('m2'))?.task_id).toBe('kept');
    });
  });

  describe.skipIf(skip)('messages', () => {
    it('pages backwards with before_seq, limit and has_more, each page ascending', async () => {
      const s = await open();
      await newTask(s, 't');
      for (let i = 1; i <= 25; i++) await say(s, 't', `m${i}`);
      const seqs = async (page: { beforeSeq?: number; limit?: number }) => {
        const p = await s.messages.list('t', page);
        return { seqs: p.messages.map((m) => m.seq), has_more: p.has_more };
      };
      expect(await seqs({ limit: 10 })).toEqual({ seqs: [16, 17, 18, 19, 20, 21, 22, 23, 24, 25], has_more: true });
      expect(await seqs({ beforeSeq: 16, limit: 10 })).toEqual({ seqs: [6, 7, 8, 9, 10, 11, 12, 13, 14, 15], has_more: true });
      expect(await seqs({ beforeSeq: 6, limit: 10 })).toEqual({ seqs: [1, 2, 3, 4, 5], has_more: false });
      expect(await seqs({ beforeSeq: 11, limit: 10 })).toEqual({ seqs: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], has_more: false });
      const all = await s.messages.list('t');
      expect(all.messages).toHaveLength(25);
      expect(all.has_more).toBe(false);
      expect(await s.messages.list('empty-task')).toEqual({ messages: [], has_more: false });
      await expect(s.messages.list('t', { limit: 0 })).rejects.toMatchObject({ code: 'invalid_input' });
    });

    it('numbers interleaved appends to two tasks independently and without gaps, and marks the task used', async () => {
      const s = await open();
      await newTask(s, 'a');
      const b = await newTask(s, 'b');
      for (let i = 0; i < 30; i++) await say(s, i % 3 === 0 ? 'b' : 'a', `m${i}`);
      const seqs = async (t: string) => (await s.messages.all(t)).map((m) => m.seq);
      expect(await seqs('a')).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
      expect(await seqs('b')).toEqual(Array.from({ length: 10 }, (_, i) => i + 1));
      expect(await s.tasks.isMaterialized('b')).toBe(true);
      expect((await s.tasks.get('b'))!.updated_at).toBeGreaterThan(b.updated_at);
    });

    it('stores tool calls and results, finalizes a streamed message, and finds a tool result', async () => {
      const s = await open();
      await newTask(s, 't');
      const streaming = await s.messages.append({ id: 'a1', task_id: 't', run_id: 'r1', role: 'assistant', content: '' });
      expect(streaming).toEqual({
        id: 'a1', task_id: 't', run_id: 'r1', seq: 1, role: 'assistant', content: '', reasoning: null, tool_calls: null,
        tool_call_id: null, name: null, is_error: false, created_at: 1_700_000_000_001,
      });
      const calls = [{ id: 'call_1', name: 'read_file', arguments: '{"path":"a"}' }];
      expect(await s.messages.update('a1', { content: 'Reading.', reasoning: 'think', tool_calls: calls })).toMatchObject({ content: 'Reading.', reasoning: 'think', tool_calls: calls, seq: 1 });
      expect(await s.messages.update('a1', { reasoning: null })).toMatchObject({ content: 'Reading.', reasoning: null, tool_calls: calls });
      expect(await s.messages.update('a1', {})).toMatchObject({ content: 'Reading.' });
      await s.messages.append({ id: 'tool1', task_id: 't', run_id: 'r1', role: 'tool', content: 'ENOENT', tool_call_id: 'call_1', name: 'read_file', is_error: true });
      expect(await s.messages.findToolResult('t', 'call_1')).toMatchObject({ id: 'tool1', is_error: true, name: 'read_file', seq: 2 });
      expect(await s.messages.findToolResult('t', 'call_2')).toBeUndefined();
      await expect(s.messages.update('missing', { content: 'x' })).rejects.toMatchObject(notFound);
      await expect(s.messages.update('missing', {})).rejects.toMatchObject(notFound);
      await expect(say(s, 'no-such-task', 'x')).rejects.toMatchObject(notFound);
      await expect(say(s, 't', 'a1')).rejects.toMatchObject(conflict);
      expect((await s.messages.all('t')).map((m) => m.seq)).toEqual([1, 2]);
    });
  });

  describe.skipIf(skip)('conversation tree', () => {
    const parentOf = (id: string) => scalar(`SELECT parent_id FROM messages WHERE id = '${id}'`);
    const path = async (s: StorePort) => (await s.messages.all('t')).map((m) => m.id);

    it('appends after the active path’s last message; regenerating keeps the old reply as a sibling', async () => {
      const s = await open();
      await newTask(s, 't');
      await say(s, 't', 'u1');
      await say(s, 't', 'a1', 'assistant');
      expect(await parentOf('u1')).toBeNull();
      expect(await parentOf('a1')).toBe('u1');
      expect(await s.messages.branches('t')).toEqual([]);
      await say(s, 't', 'u2');
      await say(s, 't', 'a2', 'assistant');
      expect(await s.messages.truncateActivePath('t', (await s.messages.get('u2'))!.seq + 1)).toBe(1);
      expect(await path(s)).toEqual(['u1', 'a1', 'u2']);
      await say(s, 't', 'a2b', 'assistant');
      expect(await path(s)).toEqual(['u1', 'a1', 'u2', 'a2b']);
      expect(await parentOf('a2b')).toBe('u2');
      expect(await s.messages.branches('t')).toEqual([{ message_id: 'a2b', index: 2, count: 2, siblings: ['a2', 'a2b'] }]);
      expect((await s.messages.get('a2b'))!.seq).toBe(5);
      expect(await s.messages.list('t', { limit: 2 })).toMatchObject({ messages: [{ id: 'u2' }, { id: 'a2b' }], has_more: true });
      expect((await s.messages.list('t', { beforeSeq: 5, limit: 2 })).messages.map((m) => m.id)).toEqual(['a1', 'u2']);
      expect((await s.messages.lastActive('t', 'assistant'))?.id).toBe('a2b');
    });

    it('editing the first message makes a sibling root; switching goes back to where a branch was left', async () => {
      const s = await open();
      await newTask(s, 't');
      for (const [id, role] of [['u1', 'user'], ['a1', 'assistant'], ['u2', 'user'], ['a2', 'assistant']] as const) await say(s, 't', id, role);
      await s.messages.truncateActivePath('t', (await s.messages.get('u1'))!.seq);
      expect(await path(s)).toEqual([]);
      await say(s, 't', 'u1b');
      await say(s, 't', 'a1b', 'assistant');
      expect(await parentOf('u1b')).toBeNull();
      expect(await s.messages.branches('t')).toEqual([{ message_id: 'u1b', index: 2, count: 2, siblings: ['u1', 'u1b'] }]);
      await s.messages.switchBranch('t', 'u1');
      expect(await path(s)).toEqual(['u1', 'a1', 'u2', 'a2']);
      expect(await s.messages.branches('t')).toEqual([{ message_id: 'u1', index: 1, count: 2, siblings: ['u1', 'u1b'] }]);
      expect(await s.messages.activeMessage('t', 'u1b')).toBeUndefined();
      expect((await s.messages.activeMessage('t', 'u2'))?.id).toBe('u2');
      await say(s, 't', 'u3');
      expect(await parentOf('u3')).toBe('a2');
      await s.messages.switchBranch('t', 'u1b');
      expect(await path(s)).toEqual(['u1b', 'a1b']);
      await expect(s.messages.switchBranch('t', 'nope')).rejects.toMatchObject(notFound);
    });

    it('lists nested forks in path order, each with its own place', async () => {
      const s = await open();
      await newTask(s, 't');
      await say(s, 't', 'u1');
      await say(s, 't', 'a1', 'assistant');
      await s.messages.truncateActivePath('t', 2);
      await say(s, 't', 'a1b', 'assistant');
      await say(s, 't', 'u2');
      await say(s, 't', 'a2', 'assistant');
      await s.messages.truncateActivePath('t', (await s.messages.get('u2'))!.seq);
      await say(s, 't', 'u2b');
      await s.messages.truncateActivePath('t', (await s.messages.get('u2b'))!.seq);
      await say(s, 't', 'u2c');
      expect(await path(s)).toEqual(['u1', 'a1b', 'u2c']);
      expect(await s.messages.branches('t')).toEqual([
        { message_id: 'a1b', index: 2, count: 2, siblings: ['a1', 'a1b'] },
        { message_id: 'u2c', index: 3, count: 3, siblings: ['u2', 'u2b', 'u2c'] },
      ]);
      await s.messages.switchBranch('t', 'a1');
      expect(await path(s)).toEqual(['u1', 'a1']);
      expect(await s.messages.branches('t')).toEqual([{ message_id: 'a1', index: 1, count: 2, siblings: ['a1', 'a1b'] }]);
    });

    it('finds a tool result on the active path first when a call id repeats across branches', async () => {
      const s = await open();
      await newTask(s, 't');
      await say(s, 't', 'u1');
      const call = [{ id: 'call_1', name: 'read', arguments: '{}' }];
      const result = (id: string, content: string) => s.messages.append({ id, task_id: 't', run_id: null, role: 'tool', content, tool_call_id: 'call_1', name: 'read' });
      await s.messages.append({ id: 'a1', task_id: 't', run_id: null, role: 'assistant', content: '', tool_calls: call });
      await result('r1', 'old branch');
      await s.messages.truncateActivePath('t', 2);
      await s.messages.append({ id: 'a1b', task_id: 't', run_id: null, role: 'assistant', content: '', tool_calls: call });
      await result('r1b', 'new branch');
      expect((await s.messages.findToolResult('t', 'call_1'))?.content).toBe('new branch');
      await s.messages.switchBranch('t', 'a1');
      expect((await s.messages.findToolResult('t', 'call_1'))?.content).toBe('old branch');
    });
  });

  describe.skipIf(skip)('runs', () => {
    it('marks running runs interrupted and keeps finished ones; lists newest first', async () => {
      const s = await open();
      await newTask(s, 't');
      await s.runs.create({ id: 'r1', task_id: 't', model: 'm' });
      await s.runs.create({ id: 'r2', task_id: 't', model: 'm' });
      await s.runs.create({ id: 'r3', task_id: 't', model: null });
      expect(await s.runs.finish('r1', 'failed', 'provider down')).toMatchObject({ status: 'failed', error: 'provider down', finished_at: 1_700_000_000_004 });
      const interrupted = await s.runs.markRunningAsInterrupted();
      expect(interrupted.map((r) => r.id).sort()).toEqual(['r2', 'r3']);
      expect(interrupted.every((r) => r.status === 'interrupted' && r.finished_at !== null)).toBe(true);
      expect(await s.runs.get('r1')).toMatchObject({ status: 'failed', error: 'provider down' });
      // A run marked interrupted keeps that status when its (presumed dead) driver finishes it late.
      expect(await s.runs.finish('r2', 'done')).toMatchObject({ id: 'r2', status: 'interrupted' });
      expect(await s.runs.markRunningAsInterrupted()).toEqual([]);
      expect((await s.runs.list('t')).map((r) => r.id)).toEqual(['r3', 'r2', 'r1']);
      expect((await s.runs.latestForTask('t'))?.id).toBe('r3');
      expect(await s.runs.latestForTask('other')).toBeUndefined();
    });

    it("keeps a typed error's code and class, and none for a plain message", async () => {
      const s = await open();
      await newTask(s, 't');
      await s.runs.create({ id: 'r1', task_id: 't', model: 'm' });
      await s.runs.create({ id: 'r2', task_id: 't', model: 'm' });
      const refused = { code: 'provider_error', name: 'ProviderKeyRejectedError', message: 'The provider rejected the API key (401)' } as const;
      expect(await s.runs.finish('r1', 'failed', refused)).toMatchObject({ error: refused.message, error_code: 'provider_error', error_name: 'ProviderKeyRejectedError' });
      expect(await s.runs.get('r1')).toMatchObject({ error_code: 'provider_error', error_name: 'ProviderKeyRejectedError' });
      const plain = await s.runs.finish('r2', 'failed', 'provider down');
      expect(plain.error).toBe('provider down');
      expect(plain).not.toHaveProperty('error_code');
      expect(plain).not.toHaveProperty('error_name');
    });

    it('breaks ties between runs started at the same instant by creation order', async () => {
      const s = await open(() => 9);
      await newTask(s, 't');
      for (const id of ['r1', 'r2', 'r3']) await s.runs.create({ id, task_id: 't', model: null });
      expect((await s.runs.list('t')).map((r) => r.id)).toEqual(['r3', 'r2', 'r1']);
      expect((await s.tasks.get('t'))?.last_run).toEqual({ id: 'r3', status: 'running' });
    });

    it('round-trips resumable state as JSON and reports unknown ids', async () => {
      const s = await open();
      await newTask(s, 't');
      expect(await s.runs.create({ id: 'r1', task_id: 't', model: null })).toEqual({
        id: 'r1', task_id: 't', status: 'running', model: null, started_at: 1_700_000_000_001, finished_at: null, error: null,
        prompt_tokens: 0, completion_tokens: 0, cost: 0, tool_calls: {},
      });
      expect(await s.runs.getState('r1')).toBeUndefined();
      await s.runs.setState('r1', { step: 3, pending: ['c1'], note: '中文' });
      expect(await s.runs.getState('r1')).toEqual({ step: 3, pending: ['c1'], note: '中文' });
      await s.runs.setState('r1', null);
      expect(await s.runs.getState('r1')).toBeUndefined();
      await expect(s.runs.setState('nope', 1)).rejects.toMatchObject(notFound);
      await expect(s.runs.finish('nope', 'done')).rejects.toMatchObject(notFound);
      await expect(s.runs.create({ id: 'r2', task_id: 'nope', model: null })).rejects.toMatchObject(notFound);
      await expect(s.runs.create({ id: 'r1', task_id: 't', model: null })).rejects.toMatchObject(conflict);
    });
  });

  describe.skipIf(skip)('files, approvals, grants, settings, transactions', () => {
    it('upserts files by (task, path), lists them by path (byte order) and marks the task used', async () => {
      const s = await open();
      await newTask(s, 't');
      await s.files.upsert({ task_id: 't', path: 'work/b.md', kind: 'work', size: 1, sha256: 'x', created_at: 1 });
      await s.files.upsert({ task_id: 't', path: 'artifacts/a.pptx', kind: 'artifact', size: 2, sha256: 'y', created_at: 2 });
      await s.files.upsert({ task_id: 't', path: 'Work/Z.md', kind: 'work', size: 3_000_000_000, sha256: 'w', created_at: 2 });
      const replaced = await s.files.upsert({ task_id: 't', path: 'work/b.md', kind: 'work', size: 9, sha256: 'z', created_at: 3 });
      expect(replaced).toEqual({ task_id: 't', path: 'work/b.md', kind: 'work', size: 9, sha256: 'z', created_at: 3 });
      expect((await s.files.list('t')).map((f) => f.path)).toEqual(['Work/Z.md', 'artifacts/a.pptx', 'work/b.md']);
      expect((await s.files.get('t', 'Work/Z.md'))?.size).toBe(3_000_000_000);
      expect(await s.tasks.isMaterialized('t')).toBe(true);
      expect(await s.files.delete('t', 'work/b.md')).toBe(true);
      expect(await s.files.delete('t', 'work/b.md')).toBe(false);
      expect(await s.files.get('t', 'work/b.md')).toBeUndefined();
      await expect(s.files.upsert({ task_id: 'nope', path: 'a', kind: 'work', size: 1, sha256: 'x', created_at: 1 })).rejects.toMatchObject(notFound);
    });

    it('keeps pending approvals (replaced by key) and tool grants per task', async () => {
      const s = await open();
      await newTask(s, 't');
      const a: PendingApproval = { run_id: 'r1', call_id: 'c1', name: 'write_file', arguments: '{"path":"x"}', kind: 'edit', risk: 'destructive', detail: 'overwrites x', reasons: [{ code: 'overwrites', subject: 'x' }], created_at: 5 };
      await s.approvals.put('t', a);
      await s.approvals.put('t', { ...a, call_id: 'c0', created_at: 4, detail: null });
      await s.approvals.put('t', { ...a, call_id: 'c2', created_at: 5, kind: 'mcp' });
      expect((await s.approvals.list('t')).map((x) => x.call_id)).toEqual(['c0', 'c1', 'c2']);
      await s.approvals.put('t', { ...a, arguments: '{}' });
      expect((await s.approvals.list('t')).map((x) => x.call_id)).toEqual(['c0', 'c2', 'c1']);
      expect(await s.approvals.get('r1', 'c1')).toEqual({ ...a, arguments: '{}' });
      expect(await s.approvals.delete('r1', 'c1')).toBe(true);
      expect(await s.approvals.get('r1', 'c1')).toBeUndefined();
      await expect(s.approvals.put('nope', a)).rejects.toMatchObject(notFound);

      expect(await s.grants.has('t', 'shell')).toBe(false);
      await s.grants.grant('t', 'shell');
      await s.grants.grant('t', 'shell');
      expect(await s.grants.has('t', 'shell')).toBe(true);
      expect(await s.grants.has('t', 'write_file')).toBe(false);
      await s.grants.grant('t', 'run_script', 'npm test');
      expect(await s.grants.has('t', 'run_script', 'npm test')).toBe(true);
      expect(await s.grants.has('t', 'run_script', 'rm -rf x')).toBe(false);
      expect(await s.grants.has('t', 'run_script')).toBe(false);
      await expect(s.grants.grant('nope', 'shell')).rejects.toMatchObject(notFound);
    });

    it('stores settings as JSON', async () => {
      const s = await open();
      expect(await s.settings.get('language')).toBeUndefined();
      await s.settings.set('language', 'zh-CN');
      await s.settings.set('window', { w: 800, h: 600 });
      await s.settings.set('window', { w: 1, h: 2 });
      expect(await s.settings.get('language')).toBe('zh-CN');
      expect(await s.settings.get('window')).toEqual({ w: 1, h: 2 });
      await s.settings.set('language', undefined);
      expect(await s.settings.get('language')).toBeUndefined();
    });

    it('commits a transaction, rolls back a failed one, and nests', async () => {
      const s = await open();
      await expect(
        s.transaction(async (tx) => {
          await tx.settings.set('k', 1);
          await newTask(tx, 'gone');
          throw new Error('boom');
        }),
      ).rejects.toThrow('boom');
      expect(await s.settings.get('k')).toBeUndefined();
      expect(await s.tasks.get('gone')).toBeUndefined();
      expect(await s.transaction(() => Promise.resolve(42))).toBe(42);

      await s.transaction(async (tx) => {
        await newTask(tx, 'kept');
        // An expected failure inside the transaction leaves it usable, as in SQLite.
        await expect(newTask(tx, 'kept')).rejects.toMatchObject(conflict);
        await expect(tx.transaction(async (inner) => {
          await inner.settings.set('inner', true);
          throw new Error('inner');
        })).rejects.toThrow('inner');
        await tx.settings.set('outer', true);
      });
      expect(await s.tasks.get('kept')).toBeDefined();
      expect(await s.settings.get('inner')).toBeUndefined();
      expect(await s.settings.get('outer')).toBe(true);
    });
  });

  describe.skipIf(skip)('projects and library', () => {
    const file = (id: string, project_id: string | null, path: string, sha256 = `sha-${id}`) => ({ id, project_id, path, size: 10, mtime_ms: 5, sha256 });

    it('creates with defaults, patches only what is given, lists open or archived, counts tasks and files', async () => {
      const s = await open();
      const p = await s.projects.create({ id: 'p1', name: 'Heat', default_mode: 'proposal' });
      expect(p).toEqual({
        id: 'p1', name: 'Heat', instructions: '', default_model: null, default_mode: 'proposal', default_approval_mode: null,
        archived: false, task_count: 0, file_count: 0, created_at: 1_700_000_000_000, updated_at: 1_700_000_000_000,
      });
      await s.projects.create({ id: 'p2', name: 'Cold' });
      await newTask(s, 't1', { project_id: 'p1' });
      await s.library.add(file('f1', 'p1', 'a.pdf'));
      const patched = await s.projects.update('p1', { instructions: 'Cite in GB/T 7714.', default_mode: null });
      expect(patched).toMatchObject({ name: 'Heat', instructions: 'Cite in GB/T 7714.', default_mode: null, task_count: 1, file_count: 1 });
      expect((await s.projects.list()).map((x) => x.id)).toEqual(['p1', 'p2']);
      await s.projects.update('p1', { archived: true });
      expect((await s.projects.list()).map((x) => x.id)).toEqual(['p2']);
      expect((await s.projects.list({ archived: true })).map((x) => x.id)).toEqual(['p1']);
      await expect(s.projects.update('nope', { name: 'x' })).rejects.toThrow(/No project nope/u);
    });

    it('deleting a project removes its library rows and pages and leaves its tasks without a project', async () => {
      const s = await open();
      await s.projects.create({ id: 'p1', name: 'Heat' });
      await newTask(s, 't1', { project_id: 'p1' });
      await s.library.add(file('f1', 'p1', 'a.pdf'));
      expect(await s.library.replacePages('f1', [{ page: 1, text: '城市热岛效应研究' }], { status: 'ok', pages: 1, message: null, sha256: 'sha-f1' })).toBe(true);
      expect(await s.projects.delete('p1')).toBe(true);
      expect(await s.projects.delete('p1')).toBe(false);
      expect((await s.tasks.get('t1'))?.project_id).toBeNull();
      expect(await s.library.byId('f1')).toBeUndefined();
      expect(Number(await scalar('SELECT COUNT(*) FROM library_pages'))).toBe(0);
    });

    it('filters tasks by project and by none, and moves a task in and out', async () => {
      const s = await open();
      await s.projects.create({ id: 'p1', name: 'Heat' });
      await newTask(s, 't1', { project_id: 'p1' });
      await newTask(s, 't2');
      expect((await s.tasks.list({ project_id: 'p1' })).map((t) => t.id)).toEqual(['t1']);
      expect((await s.tasks.list({ project_id: 'none' })).map((t) => t.id)).toEqual(['t2']);
      await s.tasks.update('t2', { project_id: 'p1' });
      expect(await s.tasks.list({ project_id: 'p1' })).toHaveLength(2);
      await s.tasks.update('t2', { title: 'kept' });
      expect((await s.tasks.get('t2'))?.project_id).toBe('p1');
      await s.tasks.update('t2', { project_id: null });
      expect((await s.tasks.list({ project_id: 'none' })).map((t) => t.id)).toEqual(['t2']);
      await expect(newTask(s, 't3', { project_id: 'nope' })).rejects.toMatchObject(notFound);
    });

    it('one path per library (the personal library included), the same path in two libraries', async () => {
      const s = await open();
      await s.projects.create({ id: 'p1', name: 'Heat' });
      const added = await s.library.add(file('f1', null, 'cv.pdf'));
      expect(added).toMatchObject({ id: 'f1', project_id: null, path: 'cv.pdf', size: 10, mtime_ms: 5, status: 'pending', pages: null, message: null, indexed_sha256: null });
      await s.library.add(file('f2', 'p1', 'cv.pdf'));
      await expect(s.library.add(file('f3', null, 'cv.pdf'))).rejects.toMatchObject({ code: 'conflict', message: 'The library already has cv.pdf' });
      await s.library.add(file('f4', null, 'B.pdf'));
      expect((await s.library.list(null)).map((f) => f.id)).toEqual(['f4', 'f1']);
      expect((await s.library.get(null, 'cv.pdf'))?.id).toBe('f1');
      expect((await s.library.get('p1', 'cv.pdf'))?.id).toBe('f2');
      expect((await s.library.findBySha('p1', 'sha-f2'))?.id).toBe('f2');
      expect(await s.library.findBySha(null, 'sha-f2')).toBeUndefined();
      expect((await s.library.all()).map((f) => f.id)).toEqual(['f1', 'f2', 'f4']);
      expect((await s.library.queued()).map((f) => f.id)).toEqual(['f1', 'f2', 'f4']);
      await s.library.setStatus('f1', 'indexing');
      await s.library.touched('f2', 99);
      expect((await s.library.byId('f2'))?.mtime_ms).toBe(99);
      expect(await s.library.fileCount(null)).toBe(2);
      expect(await s.library.fileCount('p1')).toBe(1);
      expect(await s.library.delete('p1', 'cv.pdf')).toBe(true);
      expect(await s.library.delete('p1', 'cv.pdf')).toBe(false);
    });

    it('replaces pages in one transaction and refuses a result for bytes that changed meanwhile', async () => {
      const s = await open();
      await s.library.add(file('f1', null, 'a.pdf'));
      await s.library.replacePages('f1', [{ page: 1, text: 'retrieval augmented generation' }, { page: 2, text: 'second page' }], { status: 'ok', pages: 2, message: null, sha256: 'sha-f1' });
      expect(await s.library.progress(null)).toEqual({ total_files: 1, queued_files: 0, indexed_pages: 2, embedded_pages: 0 });
      expect(await s.library.progress('p-none')).toEqual({ total_files: 0, queued_files: 0, indexed_pages: 0, embedded_pages: 0 });
      await s.library.changed('f1', { size: 11, mtime_ms: 6, sha256: 'sha-new' });
      expect((await s.library.byId('f1'))?.status).toBe('pending');
      expect((await s.library.progress(null)).queued_files).toBe(1);
      expect(await s.library.replacePages('f1', [{ page: 1, text: 'stale' }], { status: 'ok', pages: 1, message: null, sha256: 'sha-f1' })).toBe(false);
      expect(await s.library.pages('f1')).toEqual([{ page: 1, text: 'retrieval augmented generation' }, { page: 2, text: 'second page' }]);
      expect(await s.library.replacePages('f1', [{ page: 1, text: 'fresh text only' }], { status: 'ok', pages: 1, message: null, sha256: 'sha-new' })).toBe(true);
      expect(await s.library.pages('f1')).toEqual([{ page: 1, text: 'fresh text only' }]);
      expect(await s.library.byId('f1')).toMatchObject({ status: 'ok', pages: 1, indexed_sha256: 'sha-new' });
      await s.library.changed('f1', { size: 11, mtime_ms: 7, sha256: 'sha-new' });
      expect((await s.library.byId('f1'))?.status).toBe('ok');
      expect(await s.library.delete(null, 'a.pdf')).toBe(true);
      expect(await s.library.replacePages('f1', [{ page: 1, text: 'ghost' }], { status: 'ok', pages: 1, message: null, sha256: 'sha-new' })).toBe(false);
    });
  });
});
