// Messages of a task's conversation, numbered by a per-task seq that has no gaps.
import type Database from 'better-sqlite3';
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
  /** Assigns the next seq of the task; also marks the task materialized and touches it. */
  append(message: NewMessage): Message;
  /** Finalizes a streamed message. Throws NotFoundError for an unknown id. */
  update(id: string, patch: MessagePatch): Message;
  /** The `limit` (default 100) messages before `beforeSeq` (or the newest), in ascending seq order. */
  list(taskId: string, page?: { beforeSeq?: number; limit?: number }): MessagePage;
  all(taskId: string): Message[];
  get(id: string): Message | undefined;
  findToolResult(taskId: string, toolCallId: string): Message | undefined;
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
    INSERT INTO messages (id, task_id, run_id, seq, role, content, reasoning, tool_calls, tool_call_id, name, is_error, created_at)
    VALUES (@id, @task_id, @run_id,
      (SELECT COALESCE(MAX(seq), 0) + 1 FROM messages WHERE task_id = @task_id),
      @role, @content, @reasoning, @tool_calls, @tool_call_id, @name, @is_error, @now)
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
    WHERE task_id = @task_id AND (@before IS NULL OR seq < @before)
    ORDER BY seq DESC LIMIT @take`);
  const selectAll = db.prepare<[string], MessageRow>('SELECT * FROM messages WHERE task_id = ? ORDER BY seq');
  const selectOne = db.prepare<[string], MessageRow>('SELECT * FROM messages WHERE id = ?');
  const selectToolResult = db.prepare<[string, string], MessageRow>(`
    SELECT * FROM messages WHERE task_id = ? AND tool_call_id = ? AND role = 'tool' ORDER BY seq DESC LIMIT 1`);

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
  };
}
