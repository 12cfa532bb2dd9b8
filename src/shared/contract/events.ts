// The one discriminated union of run events. The agent loop yields them; IPC pushes them; SSE streams them.
import { z } from 'zod';
import { ErrorShape } from '../errors';
import { ApprovalDecision, ApprovalReason, Id, ReasoningMode, ToolKind } from './entities';
import { DeckOutline } from '../specs/deck-outline';
import { ToolCallState, ToolResultFacts } from './tool-calls';

/**
 * An event of a skill running as a sub-agent carries the id of the tool call that started it and its
 * level (1 = called by the task's own agent, at most 3); the UI shows it inside that call's card.
 * Nested call ids are `<parent call id>/<id>`, so the top-level card is the id's first segment.
 */
const nesting = { parent_call_id: z.string().optional(), depth: z.number().int().min(1).max(3).optional() };
export const NESTED_CALL_SEPARATOR = '/';
/** The top-level tool call a (possibly nested) call id belongs to. */
export function topLevelCallId(callId: string): string {
  const i = callId.indexOf(NESTED_CALL_SEPARATOR);
  return i === -1 ? callId : callId.slice(0, i);
}
const base = { run_id: Id, task_id: Id, seq: z.number().int(), at: z.number().int(), ...nesting };

// ToolKind lives in entities.ts (PendingApproval uses it; events imports entities, never the reverse).
export { ToolKind };
/** What a long tool call is doing. Every client words each step (the renderer's and the CLI's locales). */
export const ProgressStep = z.enum([
  'render_deck',
  'check_slides',
  'render_document',
  'layout_document',
  'extract_text',
  'ocr',
  'extract_figures',
  'start_mcp_servers',
]);
export type ProgressStep = z.infer<typeof ProgressStep>;
/** A step and, for the steps that work on one file, that file's name. */
export const ProgressOf = z.object({ step: ProgressStep, file: z.string().optional() });
export type ProgressOf = z.infer<typeof ProgressOf>;

export const FinishReason = z.enum(['done', 'max_turns', 'cancelled', 'error']);
export type FinishReason = z.infer<typeof FinishReason>;

/**
 * Why a model call is retried: the reply stopped coming (`stalled`) or was cut off (`dropped`), the
 * server could not be reached, it limited requests (429), it failed (408/5xx), or reading the reply failed.
 */
export const RetryCause = z.enum(['stalled', 'dropped', 'connection', 'rate_limited', 'server_error', 'stream_failed']);
export type RetryCause = z.infer<typeof RetryCause>;

export const RunEvent = z.discriminatedUnion('type', [
  z.object({ ...base, type: z.literal('run_started'), model: z.string().nullable(), resumed: z.boolean() }),
  z.object({ ...base, type: z.literal('text_delta'), delta: z.string() }),
  z.object({ ...base, type: z.literal('reasoning_delta'), delta: z.string() }),
  z.object({ ...base, type: z.literal('tool_call'), call_id: z.string(), name: z.string(), arguments: z.string(), kind: ToolKind }),
  z.object({
    ...base,
    type: z.literal('approval_required'),
    call_id: z.string(),
    name: z.string(),
    arguments: z.string(),
    kind: ToolKind,
    risk: z.enum(['standard', 'destructive']),
    detail: z.string().nullable(),
    reasons: z.array(ApprovalReason),
  }),
  z.object({
    ...base,
    type: z.literal('approval_resolved'),
    call_id: z.string(),
    decision: ApprovalDecision,
  }),
  z.object({
    ...base,
    type: z.literal('tool_result'),
    call_id: z.string(),
    name: z.string(),
    preview: z.string(),
    truncated: z.boolean(),
    is_error: z.boolean(),
    full_length: z.number().int(),
    /** The tool's declared trait: a successful call left a new artifact (the UI brings it into view). */
    writes_artifacts: z.boolean(),
    /** The call's final state, as persisted with the run (absent from producers that keep none). */
    state: ToolCallState.optional(),
    /** Why it failed and what a program printed, as data for the person's screen (persisted with the state). */
    ...ToolResultFacts.shape,
  }),
  /**
   * The model call failed and is being retried: text streamed since the last tool step is void.
   * `reason` is the failure in short, in English (for logs); `cause` its kind, for a client to word.
   */
  z.object({ ...base, type: z.literal('retry'), attempt: z.number().int(), reason: z.string(), cause: RetryCause.optional(), delay_ms: z.number().int() }),
  /**
   * A long tool call's progress: which step, the file it works on (a name, no path) when the step
   * names one, and `done` of `total` (null when unknown). Each client words the step in its language.
   */
  z.object({ ...base, type: z.literal('progress'), ...ProgressOf.shape, done: z.number(), total: z.number().nullable() }),
  z.object({ ...base, type: z.literal('context_compacted'), removed_tokens: z.number().int(), messages: z.number().int() }),
  z.object({ ...base, type: z.literal('usage'), prompt_tokens: z.number().int(), completion_tokens: z.number().int(), cost: z.number() }),
  z.object({ ...base, type: z.literal('error'), error: ErrorShape }),
  z.object({ ...base, type: z.literal('run_finished'), reason: FinishReason, duration_ms: z.number().int() }),
  /** The agent proposed a deck outline (work/outline.json): the UI shows it for editing and approval. */
  z.object({ ...base, type: z.literal('outline_proposed'), outline: DeckOutline }),
  /**
   * The task asked for a reasoning setting the run's profile cannot honour; `applied` is what the model
   * does instead. Emitted once, at the start of the run, so the person is not left guessing.
   */
  z.object({ ...base, type: z.literal('reasoning_ignored'), profile: z.string(), requested: ReasoningMode, applied: ReasoningMode }),
  /**
   * A coding task's repository has git settings or hooks that run programs (core.fsmonitor,
   * core.hooksPath, filters, `!` aliases, .git/hooks/pre-commit …): git runs them on the person's
   * computer, outside the sandbox. Sent when the run opens the folder and whenever a tool call changes them.
   */
  z.object({ ...base, type: z.literal('git_config_risk'), findings: z.array(z.object({ key: z.string(), value: z.string() })) }),
]);
export type RunEvent = z.infer<typeof RunEvent>;
export type RunEventType = RunEvent['type'];
/** An event before the run manager stamps it with run/task ids, sequence number and time. */
export type RunEventBody = RunEvent extends infer E ? (E extends RunEvent ? Omit<E, 'run_id' | 'task_id' | 'seq' | 'at'> : never) : never;
