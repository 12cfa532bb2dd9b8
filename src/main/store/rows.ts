// Row shapes as SQLite returns them, and their conversion to the contract's entities.
import {
  ApprovalReason,
  type ApprovalMode,
  type FileEntry,
  type FileKind,
  type Message,
  type MessageRole,
  type PendingApproval,
  type ReasoningMode,
  type Run,
  type RunStatus,
  type Task,
  type TaskMode,
  type TaskStatus,
  ToolCall,
} from '../../shared/contract/entities';
import { z } from 'zod';
import { RunToolCalls } from '../../shared/contract/tool-calls';
import { type ErrorCode, errorCodes } from '../../shared/folio-error';

export interface TaskRow {
  id: string;
  title: string;
  description: string;
  mode: TaskMode;
  status: TaskStatus;
  model: string | null;
  approval_mode: ApprovalMode;
  workspace_path: string | null;
  allow_network: number;
  materialized: number;
  prompt_tokens: number;
  completion_tokens: number;
  cost: number;
  created_at: number;
  updated_at: number;
  last_run_id: string | null;
  last_run_status: RunStatus | null;
  reasoning: ReasoningMode | null;
  mcp_servers: string | null;
  project_id: string | null;
}

/**
 * A task `t` nobody has used or said anything about: never marked materialized (a message or a
 * file), no title, no description, still active, and (against a caller that forgot to mark it) no
 * message or file either. Only such a task is purged at start; a /desc, /done or /abandon is an
 * explicit trace and is kept.
 */
export const UNTOUCHED_TASK = `t.materialized = 0 AND t.title = '' AND t.description = '' AND t.status = 'active'
  AND NOT EXISTS (SELECT 1 FROM messages m WHERE m.task_id = t.id)
  AND NOT EXISTS (SELECT 1 FROM files f WHERE f.task_id = t.id)`;

/** Columns of a task plus its newest run, for every query that returns tasks. */
export const taskSelect = `
  SELECT t.*,
    (SELECT r.id FROM runs r WHERE r.task_id = t.id ORDER BY r.started_at DESC, r.rowid DESC LIMIT 1) AS last_run_id,
    (SELECT r.status FROM runs r WHERE r.task_id = t.id ORDER BY r.started_at DESC, r.rowid DESC LIMIT 1) AS last_run_status
  FROM tasks t`;

export function toTask(row: TaskRow): Task {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    mode: row.mode,
    status: row.status,
    model: row.model,
    approval_mode: row.approval_mode,
    workspace_path: row.workspace_path,
    allow_network: row.allow_network === 1,
    prompt_tokens: row.prompt_tokens,
    completion_tokens: row.completion_tokens,
    cost: row.cost,
    created_at: row.created_at,
    updated_at: row.updated_at,
    last_run:
      row.last_run_id !== null && row.last_run_status !== null ? { id: row.last_run_id, status: row.last_run_status } : null,
    reasoning: row.reasoning ?? null,
    mcp_servers: parseServerList(row.mcp_servers),
    project_id: row.project_id ?? null,
  };
}

/** The task's MCP server names (a JSON array); anything unreadable counts as none. */
function parseServerList(text: string | null): string[] | null {
  if (text === null) return null;
  const parsed = z.array(z.string()).safeParse(JSON.parse(text));
  return parsed.success ? parsed.data : null;
}

export interface MessageRow {
  id: string;
  task_id: string;
  run_id: string | null;
  seq: number;
  role: MessageRole;
  content: string;
  reasoning: string | null;
  tool_calls: string | null;
  tool_call_id: string | null;
  name: string | null;
  is_error: number;
  created_at: number;
  /** The message before it on its path (null for a first message); migration 5. */
  parent_id: string | null;
  /** 1 when on the task's active path. */
  active: number;
}

const ToolCalls = z.array(ToolCall);

export function toMessage(row: MessageRow): Message {
  return {
    id: row.id,
    task_id: row.task_id,
    run_id: row.run_id,
    seq: row.seq,
    role: row.role,
    content: row.content,
    reasoning: row.reasoning,
    tool_calls: row.tool_calls === null ? null : parseToolCalls(row.tool_calls),
    tool_call_id: row.tool_call_id,
    name: row.name,
    is_error: row.is_error !== 0,
    created_at: row.created_at,
  };
}

/** Stored by this module, so a parse failure means a damaged row; it reads as "no tool calls". */
function parseToolCalls(text: string): ToolCall[] | null {
  try {
    const parsed = ToolCalls.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export interface RunRow {
  id: string;
  task_id: string;
  status: RunStatus;
  model: string | null;
  started_at: number;
  finished_at: number | null;
  error: string | null;
  error_code: string | null;
  error_name: string | null;
  prompt_tokens: number;
  completion_tokens: number;
  cost: number;
  state: string | null;
}

export function toRun(row: RunRow): Run {
  return {
    id: row.id,
    task_id: row.task_id,
    status: row.status,
    model: row.model,
    started_at: row.started_at,
    finished_at: row.finished_at,
    error: row.error,
    ...(isErrorCode(row.error_code) ? { error_code: row.error_code } : {}),
    ...(row.error_name === null ? {} : { error_name: row.error_name }),
    prompt_tokens: row.prompt_tokens,
    completion_tokens: row.completion_tokens,
    cost: row.cost,
    tool_calls: runToolCalls(row.state),
  };
}

/** A run's recorded tool calls (none for a run that called no tool, or one from before states were kept). */
function runToolCalls(state: string | null): Run['tool_calls'] {
  if (state === null) return {};
  const parsed = RunToolCalls.safeParse(JSON.parse(state));
  return parsed.success ? parsed.data.tool_calls : {};
}

export interface FileRow {
  task_id: string;
  path: string;
  kind: FileKind;
  size: number;
  sha256: string;
  created_at: number;
}

export function toFileEntry(row: FileRow): FileEntry {
  return { task_id: row.task_id, path: row.path, kind: row.kind, size: row.size, sha256: row.sha256, created_at: row.created_at };
}

export interface ApprovalRow {
  run_id: string;
  call_id: string;
  task_id: string;
  name: string;
  arguments: string;
  kind: PendingApproval['kind'];
  risk: PendingApproval['risk'];
  detail: string | null;
  /** JSON array of ApprovalReason; null for rows from before migration 9. */
  reasons: string | null;
  created_at: number;
}

const Reasons = z.array(ApprovalReason);

/** Stored by this module; a damaged value reads as no reasons (the card still shows the call). */
function parseReasons(text: string | null): ApprovalReason[] {
  if (text === null) return [];
  try {
    const parsed = Reasons.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : [];
  } catch {
    return [];
  }
}

export function toApproval(row: ApprovalRow): PendingApproval {
  return {
    run_id: row.run_id,
    call_id: row.call_id,
    name: row.name,
    arguments: row.arguments,
    kind: row.kind,
    risk: row.risk,
    detail: row.detail,
    reasons: parseReasons(row.reasons),
    created_at: row.created_at,
  };
}

/** A stored code this build knows (an older or newer Folio may have written another). */
function isErrorCode(code: string | null): code is ErrorCode {
  return code !== null && (errorCodes as readonly string[]).includes(code);
}
