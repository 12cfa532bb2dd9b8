// The chat screen as data: run events and the person's actions go in, lines to print come out.
// Finished lines are `items` (printed once, above the prompt, like a terminal log); what is still
// changing (the streaming reply, the spinner, the approval question) is `live`. Pure: the Ink view
// only draws it, and the tests drive it with events.
import type { ApprovalDecision, RunEvent } from '../../../shared/contract';
import type { ToolCallState } from '../../../shared/contract/tool-calls';
import { toolCardState, type ToolOutcome } from '../../../shared/tool-outcome';
import type { ToolSummaryInput } from '../../../shared/tool-summary';
import type { Translate } from './i18n';
import type { ProgressState } from './progress-line';

export type Item =
  | { id: number; kind: 'user'; text: string }
  | { id: number; kind: 'assistant'; text: string }
  | { id: number; kind: 'reasoning'; text: string }
  /** A call as the model made it: `arguments` its JSON, `summary` the part a person needs (a path, a command). */
  | { id: number; kind: 'tool_call'; callId: string; name: string; arguments: string; summary: string }
  /**
   * A finished call: `said` is what the person reads, worded when drawn (as the app's tool card words
   * it); `preview` the start of the tool's own text, which the model read.
   */
  | { id: number; kind: 'tool_result'; name: string; said: ToolSummaryInput; preview: string; isError: boolean }
  /** An answered question; `reason` is what the person said with a no. */
  | { id: number; kind: 'approval'; name: string; decision: ApprovalDecision; reason?: string }
  /**
   * A line from the locale (`key` + vars), in a tone; `worded` gives the vars that are names said in
   * the screen's language (a mode, a status, a model), worded when the line is drawn.
   */
  | {
      id: number;
      kind: 'notice';
      key: string;
      vars?: Record<string, string | number>;
      worded?: (t: Translate) => Record<string, string>;
      tone: 'info' | 'warn' | 'error' | 'dim';
      prefix?: string;
    }
  /** Text that is not ours to translate (a table, a list of ids). */
  | { id: number; kind: 'text'; text: string; tone: 'info' | 'warn' | 'error' | 'dim' }
  /** An error from the core or the provider: its kind (class name, code) and its own English words. */
  | { id: number; kind: 'error'; name: string; code: string; message: string }
  | { id: number; kind: 'footer'; promptTokens: number; completionTokens: number; seconds: number; cost: number };

/** Item without its id, as callers build them. */
export type NewItem = Item extends infer I ? (I extends Item ? Omit<I, 'id'> : never) : never;

export interface PendingQuestion {
  runId: string;
  callId: string;
  name: string;
  summary: string;
  detail: string | null;
  risk: 'standard' | 'destructive';
  /** A plan put before the person (propose_plan): the whole Markdown they are asked to approve. */
  plan: string | null;
  /** What the person said with their no, once they have said it. */
  declineReason: string | null;
}

/** The tool whose call is a plan to approve: its question shows the plan, not an argument summary. */
export const PLAN_TOOL = 'propose_plan';

/** The plan's Markdown from a propose_plan call's arguments; null for any other call or broken arguments. */
export function planOf(name: string, json: string): string | null {
  if (name !== PLAN_TOOL) return null;
  try {
    const args: unknown = JSON.parse(json);
    const content = typeof args === 'object' && args !== null ? (args as Record<string, unknown>).content : undefined;
    return typeof content === 'string' && content.trim() !== '' ? content : null;
  } catch {
    return null;
  }
}

export interface RunningState {
  taskId: string;
  runId: string;
  startedAt: number;
  promptTokens: number;
  completionTokens: number;
  cost: number;
  /** The last model call's prompt size: how big the context is now. */
  contextTokens: number;
  progress: ProgressState | null;
}

export interface ScreenState {
  items: Item[];
  nextId: number;
  /** The reply and reasoning streaming now (moved to items when a tool step or the run ends). */
  liveText: string;
  liveReasoning: string;
  running: RunningState | null;
  approvals: PendingQuestion[];
  /** The latest known context size, kept between turns for the spinner. */
  contextTokens: number;
}

export const initialScreen: ScreenState = { items: [], nextId: 1, liveText: '', liveReasoning: '', running: null, approvals: [], contextTokens: 0 };

/** Longest tool argument or result summary shown on one line; the app has the whole text. */
export const SUMMARY_CHARS = 160;

export function shorten(text: string, max = SUMMARY_CHARS): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length <= max ? oneLine : `${oneLine.slice(0, max - 1)}…`;
}

/** A tool call's arguments in short form: its path / command / query if it has one, else the JSON. */
export function summarizeArguments(json: string): string {
  try {
    const args: unknown = JSON.parse(json);
    if (typeof args === 'object' && args !== null) {
      const record = args as Record<string, unknown>;
      for (const key of ['path', 'command', 'query', 'url', 'name', 'pattern']) {
        const value = record[key];
        if (typeof value === 'string' && value !== '') return shorten(value);
      }
    }
  } catch {
    // not JSON (a model's broken arguments): show them as they are
  }
  return shorten(json);
}

/** How a finished call ended: its recorded state, else what its result says. */
export function resultOutcome(state: ToolCallState | undefined, isError: boolean, preview: string): ToolOutcome {
  const shown = toolCardState(state, { isError, preview });
  return shown === 'running' || shown === 'approval' ? 'error' : shown;
}

export function addItems(state: ScreenState, ...items: NewItem[]): ScreenState {
  let nextId = state.nextId;
  const added = items.map((item) => ({ ...item, id: nextId++ }));
  return { ...state, items: [...state.items, ...added], nextId };
}

/** Moves the streamed reasoning and text into the log (reasoning first, as it was thought first). */
function flushLive(state: ScreenState): ScreenState {
  const items: NewItem[] = [];
  if (state.liveReasoning.trim() !== '') items.push({ kind: 'reasoning', text: state.liveReasoning.trimEnd() });
  if (state.liveText.trim() !== '') items.push({ kind: 'assistant', text: state.liveText.trimEnd() });
  return { ...addItems(state, ...items), liveText: '', liveReasoning: '' };
}

/** Notes on the pending question what the person says with their no, for the line that records it. */
export function noteDeclineReason(state: ScreenState, callId: string, reason: string): ScreenState {
  return { ...state, approvals: state.approvals.map((q) => (q.callId === callId ? { ...q, declineReason: reason } : q)) };
}

export function startRun(state: ScreenState, taskId: string, runId: string, now: number): ScreenState {
  return {
    ...state,
    running: { taskId, runId, startedAt: now, promptTokens: 0, completionTokens: 0, cost: 0, contextTokens: state.contextTokens, progress: null },
  };
}

/** Applies one run event. Events of another run, and event types this version does not know, change nothing. */
export function applyEvent(state: ScreenState, event: RunEvent): ScreenState {
  const run = state.running;
  if (!run || run.runId !== event.run_id) return state;
  switch (event.type) {
    case 'run_started':
      return state;
    case 'text_delta':
      return { ...state, liveText: state.liveText + event.delta };
    case 'reasoning_delta':
      return { ...state, liveReasoning: state.liveReasoning + event.delta };
    case 'tool_call':
    {
      const plan = planOf(event.name, event.arguments);
      return addItems(flushLive(state), {
        kind: 'tool_call',
        callId: event.call_id,
        name: event.name,
        arguments: event.arguments,
        summary: plan === null ? summarizeArguments(event.arguments) : shorten(plan),
      });
    }
    case 'approval_required': {
      const question: PendingQuestion = {
        runId: event.run_id,
        callId: event.call_id,
        name: event.name,
        summary: summarizeArguments(event.arguments),
        detail: event.detail,
        risk: event.risk,
        plan: planOf(event.name, event.arguments),
        declineReason: null,
      };
      return { ...flushLive(state), approvals: [...state.approvals.filter((q) => q.callId !== event.call_id), question] };
    }
    case 'approval_resolved': {
      const question = state.approvals.find((q) => q.callId === event.call_id);
      const rest = state.approvals.filter((q) => q.callId !== event.call_id);
      if (!question) return { ...state, approvals: rest };
      const reason = event.decision === 'deny' && question.declineReason ? { reason: question.declineReason } : {};
      return addItems({ ...state, approvals: rest }, { kind: 'approval', name: question.name, decision: event.decision, ...reason });
    }
    case 'tool_result': {
      const call = state.items.findLast((i) => i.kind === 'tool_call' && i.callId === event.call_id);
      const said: ToolSummaryInput = {
        name: event.name,
        arguments: call?.kind === 'tool_call' ? call.arguments : '{}',
        outcome: resultOutcome(event.state, event.is_error, event.preview),
        preview: event.preview,
        ...(event.failure ? { failure: event.failure } : {}),
      };
      return {
        ...addItems(state, { kind: 'tool_result', name: event.name, said, preview: shorten(event.preview), isError: event.is_error }),
        running: { ...run, progress: null },
      };
    }
    case 'retry':
      // The streamed text since the last tool step is void: the model is asked again.
      // A retry's kind is worded in the screen's language; an event without one (an older server) has only its English reason.
      const said: { key: string; vars: Record<string, string | number> } = event.cause
        ? { key: 'run.retryBecause', vars: { attempt: event.attempt, cause: event.cause } }
        : { key: 'run.retry', vars: { attempt: event.attempt, reason: shorten(event.reason, 80) } };
      return addItems({ ...state, liveText: '', liveReasoning: '' }, { kind: 'notice', ...said, tone: 'warn' });
    case 'progress':
      return { ...state, running: { ...run, progress: { of: { step: event.step, ...(event.file === undefined ? {} : { file: event.file }) }, done: event.done, total: event.total } } };
    case 'context_compacted':
      return addItems(state, { kind: 'notice', key: 'run.compacted', vars: { messages: event.messages, tokens: event.removed_tokens }, tone: 'dim' });
    case 'usage':
      return {
        ...state,
        contextTokens: event.prompt_tokens + event.completion_tokens,
        running: {
          ...run,
          promptTokens: run.promptTokens + event.prompt_tokens,
          completionTokens: run.completionTokens + event.completion_tokens,
          cost: run.cost + event.cost,
          contextTokens: event.prompt_tokens + event.completion_tokens,
        },
      };
    case 'error':
      return addItems(flushLive(state), { kind: 'error', name: event.error.name, code: event.error.code, message: event.error.message });
    case 'outline_proposed':
      return addItems(flushLive(state), { kind: 'notice', key: 'run.outline', vars: { slides: event.outline.slides.length }, tone: 'info' });
    case 'git_config_risk':
      return addItems(state, { kind: 'notice', key: 'run.gitConfigRisk', vars: { settings: event.findings.map((f) => (f.key === 'hook' ? `hooks/${f.value}` : `${f.key} = ${f.value}`)).join('; ') }, tone: 'warn' });
    case 'reasoning_ignored':
      return addItems(state, { kind: 'notice', key: 'run.reasoningIgnored', vars: { profile: event.profile, requested: event.requested, applied: event.applied }, tone: 'dim' });
    case 'run_finished': {
      const finished = flushLive(state);
      const notices: NewItem[] = [];
      if (event.reason === 'cancelled') notices.push({ kind: 'notice', key: 'run.cancelled', tone: 'warn' });
      if (event.reason === 'max_turns') notices.push({ kind: 'notice', key: 'run.maxTurns', tone: 'warn' });
      notices.push({ kind: 'footer', promptTokens: run.promptTokens, completionTokens: run.completionTokens, seconds: event.duration_ms / 1000, cost: run.cost });
      return { ...addItems(finished, ...notices), running: null, approvals: [] };
    }
    default:
      return state;
  }
}

/** The per-turn footer, as zcbot prints it: `[in 1234 out 56 3.2s 0.0012]`. */
export function formatFooter(item: { promptTokens: number; completionTokens: number; seconds: number; cost: number }): string {
  return `[in ${item.promptTokens} out ${item.completionTokens} ${item.seconds.toFixed(1)}s ${formatCost(item.cost)}]`;
}

/** Profile prices carry no currency, so neither does the cost (as in the app's run footer). */
export function formatCost(cost: number): string {
  if (cost === 0) return '0';
  return cost < 0.01 ? cost.toFixed(4) : cost.toFixed(2);
}
