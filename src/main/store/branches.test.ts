// The conversation tree: appends extend the active path, truncating leaves a kept branch, switching
// makes another branch the path again, and databases from before migration 5 become one path.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NotFoundError } from '../../shared/errors';
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

function open(): Store {
  store = openStore(temp.dbPath);
  store.tasks.create({ id: 't', mode: 'general', title: 't', description: '', model: null });
  return store;
}

function add(s: Store, id: string, role: 'user' | 'assistant' = 'user') {
  return s.messages.append({ id, task_id: 't', run_id: null, role, content: id });
}

const path = (s: Store) => s.messages.all('t').map((m) => m.id);
const parentOf = (s: Store, id: string) => s.db.prepare<[string], string | null>('SELECT parent_id FROM messages WHERE id = ?').pluck().get(id);

describe('conversation tree', () => {
  it('appends each message after the active path’s last one', () => {
    const s = open();
    add(s, 'u1');
    add(s, 'a1', 'assistant');
    expect(parentOf(s, 'u1')).toBeNull();
    expect(parentOf(s, 'a1')).toBe('u1');
    expect(s.messages.branches('t')).toEqual([]);
  });

  it('regenerating keeps the replaced reply as a sibling branch and lists the fork', () => {
    const s = open();
    add(s, 'u1');
    add(s, 'a1', 'assistant');
    add(s, 'u2');
    add(s, 'a2', 'assistant');
    // Regenerate the answer to u2: a2 leaves the path, the new reply hangs off u2.
    expect(s.messages.truncateActivePath('t', s.messages.get('u2')!.seq + 1)).toBe(1);
    expect(path(s)).toEqual(['u1', 'a1', 'u2']);
    add(s, 'a2b', 'assistant');
    expect(path(s)).toEqual(['u1', 'a1', 'u2', 'a2b']);
    expect(parentOf(s, 'a2b')).toBe('u2');
    expect(s.messages.branches('t')).toEqual([{ message_id: 'a2b', index: 2, count: 2, siblings: ['a2', 'a2b'] }]);
    // Seq stays unique and gap-free across branches (the crash guarantees rely on it).
    expect(s.messages.get('a2b')!.seq).toBe(5);
    // Paging reads the active path only.
    expect(s.messages.list('t', { limit: 2 })).toMatchObject({ messages: [{ id: 'u2' }, { id: 'a2b' }], has_more: true });
    expect(s.messages.list('t', { beforeSeq: 5, limit: 2 }).messages.map((m) => m.id)).toEqual(['a1', 'u2']);
    expect(s.messages.lastActive('t', 'assistant')?.id).toBe('a2b');
  });

  it('editing the first message makes a sibling root; switching goes back to where a branch was left', () => {
    const s = open();
    add(s, 'u1');
    add(s, 'a1', 'assistant');
    add(s, 'u2');
    add(s, 'a2', 'assistant');
    s.messages.truncateActivePath('t', s.messages.get('u1')!.seq);
    expect(path(s)).toEqual([]);
    add(s, 'u1b');
    add(s, 'a1b', 'assistant');
    expect(parentOf(s, 'u1b')).toBeNull();
    expect(s.messages.branches('t')).toEqual([{ message_id: 'u1b', index: 2, count: 2, siblings: ['u1', 'u1b'] }]);

    // Switching to u1 restores its whole branch, down to its newest message.
    s.messages.switchBranch('t', 'u1');
    expect(path(s)).toEqual(['u1', 'a1', 'u2', 'a2']);
    expect(s.messages.branches('t')).toEqual([{ message_id: 'u1', index: 1, count: 2, siblings: ['u1', 'u1b'] }]);
    expect(s.messages.activeMessage('t', 'u1b')).toBeUndefined();
    expect(s.messages.activeMessage('t', 'u2')?.id).toBe('u2');
    // A message appended now continues the restored branch.
    add(s, 'u3');
    expect(parentOf(s, 'u3')).toBe('a2');
    s.messages.switchBranch('t', 'u1b');
    expect(path(s)).toEqual(['u1b', 'a1b']);
    expect(() => s.messages.switchBranch('t', 'nope')).toThrow(NotFoundError);
  });

  it('lists nested forks in path order, each with its own place', () => {
    const s = open();
    add(s, 'u1');
    add(s, 'a1', 'assistant');
    s.messages.truncateActivePath('t', 2);
    add(s, 'a1b', 'assistant');
    add(s, 'u2');
    add(s, 'a2', 'assistant');
    s.messages.truncateActivePath('t', s.messages.get('u2')!.seq);
    add(s, 'u2b');
    s.messages.truncateActivePath('t', s.messages.get('u2b')!.seq);
    add(s, 'u2c');
    expect(path(s)).toEqual(['u1', 'a1b', 'u2c']);
    expect(s.messages.branches('t')).toEqual([
      { message_id: 'a1b', index: 2, count: 2, siblings: ['a1', 'a1b'] },
      { message_id: 'u2c', index: 3, count: 3, siblings: ['u2', 'u2b', 'u2c'] },
    ]);
    // Switching at the outer fork hides the inner one (it is not on that path).
    s.messages.switchBranch('t', 'a1');
    expect(path(s)).toEqual(['u1', 'a1']);
    expect(s.messages.branches('t')).toEqual([{ message_id: 'a1', index: 1, count: 2, siblings: ['a1', 'a1b'] }]);
  });

  it('finds a tool result on the active path first when a call id repeats across branches', () => {
    const s = open();
    add(s, 'u1');
    const result = (id: string, content: string) => s.messages.append({ id, task_id: 't', run_id: null, role: 'tool', content, tool_call_id: 'call_1', name: 'read' });
    s.messages.append({ id: 'a1', task_id: 't', run_id: null, role: 'assistant', content: '', tool_calls: [{ id: 'call_1', name: 'read', arguments: '{}' }] });
    result('r1', 'old branch');
    s.messages.truncateActivePath('t', 2);
    s.messages.append({ id: 'a1b', task_id: 't', run_id: null, role: 'assistant', content: '', tool_calls: [{ id: 'call_1', name: 'read', arguments: '{}' }] });
    result('r1b', 'new branch');
    s.messages.switchBranch('t', 'a1');
    expect(s.messages.findToolResult('t', 'call_1')?.content).toBe('old branch');
  });
});

describe('migration 5', () => {
  it('turns a database from before it into one active path per task, in seq order', () => {
    const raw = openDatabase(temp.dbPath, migrations.filter((m) => m.version < 5));
    raw.prepare("INSERT INTO tasks (id, title, mode, created_at, updated_at) VALUES ('t', 't', 'general', 1, 1), ('o', 'o', 'general', 1, 1)").run();
    const insert = raw.prepare('INSERT INTO messages (id, task_id, seq, role, content, created_at) VALUES (?, ?, ?, ?, ?, 1)');
    // Inserted out of order and interleaved across tasks: parents follow seq within a task.
    insert.run('m3', 't', 3, 'user', 'again');
    insert.run('m1', 't', 1, 'user', 'hello');
    insert.run('o1', 'o', 1, 'user', 'other');
    insert.run('m2', 't', 2, 'assistant', 'hi');
    raw.close();

    store = openStore(temp.dbPath);
    const s = store;
    expect(s.db.pragma('user_version', { simple: true })).toBe(latestSchemaVersion);
    expect(path(s)).toEqual(['m1', 'm2', 'm3']);
    expect([parentOf(s, 'm1'), parentOf(s, 'm2'), parentOf(s, 'm3'), parentOf(s, 'o1')]).toEqual([null, 'm1', 'm2', null]);
    expect(s.messages.all('o').map((m) => m.id)).toEqual(['o1']);
    expect(s.messages.branches('t')).toEqual([]);
    // The next message continues the migrated path.
    s.messages.append({ id: 'm4', task_id: 't', run_id: null, role: 'assistant', content: 'x' });
    expect(parentOf(s, 'm4')).toBe('m3');
    // Reading the active path uses its index rather than scanning the table.
    const plan = s.db.prepare("EXPLAIN QUERY PLAN SELECT * FROM messages WHERE task_id = 't' AND active = 1 ORDER BY seq").all() as { detail: string }[];
    expect(plan.map((p) => p.detail).join(' ')).toContain('messages_active_path');
    expect(s.integrityCheck()).toBe('ok');
  });
});
