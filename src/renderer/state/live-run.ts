// The run currently streaming, assembled from RunEvents by a pure reducer. The persisted messages
// replace this draft once the run finishes and the chat reloads from the server.
import type { ErrorShape } from '../../shared/errors';
import { topLevelCallId, type ApprovalReason, type FinishReason, type ProgressOf, type ReasoningMode, type RunEvent, type ToolKind } from '../../shared/contract';
import type { ToolCallState, ToolResultFacts } from '../../shared/contract/tool-calls';

export interface ToolResultSummary {
  preview: string;
  truncated: boolean;
  isError: boolean;
  fullLength: number;
  /** The call's final state as the run persisted it (live: carried by the tool_result event). */
  state?: ToolCallState;
  /** Why it failed and what a program printed, as data (absent for calls recorded before they were kept). */
  facts?: ToolResultFacts;
}

/** The facts a tool_result event carries, kept only when there are any. */
function factsOf(event: ToolResultFacts): { facts?: ToolResultFacts } {
  const facts: ToolResultFacts = { ...(event.failure ? { failure: event.failure } : {}), ...(event.program ? { program: event.program } : {}) };
  return facts.failure || facts.program ? { facts } : {};
}

/** One step of a skill running as a sub-agent, shown inside the card of the call that started it. */
export type NestedStep =
  | { kind: 'text' | 'reasoning'; parent: string; depth: number; text: string }
  | { kind: 'tool'; parent: string; depth: number; callId: string; name: string; arguments: string; result: ToolResultSummary | null };

export type LiveItem =
  | { kind: 'text'; text: string }
  | { kind: 'reasoning'; text: string }
  | { kind: 'tool'; callId: string; name: string; arguments: string; toolKind: ToolKind | null; result: ToolResultSummary | null; nested?: NestedStep[] }
  | { kind: 'compacted'; removedTokens: number; messages: number }
  | { kind: 'reasoning_ignored'; profile: string; requested: ReasoningMode; applied: ReasoningMode }
  | { kind: 'git_config_risk'; findings: { key: string; value: string }[] };

export interface LiveApproval {
  runId: string;
  callId: string;
  name: string;
  arguments: string;
  toolKind: ToolKind;
  risk: 'standard' | 'destructive';
  detail: string | null;
  reasons: ApprovalReason[];
  createdAt: number;
}

export interface LiveRun {
  taskId: string;
  runId: string;
  /** Highest event seq applied; replays (reconnects, IPC replay) at or below it are ignored. */
  lastSeq: number;
  model: string | null;
  resumed: boolean;
  startedAt: number | null;
  items: LiveItem[];
  /** Approvals asked for and not yet decided. */
  approvals: LiveApproval[];
  /** call ids whose approval was decided during this run (so stale persisted ones can be hidden). */
  resolvedApprovals: string[];
  progress: { of: ProgressOf; done: number; total: number | null } | null;
  usage: { promptTokens: number; completionTokens: number; cost: number };
  errors: ErrorShape[];
  finished: { reason: FinishReason; durationMs: number } | null;
}

export function createLiveRun(taskId: string, runId: string): LiveRun {
  return {
    taskId,
    runId,
    lastSeq: -1,
    model: null,
    resumed: false,
    startedAt: null,
    items: [],
    approvals: [],
    resolvedApprovals: [],
    progress: null,
    usage: { promptTokens: 0, completionTokens: 0, cost: 0 },
    errors: [],
    finished: null,
  };
}

function appendText(items: LiveItem[], kind: 'text' | 'reasoning', delta: string): LiveItem[] {
  const last = items[items.length - 1];
  if (last && last.kind === kind) return [...items.slice(0, -1), { kind, text: last.text + delta }];
  return [...items, { kind, text: delta }];
}

function upsertTool(items: LiveItem[], callId: string, patch: (prev: Extract<LiveItem, { kind: 'tool' }> | null) => LiveItem): LiveItem[] {
  const index = items.findIndex((item) => item.kind === 'tool' && item.callId === callId);
  if (index === -1) return [...items, patch(null)];
  const prev = items[index] as Extract<LiveItem, { kind: 'tool' }>;
  const next = items.slice();
  next[index] = patch(prev);
  return next;
}

/** A sub-agent's step, appended to (or updating) the nested steps of its top-level call's card. */
function applyNested(steps: NestedStep[], event: RunEvent, parent: string, depth: number): NestedStep[] {
  switch (event.type) {
    case 'text_delta':
    case 'reasoning_delta': {
      const kind = event.type === 'text_delta' ? 'text' : 'reasoning';
      const last = steps[steps.length - 1];
      if (last && last.kind === kind && last.parent === parent) return [...steps.slice(0, -1), { ...last, text: last.text + event.delta }];
      return [...steps, { kind, parent, depth, text: event.delta }];
    }
    case 'tool_call':
      return [...steps, { kind: 'tool', parent, depth, callId: event.call_id, name: event.name, arguments: event.arguments, result: null }];
    case 'tool_result':
      return steps.map((step) =>
        step.kind === 'tool' && step.callId === event.call_id
          ? { ...step, result: { preview: event.preview, truncated: event.truncated, isError: event.is_error, fullLength: event.full_length, ...factsOf(event) } }
          : step,
      );
    case 'retry': {
      // That level's model call is retried: its text since its last tool is void.
      let keep = steps.length;
      while (keep > 0 && steps[keep - 1].kind !== 'tool' && steps[keep - 1].parent === parent) keep--;
      return steps.slice(0, keep);
    }
    case 'error':
      return [...steps, { kind: 'text', parent, depth, text: event.error.message }];
    default:
      return steps;
  }
}

/** Events of a nested run that the card shows; approvals, usage and progress count as the run's own. */
const NESTED_IN_CARD = new Set<RunEvent['type']>(['text_delta', 'reasoning_delta', 'tool_call', 'tool_result', 'retry', 'error']);

/** Applies one event; returns the same object when the event doesn't belong or was already applied. */
export function applyRunEvent(state: LiveRun, event: RunEvent): LiveRun {
  if (event.run_id !== state.runId || event.seq <= state.lastSeq) return state;
  const s: LiveRun = { ...state, lastSeq: event.seq };
  if (event.parent_call_id !== undefined && NESTED_IN_CARD.has(event.type)) {
    const parent = event.parent_call_id;
    const depth = event.depth ?? 1;
    return {
      ...s,
      items: upsertTool(s.items, topLevelCallId(parent), (prev) => ({
        kind: 'tool',
        callId: prev?.callId ?? topLevelCallId(parent),
        name: prev?.name ?? '',
        arguments: prev?.arguments ?? '',
        toolKind: prev?.toolKind ?? null,
        result: prev?.result ?? null,
        nested: applyNested(prev?.nested ?? [], event, parent, depth),
      })),
    };
  }
  switch (event.type) {
    case 'run_started':
      return { ...s, model: event.model, resumed: event.resumed, startedAt: event.at };
    case 'text_delta':
      // Once the model writes again, whatever a progress label described is over.
      return { ...s, items: appendText(s.items, 'text', event.delta), progress: null };
    case 'reasoning_delta':
      return { ...s, items: appendText(s.items, 'reasoning', event.delta), progress: null };
    case 'tool_call':
      return {
        ...s,
        items: upsertTool(s.items, event.call_id, (prev) => ({
          kind: 'tool',
          callId: event.call_id,
          name: event.name,
          arguments: event.arguments,
          toolKind: event.kind,
          result: prev?.result ?? null,
          ...(prev?.nested ? { nested: prev.nested } : {}),
        })),
      };
    case 'tool_result':
      return {
        ...s,
        items: upsertTool(s.items, event.call_id, (prev) => ({
          kind: 'tool',
          callId: event.call_id,
          name: prev?.name ?? event.name,
          arguments: prev?.arguments ?? '',
          toolKind: prev?.toolKind ?? null,
          result: { preview: event.preview, truncated: event.truncated, isError: event.is_error, fullLength: event.full_length, ...(event.state ? { state: event.state } : {}), ...factsOf(event) },
          ...(prev?.nested ? { nested: prev.nested } : {}),
        })),
        // The tool whose progress was shown has ended (a tool still running reports again).
        progress: null,
      };
    case 'approval_required': {
      const approval: LiveApproval = {
        runId: event.run_id,
        callId: event.call_id,
        name: event.name,
        arguments: event.arguments,
        toolKind: event.kind,
        risk: event.risk,
        detail: event.detail,
        reasons: event.reasons,
        createdAt: event.at,
      };
      return {
        ...s,
        approvals: [...s.approvals.filter((a) => a.callId !== event.call_id), approval],
        resolvedApprovals: s.resolvedApprovals.filter((id) => id !== event.call_id),
      };
    }
    case 'approval_resolved':
      return {
        ...s,
        approvals: s.approvals.filter((a) => a.callId !== event.call_id),
        resolvedApprovals: s.resolvedApprovals.includes(event.call_id) ? s.resolvedApprovals : [...s.resolvedApprovals, event.call_id],
      };
    case 'retry': {
      // The model call is being retried: text and reasoning streamed since the last tool are void.
      let keep = s.items.length;
      while (keep > 0 && (s.items[keep - 1].kind === 'text' || s.items[keep - 1].kind === 'reasoning')) keep--;
      return { ...s, items: s.items.slice(0, keep), progress: null };
    }
    case 'progress':
      return { ...s, progress: { of: { step: event.step, ...(event.file === undefined ? {} : { file: event.file }) }, done: event.done, total: event.total } };
    case 'context_compacted':
      return { ...s, items: [...s.items, { kind: 'compacted', removedTokens: event.removed_tokens, messages: event.messages }] };
    case 'reasoning_ignored':
      return { ...s, items: [...s.items, { kind: 'reasoning_ignored', profile: event.profile, requested: event.requested, applied: event.applied }] };
    case 'git_config_risk':
      return { ...s, items: [...s.items, { kind: 'git_config_risk', findings: event.findings }] };
    case 'usage':
      // Each usage event reports one model call; the run's total is their sum.
      return {
        ...s,
        usage: {
          promptTokens: s.usage.promptTokens + event.prompt_tokens,
          completionTokens: s.usage.completionTokens + event.completion_tokens,
          cost: s.usage.cost + event.cost,
        },
      };
    case 'error':
      return { ...s, errors: [...s.errors, event.error] };
    case 'run_finished':
      return { ...s, finished: { reason: event.reason, durationMs: event.duration_ms }, progress: null, approvals: [] };
    default:
      // An event type newer than this UI: note that it was seen, render nothing.
      return s;
  }
}

export function isLiveRunActive(run: LiveRun | null): boolean {
  return run !== null && run.finished === null;
}
