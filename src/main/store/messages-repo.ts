// Messages of a task's conversation, numbered by a per-task seq that has no gaps. Messages form a
// tree (each has the parent it was appended after); one path through it is active, marked by a flag
// so the conversation is read with an indexed range scan. A new message always extends the active
// path; regenerate and edit first cut the path short, which leaves the cut part as a kept branch.
import type Database from 'better-sqlite3';
import { type BranchPoint } from '../../shared/contract/branches';
import { type Message, type MessageRole, type ToolCall } from '../../shared/contract/entities';
import { NotFoundError, ValidationError } from '../../shared/errors';
import { type MessageRow, toMessage } from './rows';
import { withTaskConstraints } from './sqlite-errors';

export interface NewMessage {
  id: string;
  task_id: string;
  run_id: string | null;
  role: MessageRole;
  content: string;
  reasoning?: string | null;
  tool_calls?: ToolCall[] | null;
  tool_call_id?: string | null;
  name?: string | null;
  is_error?: boolean;
}

export type MessagePatch = Partial<{ content: string; reasoning: string | null; tool_calls: ToolCall[] | null }>;

export interface MessagePage {
  messages: Message[];
  has_more: boolean;
}

export interface MessagesRepo {
  /**
   * Assigns the next seq of the task and appends after the active path's last message; also marks
   * the task materialized and touches it.
   */
  append(message: NewMessage): Message;
  /** Finalizes a streamed message. Throws NotFoundError for an unknown id. */
  update(id: string, patch: MessagePatch): Message;
  /** The active path's `limit` (default 100) messages before `beforeSeq` (or the newest), in ascending seq order. */
  list(taskId: string, page?: { beforeSeq?: number; limit?: number }): MessagePage;
  /** The whole active path: the conversation the model sees. */
  all(taskId: string): Message[];
  get(id: string): Message | undefined;
  /** The tool result for a call, preferring the active path (call ids may repeat across branches). */
  findToolResult(taskId: string, toolCallId: string): Message | undefined;
  /** The message if it is on the task's active path. */
  activeMessage(taskId: string, id: string): Message | undefined;
  /** The active path's last message of a role. */
  lastActive(taskId: string, role: MessageRole): Message | undefined;
  /**
   * Takes the active path's messages from `fromSeq` on off the path (they stay stored, as a branch
   * that can be switched back to); the next append continues from the message before them.
   * Returns how many left the path.
   */
  truncateActivePath(taskId: string, fromSeq: number): number;
  /**
   * Makes the path through `messageId` active, down to the newest message under it (where that
   * branch was last continued). Throws NotFoundError for a message not in the task.
   */
  switchBranch(taskId: string, messageId: string): void;
  /** The active path's messages that have siblings, in path order. */
  branches(taskId: string): BranchPoint[];
}

export const DEFAULT_PAGE_SIZE = 100;

export function createMessagesRepo(db: Database.Database, now: () => number): MessagesRepo {
  const insert = db.prepare<
    {
      id: string;
      task_id: string;
      run_id: string | null;
      role: MessageRole;
      content: string;
      reasoning: string | null;
      tool_calls: string | null;
      tool_call_id: string | null;
      name: string | null;
      is_error: number;
      now: number;
    },
    MessageRow
  >(`
    INSERT INTO messages (id, task_id, run_id, seq, role, content, reasoning, tool_calls, tool_call_id, name, is_error, created_at, parent_id, active)
    VALUES (@id, @task_id, @run_id,
      (SELECT COALESCE(MAX(seq), 0) + 1 FROM messages WHERE task_id = @task_id),
      @role, @content, @reasoning, @tool_calls, @tool_call_id, @name, @is_error, @now,
      (SELECT id FROM messages WHERE task_id = @task_id AND active = 1 ORDER BY seq DESC LIMIT 1), 1)
    RETURNING *`);
  const markTaskUsed = db.prepare<[number, string]>('UPDATE tasks SET materialized = 1, updated_at = ? WHERE id = ?');
  const updateOne = db.prepare<
    {
      id: string;
      set_content: number;
      content: string | null;
      set_reasoning: number;
      reasoning: string | null;
      set_tool_calls: number;
      tool_calls: string | null;
    },
    MessageRow
  >(`
    UPDATE messages SET
      content = CASE WHEN @set_content THEN @content ELSE content END,
      reasoning = CASE WHEN @set_reasoning THEN @reasoning ELSE reasoning END,
      tool_calls = CASE WHEN @set_tool_calls THEN @tool_calls ELSE tool_calls END
    WHERE id = @id
    RETURNING *`);
  // Fetches one extra row to learn whether an older page exists without a COUNT.
  const selectPage = db.prepare<{ task_id: string; before: number | null; take: number }, MessageRow>(`
    SELECT * FROM messages
    WHERE task_id = @task_id AND active = 1 AND (@before IS NULL OR seq < @before)
    ORDER BY seq DESC LIMIT @take`);
  const selectAll = db.prepare<[string], MessageRow>('SELECT * FROM messages WHERE task_id = ? AND active = 1 ORDER BY seq');
  const selectOne = db.prepare<[string], MessageRow>('SELECT * FROM messages WHERE id = ?');
  const selectToolResult = db.prepare<[string, string], MessageRow>(`
    SELECT * FROM messages WHERE task_id = ? AND tool_call_id = ? AND role = 'tool' ORDER BY active DESC, seq DESC LIMIT 1`);
  const selectActiveOne = db.prepare<[string, string], MessageRow>('SELECT * FROM messages WHERE task_id = ? AND id = ? AND active = 1');
  const selectLastActive = db.prepare<[string, MessageRole], MessageRow>(
    'SELECT * FROM messages WHERE task_id = ? AND active = 1 AND role = ? ORDER BY seq DESC LIMIT 1',
  );
  const truncate = db.prepare<[string, number]>('UPDATE messages SET active = 0 WHERE task_id = ? AND active = 1 AND seq >= ?');
  // The newest message under the chosen one (itself included): where that branch was left.
  const selectLeaf = db
    .prepare<{ task_id: string; id: string }, string>(`
      WITH RECURSIVE below (id, seq) AS (
        SELECT id, seq FROM messages WHERE task_id = @task_id AND id = @id
        UNION ALL
        SELECT m.id, m.seq FROM messages m JOIN below ON m.task_id = @task_id AND m.parent_id = below.id
      )
      SELECT id FROM below ORDER BY seq DESC LIMIT 1`)
    .pluck();
  // Flags exactly the leaf and its ancestors active, in one statement.
  const activatePath = db.prepare<{ task_id: string; leaf: string }>(`
    WITH RECURSIVE path (id, parent_id) AS (
      SELECT id, parent_id FROM messages WHERE task_id = @task_id AND id = @leaf
      UNION ALL
      SELECT m.id, m.parent_id FROM messages m JOIN path ON m.id = path.parent_id
    )
    UPDATE messages SET active = CASE WHEN id IN (SELECT id FROM path) THEN 1 ELSE 0 END
    WHERE task_id = @task_id AND (active = 1 OR id IN (SELECT id FROM path))`);
  // Parents with more than one child, from the covering index alone: the rows themselves (with
  // their contents, often several kB on overflow pages) are read only for the few forks.
  const selectForkParents = db
    .prepare<[string], string | null>('SELECT parent_id FROM messages INDEXED BY messages_by_parent WHERE task_id = ? GROUP BY parent_id HAVING COUNT(*) > 1')
    .pluck();
  const selectSiblings = db.prepare<{ task_id: string; parent_id: string | null }, { id: string; parent_id: string | null; active: number; seq: number }>(
    'SELECT id, parent_id, active, seq FROM messages WHERE task_id = @task_id AND parent_id IS @parent_id ORDER BY seq',
  );

  const appendTx = db.transaction((m: NewMessage): Message => {
    const at = now();
    const row = insert.get({
      id: m.id,
      task_id: m.task_id,
      run_id: m.run_id,
      role: m.role,
      content: m.content,
      reasoning: m.reasoning ?? null,
      tool_calls: m.tool_calls == null ? null : JSON.stringify(m.tool_calls),
      tool_call_id: m.tool_call_id ?? null,
      name: m.name ?? null,
      is_error: m.is_error === true ? 1 : 0,
      now: at,
    });
    if (row === undefined) throw new Error('INSERT ... RETURNING returned no row');
    markTaskUsed.run(at, m.task_id);
    return toMessage(row);
  });

  return {
    append(message) {
      return withTaskConstraints(message.task_id, `Message ${message.id}`, () => appendTx(message));
    },
    update(id, patch) {
      const row = updateOne.get({
        id,
        set_content: patch.content !== undefined ? 1 : 0,
        content: patch.content ?? null,
        set_reasoning: patch.reasoning !== undefined ? 1 : 0,
        reasoning: patch.reasoning ?? null,
        set_tool_calls: patch.tool_calls !== undefined ? 1 : 0,
        tool_calls: patch.tool_calls == null ? null : JSON.stringify(patch.tool_calls),
      });
      if (row === undefined) throw new NotFoundError(`Message ${id} not found.`);
      return toMessage(row);
    },
    list(taskId, page = {}) {
      const limit = page.limit ?? DEFAULT_PAGE_SIZE;
      if (!Number.isInteger(limit) || limit < 1) throw new ValidationError(`limit: expected a positive integer, got ${limit}`);
      const before = page.beforeSeq ?? null;
      const rows = selectPage.all({ task_id: taskId, before, take: limit + 1 });
      const has_more = rows.length > limit;
      return { messages: rows.slice(0, limit).reverse().map(toMessage), has_more };
    },
    all(taskId) {
      return selectAll.all(taskId).map(toMessage);
    },
    get(id) {
      const row = selectOne.get(id);
      return row === undefined ? undefined : toMessage(row);
    },
    findToolResult(taskId, toolCallId) {
      const row = selectToolResult.get(taskId, toolCallId);
      return row === undefined ? undefined : toMessage(row);
    },
    activeMessage(taskId, id) {
      const row = selectActiveOne.get(taskId, id);
      return row === undefined ? undefined : toMessage(row);
    },
    lastActive(taskId, role) {
      const row = selectLastActive.get(taskId, role);
      return row === undefined ? undefined : toMessage(row);
    },
    truncateActivePath(taskId, fromSeq) {
      return truncate.run(taskId, fromSeq).changes;
    },
    switchBranch(taskId, messageId) {
      db.transaction(() => {
        const leaf = selectLeaf.get({ task_id: taskId, id: messageId });
        if (leaf === undefined) throw new NotFoundError(`No message ${messageId} in task ${taskId}`);
        activatePath.run({ task_id: taskId, leaf });
      })();
    },
    branches(taskId) {
      // Forks sorted by their oldest sibling are in path order: a later fork's parent lies below an
      // earlier fork's active sibling, so all its siblings are newer.
      const forks = selectForkParents
        .all(taskId)
        .map((parent_id) => selectSiblings.all({ task_id: taskId, parent_id }))
        .sort((a, b) => a[0].seq - b[0].seq);
      const groups = forks.map((rows) => rows.map((row) => ({ id: row.id, active: row.active === 1 })));
      const points: BranchPoint[] = [];
      for (const group of groups) {
        const at = group.findIndex((m) => m.active);
        if (at >= 0) points.push({ message_id: group[at].id, index: at + 1, count: group.length, siblings: group.map((m) => m.id) });
      }
      return points;
    },
  };
}
