// The ReAct loop, after openai-agents-js: a small async generator. Each turn it sends the persisted
// conversation and the tool schemas, streams the reply, persists the assistant message, runs the
// tool calls (consecutive read-only calls in parallel, the rest in order, risky ones after a
// person's decision), persists each result, and repeats until the model answers without tools or
// max_iterations is reached. All state lives in the store, so a run can resume from it.
import type { ApprovalDecision, ApprovalMode, ApprovalReason, FinishReason, Message, PendingApproval, ReasoningMode, RunEventBody, ToolCall, ToolKind } from '../../shared/contract';
import { FolioError, toErrorShape } from '../../shared/errors';
import { DENIED_RESULT } from '../../shared/tool-outcome';
import type { ChatModel, ToolSchema } from '../llm/types';
import { type Tool, type ToolAnnouncement, type ToolContext, ToolError } from '../tools/types';
import { parseToolArguments } from '../tools/registry';
import { grantKeyFor, type GrantKey, isCallGranted, needsApproval } from './approval-policy';
import { buildContext, previewForUi } from './context';

/** Full tool output kept in the store (the model sees at most 16,000 characters of it). */
const STORED_RESULT_CAP = 1_000_000;

export type Decision = { decision: ApprovalDecision; reason?: string };

export interface ConversationPort {
  history(): Message[];
  /** `incomplete`: the stream was cut off (stopped, failed, the app closed); stored as the message's `is_error`. */
  appendAssistant(input: { content: string; reasoning: string | null; tool_calls: ToolCall[] | null; incomplete?: boolean }): Promise<Message>;
  appendToolResult(input: { tool_call_id: string; name: string; content: string; is_error: boolean }): Promise<Message>;
}

export interface ApprovalPort {
  mode(): Promise<ApprovalMode>;
  /** Whether "Allow for this task" was given for this tool (or, for code-running tools, this exact command). */
  isGranted(grant: GrantKey): Promise<boolean>;
  /** Whether the person chose "always allow this tool" (global); the policy honours it only for tools that may have it. */
  isAlwaysAllowed(toolName: string): Promise<boolean>;
  /** A pending approval persisted by an earlier process, if any. */
  pending(callId: string): Promise<PendingApproval | undefined>;
  /** Persists the question so it survives a restart. */
  persist(approval: PendingApproval): Promise<void>;
  /** Resolves with the person's decision (or one taken while no run was live); rejects on abort. */
  wait(callId: string, signal: AbortSignal): Promise<Decision>;
  /** The question is settled: forget it (and record `grant` for the task on allow_task, when there is one). */
  settle(callId: string, grant: GrantKey | null, decision: Decision): Promise<void>;
}

export interface ToolLookup {
  get(name: string): Tool | undefined;
  schemas(): ToolSchema[];
}

export interface AgentLoopDeps {
  model: ChatModel;
  tools: ToolLookup;
  conversation: ConversationPort;
  approvals: ApprovalPort;
  systemPrompt: string;
  limits: { maxIterations: number; reliableContext: number; price: { input: number; output: number } };
  toolContext: Omit<ToolContext, 'signal' | 'callId' | 'progress' | 'emit'>;
  /** The task's reasoning setting, sent with every model call (null or absent: the profile's default). */
  reasoning?: ReasoningMode | null;
}

type Yield = AsyncGenerator<RunEventBody, void>;

export async function* runAgentLoop(deps: AgentLoopDeps, signal: AbortSignal): AsyncGenerator<RunEventBody, FinishReason> {
  try {
    yield* settleUnresolvedCalls(deps, signal);
    if (signal.aborted) return 'cancelled';
    const last = deps.conversation.history().at(-1);
    // A complete answer needs nothing more; a cut-off one is finished by the next model turn.
    if (!last || (last.role === 'assistant' && !last.tool_calls?.length && !last.is_error)) return 'done';

    for (let turn = 0; turn < deps.limits.maxIterations; turn++) {
      const toolCalls = yield* modelTurn(deps, signal);
      if (toolCalls === 'cancelled') return 'cancelled';
      if (toolCalls.length === 0) return 'done';
      const handedOver = yield* executeCalls(deps, toolCalls, signal);
      if (signal.aborted) return 'cancelled';
      // The person has the next move (e.g. approving an outline); their message starts the next run.
      if (handedOver) return 'done';
    }
    return 'max_turns';
  } catch (err) {
    if (signal.aborted || (err instanceof FolioError && err.code === 'cancelled')) return 'cancelled';
    yield { type: 'error', error: toErrorShape(err) };
    return 'error';
  }
}

/** One model call: streams deltas, persists the assistant message, reports usage. */
async function* modelTurn(deps: AgentLoopDeps, signal: AbortSignal): AsyncGenerator<RunEventBody, ToolCall[] | 'cancelled'> {
  const built = buildContext(deps.systemPrompt, deps.conversation.history(), deps.limits.reliableContext);
  if (built.compacted) {
    yield { type: 'context_compacted', removed_tokens: built.compacted.removedTokens, messages: built.compacted.messages };
  }
  let text = '';
  let reasoning = '';
  try {
    for await (const ev of deps.model.stream({ messages: built.messages, tools: deps.tools.schemas(), reasoning: deps.reasoning ?? null }, signal)) {
      switch (ev.type) {
        case 'text':
          text += ev.delta;
          yield { type: 'text_delta', delta: ev.delta };
          break;
        case 'reasoning':
          reasoning += ev.delta;
          yield { type: 'reasoning_delta', delta: ev.delta };
          break;
        case 'retry':
          text = '';
          reasoning = '';
          yield { type: 'retry', attempt: ev.attempt, reason: ev.reason, delay_ms: Math.round(ev.delayMs) };
          break;
        case 'done': {
          const toolCalls = ev.toolCalls.map((c, i) => ({ ...c, id: c.id || `call_${Date.now().toString(36)}_${i}` }));
          await deps.conversation.appendAssistant({
            content: ev.content,
            reasoning: ev.reasoning || null,
            tool_calls: toolCalls.length > 0 ? toolCalls : null,
          });
          const { promptTokens, completionTokens } = ev.usage;
          const cost = (promptTokens * deps.limits.price.input + completionTokens * deps.limits.price.output) / 1_000_000;
          yield { type: 'usage', prompt_tokens: promptTokens, completion_tokens: completionTokens, cost };
          return toolCalls;
        }
      }
    }
    throw new FolioError('provider_error', 'The model stream ended without a final message.');
  } catch (err) {
    // What was produced is kept, marked incomplete: Continue asks the model to finish it.
    if (text || reasoning) await deps.conversation.appendAssistant({ content: text, reasoning: reasoning || null, tool_calls: null, incomplete: true });
    if (signal.aborted || (err instanceof FolioError && err.code === 'cancelled')) return 'cancelled';
    throw err;
  }
}

interface PreparedCall {
  call: ToolCall;
  tool: Tool | undefined;
  args: unknown;
  error: string | null;
}

function prepare(deps: AgentLoopDeps, call: ToolCall): PreparedCall {
  const tool = deps.tools.get(call.name);
  if (!tool) {
    const names = deps.tools.schemas().map((s) => s.name).join(', ');
    return { call, tool, args: null, error: `Unknown tool "${call.name}". Available tools: ${names}.` };
  }
  const parsed = parseToolArguments(tool, call.arguments);
  return parsed.ok ? { call, tool, args: parsed.args, error: null } : { call, tool, args: null, error: parsed.error };
}

const kindOf = (p: PreparedCall): ToolKind => p.tool?.traits.kind ?? 'read';

/** Runs a step's calls; returns whether a successful call handed the turn to the person (`endsTurn`). */
async function* executeCalls(deps: AgentLoopDeps, calls: ToolCall[], signal: AbortSignal): AsyncGenerator<RunEventBody, boolean> {
  const prepared = calls.map((c) => prepare(deps, c));
  let handedOver = false;
  const note = (p: PreparedCall, isError: boolean) => {
    if (!isError && p.tool?.traits.endsTurn) handedOver = true;
  };
  let i = 0;
  while (i < prepared.length) {
    if (signal.aborted) {
      yield* recordResult(deps, prepared[i], 'Cancelled before this tool ran.', true);
      i++;
      continue;
    }
    // Consecutive read-only calls run in parallel; they cannot affect each other.
    let j = i;
    while (j < prepared.length && kindOf(prepared[j]) === 'read' && !prepared[j].error) j++;
    if (j - i > 1) {
      const batch = prepared.slice(i, j);
      for (const p of batch) yield toolCallEvent(p);
      const results = yield* withProgress((progress, emit) => Promise.all(batch.map((p) => invoke(deps, p, signal, progress, emit))));
      for (const [k, p] of batch.entries()) {
        yield* recordResult(deps, p, results[k].content, results[k].isError, results[k].announce);
        note(p, results[k].isError);
      }
      i = j;
      continue;
    }
    const outcome = yield* runOne(deps, prepared[i], signal);
    if (outcome) note(prepared[i], outcome.isError);
    i++;
  }
  return handedOver;
}

function toolCallEvent(p: PreparedCall): RunEventBody {
  return { type: 'tool_call', call_id: p.call.id, name: p.call.name, arguments: p.call.arguments, kind: kindOf(p) };
}

/** Runs one call (asking first when the policy says so); returns the invoked result, or null when it did not run. */
async function* runOne(deps: AgentLoopDeps, p: PreparedCall, signal: AbortSignal, announce = true): AsyncGenerator<RunEventBody, Invoked | null> {
  if (announce) yield toolCallEvent(p);
  if (p.error || !p.tool) {
    yield* recordResult(deps, p, p.error ?? 'Unknown tool', true);
    return null;
  }
  const tool = p.tool;
  const baseCtx = { ...deps.toolContext, callId: p.call.id };
  let risk: 'standard' | 'destructive' = 'standard';
  let detail: string | null = null;
  let reasons: ApprovalReason[] = [];
  if (tool.assess) {
    try {
      const assessed = await tool.assess(p.args, baseCtx);
      if (assessed.blocked) {
        yield* recordResult(deps, p, `Blocked: ${assessed.blocked}. This command is never run; choose a safer way.`, true);
        return null;
      }
      risk = assessed.risk;
      detail = assessed.detail;
      reasons = assessed.reasons ?? [];
    } catch (err) {
      yield* recordResult(deps, p, errorText(err), true);
      return null;
    }
  }
  const grant = grantKeyFor(tool, p.args, baseCtx);
  const granted = await isCallGranted(tool, grant, { forTask: (g) => deps.approvals.isGranted(g), always: (name) => deps.approvals.isAlwaysAllowed(name) });
  const ask = needsApproval({ mode: await deps.approvals.mode(), traits: tool.traits, risk, granted });
  if (ask) {
    const existing = await deps.approvals.pending(p.call.id);
    const approval: PendingApproval = existing ?? {
      run_id: deps.toolContext.runId,
      call_id: p.call.id,
      name: tool.name,
      arguments: p.call.arguments,
      kind: tool.traits.kind,
      risk,
      detail,
      reasons,
      created_at: Date.now(),
    };
    if (!existing) await deps.approvals.persist(approval);
    yield { type: 'approval_required', call_id: p.call.id, name: tool.name, arguments: p.call.arguments, kind: tool.traits.kind, risk, detail, reasons: approval.reasons };
    let decision: Decision;
    try {
      decision = await deps.approvals.wait(p.call.id, signal);
    } catch {
      // Cancelled while waiting: the question stays persisted and is asked again on Continue.
      return null;
    }
    await deps.approvals.settle(p.call.id, grant, decision);
    // "Allow for this task" on a call that asks for the network turns the task's network on; once
    // only ever lets this call have it.
    if (decision.decision === 'allow_task' && approval.reasons.some((r) => r.code === 'network')) await deps.toolContext.network?.allow();
    yield { type: 'approval_resolved', call_id: p.call.id, decision: decision.decision };
    if (decision.decision === 'deny') {
      const why = decision.reason?.trim() ? ` Reason: ${decision.reason.trim()}` : '';
      yield* recordResult(deps, p, `${DENIED_RESULT}${why}`, true);
      return null;
    }
  }
  const result = yield* withProgress((progress, emit) => invoke(deps, p, signal, progress, emit));
  yield* recordResult(deps, p, result.content, result.isError, result.announce);
  return result;
}

type ProgressReport = (label: string, done: number, total: number | null) => void;
type EmitNested = (event: RunEventBody) => void;

/**
 * Runs `work`, yielding the progress it reports as `progress` events while it runs. Reports that
 * arrive faster than they are consumed are coalesced per label: only the latest count matters.
 * Events of nested work (a skill's sub-agent) are passed on whole and in order, never coalesced.
 */
async function* withProgress<T>(work: (report: ProgressReport, emit: EmitNested) => Promise<T>): AsyncGenerator<RunEventBody, T> {
  const queue: RunEventBody[] = [];
  let wake: (() => void) | null = null;
  let settled = false;
  const emit: EmitNested = (event) => {
    if (settled) return;
    queue.push(event);
    wake?.();
  };
  const report: ProgressReport = (label, done, total) => {
    if (settled) return;
    const index = queue.findIndex((e) => e.type === 'progress' && e.parent_call_id === undefined && e.label === label);
    const event = { type: 'progress' as const, label, done, total };
    if (index >= 0) queue[index] = event;
    else queue.push(event);
    wake?.();
  };
  const outcome = work(report, emit).then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
  void outcome.finally(() => {
    settled = true;
    wake?.();
  });
  while (!settled || queue.length > 0) {
    const next = queue.shift();
    if (next) {
      yield next;
      continue;
    }
    await new Promise<void>((resolve) => (wake = resolve));
    wake = null;
  }
  const result = await outcome;
  if (!result.ok) throw result.error;
  return result.value;
}

interface Invoked {
  content: string;
  isError: boolean;
  announce?: ToolAnnouncement;
}

async function invoke(deps: AgentLoopDeps, p: PreparedCall, signal: AbortSignal, progress: ProgressReport, emit: EmitNested): Promise<Invoked> {
  if (!p.tool || p.error) return { content: p.error ?? 'Unknown tool', isError: true };
  try {
    const result = await untilCancelled(p.tool.execute(p.args, { ...deps.toolContext, callId: p.call.id, signal, progress, emit }), signal);
    const isError = result.isError ?? false;
    return { content: result.content, isError, ...(result.announce && !isError ? { announce: result.announce } : {}) };
  } catch (err) {
    if (signal.aborted) return { content: 'Cancelled while running.', isError: true };
    return { content: taskRelative(errorText(err), deps.toolContext), isError: true };
  }
}

/** How long a cancelled tool may take to stop before the run stops waiting for it. */
const CANCEL_GRACE_MS = 2000;

/**
 * A tool stuck in something that ignores the signal (a file operation blocked in the thread pool)
 * must not keep its run "running": after a cancel it gets a short grace, then the run moves on.
 */
function untilCancelled<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let timer: NodeJS.Timeout | undefined;
    const onAbort = () => {
      timer = setTimeout(() => reject(new FolioError('cancelled', 'Cancelled while running.')), CANCEL_GRACE_MS);
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => {
      signal.removeEventListener('abort', onAbort);
      clearTimeout(timer);
    });
  });
}

/** Errors name files relative to the task: the model never learns where the data folder is. */
function taskRelative(message: string, ctx: { root: string; taskRoot?: string }): string {
  let out = message;
  for (const root of new Set([ctx.root, ctx.taskRoot].filter((r): r is string => typeof r === 'string' && r.length > 1).sort((a, b) => b.length - a.length))) {
    out = out.split(`${root}/`).join('').split(root).join('.');
  }
  return out;
}

function errorText(err: unknown): string {
  if (err instanceof ToolError || err instanceof FolioError) return err.message;
  if (err instanceof Error) return `Tool failed: ${err.message}`;
  return 'Tool failed.';
}

async function* recordResult(deps: AgentLoopDeps, p: PreparedCall, content: string, isError: boolean, announce?: ToolAnnouncement): Yield {
  const stored = content.length > STORED_RESULT_CAP ? `${content.slice(0, STORED_RESULT_CAP)}\n[output cut at ${STORED_RESULT_CAP} characters]` : content;
  await deps.conversation.appendToolResult({ tool_call_id: p.call.id, name: p.call.name, content: stored, is_error: isError });
  const { preview, truncated } = previewForUi(content);
  const writesArtifacts = p.tool?.traits.writesArtifacts ?? false;
  yield { type: 'tool_result', call_id: p.call.id, name: p.call.name, preview, truncated, is_error: isError, full_length: content.length, writes_artifacts: writesArtifacts };
  if (announce) yield announce;
}

/**
 * Resume: every tool call that has no result yet is settled before the model is asked again.
 * A call waiting for approval asks again; a read-only call is simply re-run; anything else may
 * have partly happened, so the model is told it was interrupted instead of running it twice.
 */
async function* settleUnresolvedCalls(deps: AgentLoopDeps, signal: AbortSignal): Yield {
  const history = deps.conversation.history();
  const answered = new Set(history.filter((m) => m.role === 'tool' && m.tool_call_id).map((m) => m.tool_call_id));
  for (const message of history) {
    if (message.role !== 'assistant' || !message.tool_calls) continue;
    for (const call of message.tool_calls) {
      if (answered.has(call.id)) continue;
      if (signal.aborted) return;
      const p = prepare(deps, call);
      if ((await deps.approvals.pending(call.id)) || (kindOf(p) === 'read' && !p.error)) {
        yield* runOne(deps, p, signal);
      } else {
        yield toolCallEvent(p);
        yield* recordResult(
          deps,
          p,
          'This call was interrupted before it finished (Folio stopped while it ran). It may have partly run: check the current state before trying again.',
          true,
        );
      }
    }
  }
}
