// The data Folio's service hands out. Field names are snake_case because they are the wire format of
// every transport (HTTP JSON, SSE, IPC) and are named once, here.
import { z } from 'zod';
import { errorCodes } from '../folio-error';
import { SearchSettings } from './search-settings';
import { EmbeddingSettings } from './embedding-settings';
import { ToolCallRecord } from './tool-calls';

/** Ids are opaque, URL-safe and bounded; anything else is rejected before it reaches the store. */
export const Id = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'expected an id (1-64 of A-Z a-z 0-9 _ -)');
export const TaskMode = z.enum(['ppt', 'proposal', 'coding', 'general']);
export type TaskMode = z.infer<typeof TaskMode>;
export const TaskStatus = z.enum(['active', 'completed', 'abandoned']);
export type TaskStatus = z.infer<typeof TaskStatus>;
export const ApprovalMode = z.enum(['ask', 'auto-edit', 'auto']);
export type ApprovalMode = z.infer<typeof ApprovalMode>;
export const RunStatus = z.enum(['running', 'done', 'cancelled', 'failed', 'interrupted']);
export type RunStatus = z.infer<typeof RunStatus>;
export const FileKind = z.enum(['source', 'work', 'artifact']);
export type FileKind = z.infer<typeof FileKind>;
/** What a tool does, from its traits: read-only, edits, runs code, reaches the network, or an MCP server's tool. */
export const ToolKind = z.enum(['read', 'edit', 'execute', 'fetch', 'mcp']);
export type ToolKind = z.infer<typeof ToolKind>;
export const MessageRole = z.enum(['user', 'assistant', 'tool', 'system']);
export type MessageRole = z.infer<typeof MessageRole>;
/** How much the model reasons in a task: off, on, or the provider's deepest mode. */
export const ReasoningMode = z.enum(['none', 'thinking', 'max']);
export type ReasoningMode = z.infer<typeof ReasoningMode>;

/** Bounded text: the contract refuses payloads that no person would type. */
export const Title = z.string().max(200);
export const Description = z.string().max(10_000);
export const MessageText = z.string().min(1).max(200_000);
/** A path relative to a task folder, e.g. `source/report.pdf`. Confinement is enforced in main. */
export const RelPath = z.string().min(1).max(1024);

export const Task = z.object({
  id: Id,
  title: z.string(),
  description: z.string(),
  mode: TaskMode,
  status: TaskStatus,
  model: z.string().nullable(),
  approval_mode: ApprovalMode,
  workspace_path: z.string().nullable(),
  /** Whether the task's shell commands and scripts may use the network (the sandbox keeps it off otherwise). */
  allow_network: z.boolean(),
  prompt_tokens: z.number().int(),
  completion_tokens: z.number().int(),
  cost: z.number(),
  created_at: z.number().int(),
  updated_at: z.number().int(),
  last_run: z.object({ id: Id, status: RunStatus }).nullable(),
  /** The task's reasoning setting; null: the profile's (provider's) default. */
  reasoning: ReasoningMode.nullable(),
  /** The MCP servers (names in mcp.json) whose tools this task's runs get; null: none. */
  mcp_servers: z.array(z.string()).nullable(),
  /** The project the task belongs to; null: none. */
  project_id: Id.nullable(),
});
export type Task = z.infer<typeof Task>;

export const ToolCall = z.object({ id: z.string(), name: z.string(), arguments: z.string() });
export type ToolCall = z.infer<typeof ToolCall>;

export const Message = z.object({
  id: Id,
  task_id: Id,
  run_id: Id.nullable(),
  seq: z.number().int(),
  role: MessageRole,
  content: z.string(),
  reasoning: z.string().nullable(),
  tool_calls: z.array(ToolCall).nullable(),
  tool_call_id: z.string().nullable(),
  /**
   * Tool messages: whether the tool failed. Assistant messages: the answer was cut off (stopped, the
   * stream failed, the app closed) and is incomplete; Continue asks the model to finish it.
   */
  is_error: z.boolean(),
  /** For tool messages: the tool's name. */
  name: z.string().nullable(),
  created_at: z.number().int(),
});
export type Message = z.infer<typeof Message>;

export const Run = z.object({
  id: Id,
  task_id: Id,
  status: RunStatus,
  model: z.string().nullable(),
  started_at: z.number().int(),
  finished_at: z.number().int().nullable(),
  error: z.string().nullable(),
  /** The error's code and class when the run failed with a typed error, so a screen explains it in the person's language. */
  error_code: z.enum(errorCodes).optional(),
  error_name: z.string().optional(),
  prompt_tokens: z.number().int(),
  completion_tokens: z.number().int(),
  cost: z.number(),
  /** The run's tool calls and their named states, by callKey (read them through callStatesOf). */
  tool_calls: z.record(z.string(), ToolCallRecord),
});
export type Run = z.infer<typeof Run>;

export const FileEntry = z.object({
  task_id: Id,
  path: z.string(),
  kind: FileKind,
  size: z.number().int(),
  sha256: z.string(),
  created_at: z.number().int(),
});
export type FileEntry = z.infer<typeof FileEntry>;

export const ModelProfileInfo = z.object({
  id: z.string(),
  provider: z.string(),
  name: z.string(),
  model: z.string(),
  api_base: z.string(),
  api_key_env: z.string().nullable(),
  /** Whether a key is available (env or stored); the key itself never leaves main. */
  has_key: z.boolean(),
  role: z.enum(['chat', 'worker']),
  max_context: z.number().int(),
  reliable_context: z.number().int(),
  max_output: z.number().int(),
  parallel_tools: z.boolean(),
  thinking_mode: z.enum(['none', 'always', 'toggle']),
  reasoning_effort_levels: z.array(z.string()),
  max_iterations: z.number().int(),
  temperature: z.number(),
  /** Per million tokens, in `currency` (ISO 4217); 0 and 0: no price set. */
  price: z.object({ input: z.number(), output: z.number(), currency: z.string().optional() }),
  /** operator: a model the team service's operator offers every tenant, with the operator's key. */
  source: z.enum(['builtin', 'user', 'operator']),
  /** The reasoning settings this profile can honour (empty: it cannot reason, the control is disabled). */
  reasoning_modes: z.array(ReasoningMode),
});
export type ModelProfileInfo = z.infer<typeof ModelProfileInfo>;

export { ConfigFinding, ConfigWarning } from './config-findings';

/** The languages Folio's screens are shown in. */
export const UiLanguage = z.enum(['en', 'zh-CN']);
export type UiLanguage = z.infer<typeof UiLanguage>;

/** One short person-facing text in every UI language. */
export const LocalizedText = z.strictObject({ en: z.string().min(1).max(200), 'zh-CN': z.string().min(1).max(200) });
export type LocalizedText = z.infer<typeof LocalizedText>;

export const SkillInfo = z.object({
  name: z.string(),
  /** Model-facing: when to use the skill. Shown to the person only for a skill without a summary (their own text). */
  description: z.string(),
  /** Person-facing name and one-line summary; built-in skills declare them, a person's own skill may not. */
  title: LocalizedText.optional(),
  summary: LocalizedText.optional(),
  source: z.enum(['builtin', 'user']),
  path: z.string(),
});
export type SkillInfo = z.infer<typeof SkillInfo>;

export const Usage = z.object({ prompt_tokens: z.number().int(), completion_tokens: z.number().int(), cost: z.number() });
export type Usage = z.infer<typeof Usage>;

export const Settings = z.object({
  /** The desktop's data folder; absent in the team service, which shows a tenant no server path. */
  data_dir: z.string().optional(),
  language: z.enum(['system', 'en', 'zh-CN']),
  default_model: z.string().nullable(),
  transport: z.enum(['ipc', 'http']).optional(),
  // Absent when no backend is configured
  search: SearchSettings.optional(),
  // The embedding profile for semantic library search; absent when none
  embedding: EmbeddingSettings.optional(),
});
export type Settings = z.infer<typeof Settings>;

/**
 * Why a call asks, in words the card translates: `network` (the command needs the network the task
 * has off), `deletes`, `overwrites`, `outside_folder`, `runs_code` (runs code it was handed),
 * `unchecked` (could not be checked), `git_code` (writes git's configuration or hooks, which git runs
 * outside the sandbox), `runs_file` (runs these task files: a grant covers their current contents). `subject` names what it is about (a program, a path), if anything.
 */
export const ApprovalReasonCode = z.enum(['network', 'deletes', 'overwrites', 'outside_folder', 'runs_code', 'unchecked', 'git_code', 'runs_file']);
export const ApprovalReason = z.object({ code: ApprovalReasonCode, subject: z.string().nullable() });
export type ApprovalReason = z.infer<typeof ApprovalReason>;

export const PendingApproval = z.object({
  run_id: Id,
  call_id: z.string(),
  name: z.string(),
  arguments: z.string(),
  kind: ToolKind,
  risk: z.enum(['standard', 'destructive']),
  detail: z.string().nullable(),
  reasons: z.array(ApprovalReason),
  created_at: z.number().int(),
});
export type PendingApproval = z.infer<typeof PendingApproval>;

/**
 * A person's answer to an approval: once, for this task (a code-running tool: this exact command),
 * always for this tool (global, never for code-running tools), or no.
 */
export const ApprovalDecision = z.enum(['allow_once', 'allow_task', 'always', 'deny']);
export type ApprovalDecision = z.infer<typeof ApprovalDecision>;
/** A tool's full name as the model calls it (`edit`, `web_fetch`, `mcp__files__read_file`): a function name providers accept. */
export const ToolName = z.string().regex(/^[A-Za-z0-9_-]{1,128}$/, 'expected a tool name (1-128 of A-Z a-z 0-9 _ -)');
