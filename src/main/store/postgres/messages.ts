// Messages on PostgreSQL: what ../messages-repo.ts states (the tree, the active path, paging),
// reached only through a task the scope owns. Each row carries its task's tenant and user, so reads
// filter on the row itself.
import pg from 'pg';
import type { BranchPoint } from '../../../shared/contract/branches';
import type { Message } from '../../../shared/contract/entities';
import { NotFoundError, ValidationError } from '../../../shared/errors';
import type { MessagesRepo } from '../index';
import { DEFAULT_PAGE_SIZE } from '../messages-repo';
import type { AsyncRepo, Scope } from '../port';
import { type MessageRow, toMessage } from '../rows';
import { type Sql, UNIQUE_VIOLATION, withTaskConstraints } from './sql';

/** The message row `m` belongs to the scope ($1 tenant, $2 user). */
const OWN = 'm.tenant_id = $1 AND m.user_id = $2';

// The row an append writes ($1-$13 as `append` orders them): the next seq of the task, and the
// newest message of its active path as the parent.
const INSERT_MESSAGE = `
INSERT INTO messages (tenant_id, user_id, id, task_id, run_id, seq, role, content, reasoning, tool_calls, tool_call_id, name, is_error, created_at, parent_id, active)
SELECT $1, $2, $3, $4, $5,
  (SELECT COALESCE(MAX(seq), 0) + 1 FROM messages WHERE task_id = $4),
  $6, $7, $8, $9, $10, $11, $12, $13,
  (SELECT id FROM messages WHERE task_id = $4 AND active = 1 ORDER BY seq DESC LIMIT 1), 1`;

// An append on its own as one statement, one round trip instead of five (begin, lock, insert, touch,
// commit): the task must be the scope's, and is touched in the same statement. Its row is locked
// before the insert, as in a transaction's append, so the two kinds never wait for each other in
// opposite orders (row, then the new (task, seq) entry).
const APPEND_ALONE = `
WITH owned AS (SELECT 1 FROM tasks WHERE id = $4 AND tenant_id = $1 AND user_id = $2 FOR UPDATE),
appended AS (${INSERT_MESSAGE} FROM owned RETURNING *),
touched AS (UPDATE tasks SET materialized = 1, updated_at = GREATEST(updated_at, $13) WHERE id = $4 AND EXISTS (SELECT 1 FROM appended))
SELECT * FROM appended`;

/** The (task, seq) pair every message has once: two appends that computed the same seq meet here. */
const TASK_SEQ_CONSTRAINT = 'messages_task_id_seq_key';
const APPEND_ATTEMPTS = 20;

/**
 * One statement reads MAX(seq) in the snapshot it started with, even after waiting for the task's
 * lock, so an append that waited for another computes the same seq and fails on the (task, seq)
 * constraint; it is then tried again on a fresh snapshot, which sees the other message (its seq and
 * its place as the parent). Appends to one task at once are rare: a run's own messages come one
 * after another.
 */
async function appendAlone(sql: Sql, taskId: string, values: unknown[]): Promise<MessageRow> {
  for (let attempt = 1; ; attempt++) {
    try {
      const [row] = await sql.rows<MessageRow>(APPEND_ALONE, values);
      if (row === undefined) throw new NotFoundError(`Task ${taskId} not found.`);
      return row;
    } catch (err) {
      if (attempt >= APPEND_ATTEMPTS || !(err instanceof pg.DatabaseError) || err.code !== UNIQUE_VIOLATION || err.constraint !== TASK_SEQ_CONSTRAINT) throw err;
    }
  }
}

export function pgMessagesRepo(sql: Sql, scope: Scope, now: () => number): AsyncRepo<MessagesRepo> {
  const owner = [scope.tenant_id, scope.user_id];
  const one = async (text: string, values: unknown[]): Promise<Message | undefined> => {
    const [row] = await sql.rows<MessageRow>(text, values);
    return row === undefined ? undefined : toMessage(row);
  };

  return {
    async append(m) {
      const at = now();
      const values = [
        ...owner,
        m.id,
        m.task_id,
        m.run_id,
        m.role,
        m.content,
        m.reasoning ?? null,
        m.tool_calls == null ? null : JSON.stringify(m.tool_calls),
        m.tool_call_id ?? null,
        m.name ?? null,
        m.is_error === true ? 1 : 0,
        at,
      ];
      return withTaskConstraints(m.task_id, `Message ${m.id}`, async () => {
        if (!sql.inTransaction) return toMessage(await appendAlone(sql, m.task_id, values));
        return sql.atomic(async (tx) => {
          // Locking the task row serialises appends to one task, so MAX(seq) + 1 never collides.
          const task = await tx.rows('SELECT 1 FROM tasks WHERE id = $3 AND tenant_id = $1 AND user_id = $2 FOR UPDATE', [...owner, m.task_id]);
          if (task.length === 0) throw new NotFoundError(`Task ${m.task_id} not found.`);
          const [row] = await tx.rows<MessageRow>(`${INSERT_MESSAGE} FROM (SELECT 1) AS one RETURNING *`, values);
          // Once per transaction, with the last append's time (see Sql.atCommit): a bulk import of
          // 10,000 messages in one transaction otherwise slows with every append.
          await tx.atCommit(`touch-task:${m.task_id}`, (last) => last.run('UPDATE tasks SET materialized = 1, updated_at = GREATEST(updated_at, $1) WHERE id = $2', [at, m.task_id]));
          return toMessage(row);
        });
      });
    },
    async update(id, patch) {
      const sets: string[] = [];
      const values: unknown[] = [...owner, id];
      const set = (column: string, value: unknown) => {
        values.push(value);
        sets.push(`${column} = $${values.length}`);
      };
      if (patch.content !== undefined) set('content', patch.content);
      if (patch.reasoning !== undefined) set('reasoning', patch.reasoning);
      if (patch.tool_calls !== undefined) set('tool_calls', patch.tool_calls === null ? null : JSON.stringify(patch.tool_calls));
      // An empty patch still has to prove the message exists, as SQLite's no-op UPDATE … RETURNING does.
      const message = await one(
        sets.length > 0 ? `UPDATE messages m SET ${sets.join(', ')} WHERE ${OWN} AND m.id = $3 RETURNING *` : `SELECT * FROM messages m WHERE ${OWN} AND m.id = $3`,
        values,
      );
      if (message === undefined) throw new NotFoundError(`Message ${id} not found.`);
      return message;
    },
    async list(taskId, page = {}) {
      const limit = page.limit ?? DEFAULT_PAGE_SIZE;
      if (!Number.isInteger(limit) || limit < 1) throw new ValidationError(`limit: expected a positive integer, got ${limit}`);
      // Fetches one extra row to learn whether an older page exists without a COUNT.
      const rows = await sql.rows<MessageRow>(
        `SELECT * FROM messages m WHERE ${OWN} AND m.task_id = $3 AND m.active = 1 AND ($4::integer IS NULL OR m.seq < $4)
         ORDER BY m.seq DESC LIMIT $5`,
        [...owner, taskId, page.beforeSeq ?? null, limit + 1],
      );
      return { messages: rows.slice(0, limit).reverse().map(toMessage), has_more: rows.length > limit };
    },
    async all(taskId) {
      const rows = await sql.rows<MessageRow>(`SELECT * FROM messages m WHERE ${OWN} AND m.task_id = $3 AND m.active = 1 ORDER BY m.seq`, [...owner, taskId]);
      return rows.map(toMessage);
    },
    get: (id) => one(`SELECT * FROM messages m WHERE ${OWN} AND m.id = $3`, [...owner, id]),
    findToolResult: (taskId, toolCallId) =>
      one(
        `SELECT * FROM messages m WHERE ${OWN} AND m.task_id = $3 AND m.tool_call_id = $4 AND m.role = 'tool'
         ORDER BY m.active DESC, m.seq DESC LIMIT 1`,
        [...owner, taskId, toolCallId],
      ),
    activeMessage: (taskId, id) => one(`SELECT * FROM messages m WHERE ${OWN} AND m.task_id = $3 AND m.id = $4 AND m.active = 1`, [...owner, taskId, id]),
    lastActive: (taskId, role) =>
      one(`SELECT * FROM messages m WHERE ${OWN} AND m.task_id = $3 AND m.active = 1 AND m.role = $4 ORDER BY m.seq DESC LIMIT 1`, [
        ...owner,
        taskId,
        role,
      ]),
    truncateActivePath: (taskId, fromSeq) =>
      sql.run(`UPDATE messages m SET active = 0 WHERE ${OWN} AND m.task_id = $3 AND m.active = 1 AND m.seq >= $4`, [...owner, taskId, fromSeq]),
    async switchBranch(taskId, messageId) {
      await sql.atomic(async (tx) => {
        // The newest message under the chosen one (itself included): where that branch was left.
        const [leaf] = await tx.rows<{ id: string }>(
          `WITH RECURSIVE below (id, seq) AS (
             SELECT m.id, m.seq FROM messages m WHERE ${OWN} AND m.task_id = $3 AND m.id = $4
             UNION ALL
             SELECT m.id, m.seq FROM messages m JOIN below ON m.task_id = $3 AND m.parent_id = below.id
           )
           SELECT id FROM below ORDER BY seq DESC LIMIT 1`,
          [...owner, taskId, messageId],
        );
        if (leaf === undefined) throw new NotFoundError(`No message ${messageId} in task ${taskId}`);
        // Flags exactly the leaf and its ancestors active, in one statement.
        await tx.run(
          `WITH RECURSIVE path (id, parent_id) AS (
             SELECT id, parent_id FROM messages WHERE task_id = $1 AND id = $2
             UNION ALL
             SELECT m.id, m.parent_id FROM messages m JOIN path ON m.id = path.parent_id
           )
           UPDATE messages SET active = CASE WHEN id IN (SELECT id FROM path) THEN 1 ELSE 0 END
           WHERE task_id = $1 AND (active = 1 OR id IN (SELECT id FROM path))`,
          [taskId, leaf.id],
        );
      });
    },
    async branches(taskId) {
      // Every child of a parent with siblings, in one query; grouped and ordered as the SQLite side does.
      const rows = await sql.rows<{ id: string; parent_id: string | null; active: number; seq: number }>(
        `SELECT m.id, m.parent_id, m.active, m.seq FROM messages m
         WHERE ${OWN} AND m.task_id = $3 AND EXISTS (
           SELECT 1 FROM messages f WHERE f.task_id = $3 AND f.parent_id IS NOT DISTINCT FROM m.parent_id AND f.id <> m.id
         )
         ORDER BY m.seq`,
        [...owner, taskId],
      );
      const byParent = new Map<string | null, typeof rows>();
      for (const row of rows) byParent.set(row.parent_id, [...(byParent.get(row.parent_id) ?? []), row]);
      // Forks sorted by their oldest sibling are in path order (see messages-repo.ts).
      const groups = [...byParent.values()].sort((a, b) => a[0].seq - b[0].seq);
      const points: BranchPoint[] = [];
      for (const group of groups) {
        const at = group.findIndex((m) => m.active === 1);
        if (at >= 0) points.push({ message_id: group[at].id, index: at + 1, count: group.length, siblings: group.map((m) => m.id) });
      }
      return points;
    },
  };
}
