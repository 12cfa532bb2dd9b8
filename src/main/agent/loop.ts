// The ReAct loop, after openai-agents-js: a small async generator. Each turn it sends the persisted
// conversation and the tool schemas, streams the reply, persists the assistant message, runs the
// tool calls (consecutive read-only calls in parallel, the rest in order, risky ones after a
// person's decision), persists each result, and repeats until the model answers without tools or
// max_iterations is reached. All state lives in the store, so a run can resume from it.
import type { ApprovalDecision, ApprovalMode, ApprovalReason, FinishReason, Message, PendingApproval, ReasoningMode, RunEventBody, ToolCall, ToolKind } from '../../shared/contract';
import { callKey, type ToolCallState, type ToolFailure, type ToolResultFacts } from '../../shared/contract/tool-calls';
import { FolioError, toErrorShape } from '../../shared/errors';
import { DENIED_RESULT } from '../../shared/tool-outcome';
import type { ChatModel, ToolSchema } from '../llm/types';
import type { Tool, ToolAnnouncement, ToolContext } from '../tools/types';
import { parseToolArguments } from '../tools/registry';
import { errorText, failureOf, taskRelative, untilCancelled } from './tool-errors';
import { withProgress, type EmitNested, type ProgressReport } from './tool-progress';
import { grantKeyFor, type GrantKey, isCallGranted, needsApproval } from './approval-policy';
import { CallStates, type CallStatePort } from './call-states';
import type { ApprovalRule } from './policy/rules';
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
  /** The question is settled: forget it, and record for the task the grants the answer gave (grantsGiven). */
  settle(callId: string, grants: readonly GrantKey[], decision: Decision): Promise<void>;
  /** Records task grants in one step: what an approved plan leads to, once the plan itself is saved. */
  grant(grants: readonly GrantKey[]): Promise<void>;
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
  /** Where each tool call's named state is reported (the run manager persists it with the run). */
  callStates?: CallStatePort;
  /** The approval rules (policy/rules.ts): Folio's defaults plus any user, project or team tiers. */
  approvalRules?: readonly ApprovalRule[];
}

/** One loop's inputs and the states of its calls. */
type LoopRun = AgentLoopDeps & { states: CallStates };

type Yield = AsyncGenerator<RunEventBody, void>;

export async function* runAgentLoop(loopDeps: AgentLoopDeps, signal: AbortSignal): AsyncGenerator<RunEventBody, FinishReason> {
  const deps: LoopRun = { ...loopDeps, states: new CallStates(loopDeps.callStates) };
  try {
    yield* settleUnresolvedCalls(deps, signal);
    if (signal.aborted) return 'cancelled';
    const last = deps.conversation.history().at(-1);
    // A complete answer needs nothing more; a cut-off one is finished by the next model turn.
    if (!last || (last.role === 'assistant' && !last.tool_calls?.length && !last.is_error)) return 'done';

    for (let turn = 0; turn < deps.limits.maxIterations; turn++) {
      const made = yield* modelTurn(deps, signal);
      if (made === 'cancelled') return 'cancelled';
      if (made.calls.length === 0) return 'done';
      const handedOver = yield* executeCalls(deps, made, signal);
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
async function* modelTurn(deps: LoopRun, signal: AbortSignal): AsyncGenerator<RunEventBody, MadeCalls | 'cancelled'> {
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
          yield { type: 'retry', attempt: ev.attempt, reason: ev.reason, ...(ev.cause ? { cause: ev.cause } : {}), delay_ms: Math.round(ev.delayMs) };
          break;
        case 'done': {
          const toolCalls = ev.toolCalls.map((c, i) => ({ ...c, id: c.id || `call_${Date.now().toString(36)}_${i}` }));
          const message = await deps.conversation.appendAssistant({
            content: ev.content,
            reasoning: ev.reasoning || null,
            tool_calls: toolCalls.length > 0 ? toolCalls : null,
          });
          const { promptTokens, completionTokens } = ev.usage;
          const cost = (promptTokens * deps.limits.price.input + completionTokens * deps.limits.price.output) / 1_000_000;
          yield { type: 'usage', prompt_tokens: promptTokens, completion_tokens: completionTokens, cost };
          return { messageId: message.id, calls: toolCalls };
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

/** The tool calls one assistant message made. */
interface MadeCalls {
  messageId: string;
  calls: ToolCall[];
}

interface PreparedCall {
  messageId: string;
  call: ToolCall;
  tool: Tool | undefined;
  args: unknown;
  error: string | null;
  /** Why the call cannot run, for the person's screen (with `error`). */
  failure?: ToolFailure;
}

function prepare(deps: LoopRun, messageId: string, call: ToolCall): PreparedCall {
  const tool = deps.tools.get(call.name);
  if (!tool) {
    const names = deps.tools.schemas().map((s) => s.name).join(', ');
    return { messageId, call, tool, args: null, error: `Unknown tool "${call.name}". Available tools: ${names}.`, failure: { kind: 'unknown_tool' } };
  }
  const parsed = parseToolArguments(tool, call.arguments);
  return parsed.ok ? { messageId, call, tool, args: parsed.args, error: null } : { messageId, call, tool, args: null, error: parsed.error, failure: { kind: 'invalid_arguments' } };
}

const kindOf = (p: PreparedCall): ToolKind => p.tool?.traits.kind ?? 'read';

/** Runs a step's calls; returns whether a successful call handed the turn to the person (`endsTurn`). */
async function* executeCalls(deps: LoopRun, made: MadeCalls, signal: AbortSignal): AsyncGenerator<RunEventBody, boolean> {
  const prepared = made.calls.map((c) => prepare(deps, made.messageId, c));
  let handedOver = false;
  const note = (p: PreparedCall, isError: boolean) => {
    if (!isError && p.tool?.traits.endsTurn) handedOver = true;
  };
  let i = 0;
  while (i < prepared.length) {
    if (signal.aborted) {
      moveTo(deps, prepared[i], 'validating');
      yield* finish(deps, prepared[i], 'cancelled', { content: 'Cancelled before this tool ran.', isError: true, facts: { failure: { kind: 'cancelled' } } });
      i++;
      continue;
    }
    // Consecutive read-only calls run in parallel; they cannot affect each other.
    let j = i;
    while (j < prepared.length && kindOf(prepared[j]) === 'read' && !prepared[j].error) j++;
    if (j - i > 1) {
      const batch = prepared.slice(i, j);
      for (const p of batch) yield announced(deps, p);
      for (const p of batch) moveTo(deps, p, 'executing');
      const results = yield* withProgress((progress, emit) => Promise.all(batch.map((p) => invoke(deps, p, signal, progress, emit))));
      for (const [k, p] of batch.entries()) {
        yield* finish(deps, p, endState(results[k].isError), results[k]);
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

const moveTo = (deps: LoopRun, p: PreparedCall, state: ToolCallState, facts?: ToolResultFacts) => deps.states.move({ messageId: p.messageId, callId: p.call.id, name: p.call.name }, state, facts);

/** The call is announced to the UI: it is now being validated. */
function announced(deps: LoopRun, p: PreparedCall): RunEventBody {
  moveTo(deps, p, 'validating');
  return toolCallEvent(p);
}

/** A call that ran ends done, or failed (an error, or a stop while it ran: it may have partly run). */
const endState = (isError: boolean): ToolCallState => (isError ? 'failed' : 'done');

/** Runs one call (asking first when the policy says so); returns the invoked result, or null when it did not run. */
async function* runOne(deps: LoopRun, p: PreparedCall, signal: AbortSignal, announce = true): AsyncGenerator<RunEventBody, Invoked | null> {
  if (announce) yield announced(deps, p);
  if (p.error || !p.tool) {
    yield* finish(deps, p, 'failed', { content: p.error ?? 'Unknown tool', isError: true, facts: { failure: p.failure ?? { kind: 'unknown_tool' } } });
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
        yield* finish(deps, p, 'denied', { content: `Blocked: ${assessed.blocked}. This command is never run; choose a safer way.`, isError: true, facts: { failure: { kind: 'blocked' } } });
        return null;
      }
      risk = assessed.risk;
      detail = assessed.detail;
      reasons = assessed.reasons ?? [];
    } catch (err) {
      yield* finish(deps, p, 'failed', { content: errorText(err), isError: true, facts: { failure: failureOf(err, deps.toolContext) } });
      return null;
    }
  }
  const grant = grantKeyFor(tool, p.args, baseCtx);
  const granted = await isCallGranted(tool, grant, p.args, { forTask: (g) => deps.approvals.isGranted(g), always: (name) => deps.approvals.isAlwaysAllowed(name) });
  const ask = needsApproval({ mode: await deps.approvals.mode(), traits: tool.traits, risk, granted, tool: tool.name }, deps.approvalRules);
  if (ask) {
    moveTo(deps, p, 'awaiting_approval');
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
    await deps.approvals.settle(p.call.id, grantsGiven(grant, decision), decision);
    // "Allow for this task" on a call that asks for the network turns the task's network on; once
    // only ever lets this call have it.
    if (decision.decision === 'allow_task' && approval.reasons.some((r) => r.code === 'network')) await deps.toolContext.network?.allow();
    yield { type: 'approval_resolved', call_id: p.call.id, decision: decision.decision };
    if (decision.decision === 'deny') {
      const why = decision.reason?.trim() ? ` Reason: ${decision.reason.trim()}` : '';
      yield* finish(deps, p, 'denied', { content: `${DENIED_RESULT}${why}`, isError: true, facts: { failure: { kind: 'denied' } } });
      return null;
    }
  }
  moveTo(deps, p, 'executing');
  const result = yield* withProgress((progress, emit) => invoke(deps, p, signal, progress, emit));
  // What a plan leads to is allowed only once the plan is in place: a call that failed allows nothing.
  if (ask && !result.isError && tool.approvalGrants?.length) await deps.approvals.grant(tool.approvalGrants);
  yield* finish(deps, p, endState(result.isError), result);
  return result;
}

/**
 * What an answer itself allows from now on in this task: "Allow for this task" records the call's own
 * grant (when one may be recorded). What a plan leads to (`approvalGrants`) waits for the call to succeed.
 */
export function grantsGiven(grant: GrantKey | null, decision: Decision): GrantKey[] {
  return decision.decision === 'allow_task' && grant ? [grant] : [];
}

interface Invoked {
  content: string;
  isError: boolean;
  /** Why it failed and what a program printed, as data for the person's screen. */
  facts?: ToolResultFacts;
  announce?: ToolAnnouncement;
}

async function invoke(deps: LoopRun, p: PreparedCall, signal: AbortSignal, progress: ProgressReport, emit: EmitNested): Promise<Invoked> {
  if (!p.tool || p.error) return { content: p.error ?? 'Unknown tool', isError: true, facts: { failure: p.failure ?? { kind: 'unknown_tool' } } };
  try {
    const result = await untilCancelled(p.tool.execute(p.args, { ...deps.toolContext, callId: p.call.id, signal, progress, emit }), signal);
    const isError = result.isError ?? false;
    const facts: ToolResultFacts = { ...(isError ? { failure: result.failure ?? { kind: 'failed' } } : {}), ...(result.program ? { program: result.program } : {}) };
    return { content: result.content, isError, facts, ...(result.announce && !isError ? { announce: result.announce } : {}) };
  } catch (err) {
    if (signal.aborted) return { content: 'Cancelled while running.', isError: true, facts: { failure: { kind: 'cancelled' } } };
    return { content: taskRelative(errorText(err), deps.toolContext), isError: true, facts: { failure: failureOf(err, deps.toolContext) } };
  }
}

/** A call ends: its final state (with the result's facts) is reported, its result stored for the model and shown. */
async function* finish(deps: LoopRun, p: PreparedCall, state: ToolCallState, result: Invoked): Yield {
  const facts = result.facts ?? {};
  moveTo(deps, p, state, facts);
  const { content, isError } = result;
  const stored = content.length > STORED_RESULT_CAP ? `${content.slice(0, STORED_RESULT_CAP)}\n[output cut at ${STORED_RESULT_CAP} characters]` : content;
  await deps.conversation.appendToolResult({ tool_call_id: p.call.id, name: p.call.name, content: stored, is_error: isError });
  const { preview, truncated } = previewForUi(content);
  const writesArtifacts = p.tool?.traits.writesArtifacts ?? false;
  yield { type: 'tool_result', call_id: p.call.id, name: p.call.name, preview, truncated, is_error: isError, full_length: content.length, writes_artifacts: writesArtifacts, state, ...facts };
  if (result.announce) yield result.announce;
}

/**
 * Resume: every tool call that has no result yet is settled before the model is asked again, read
 * from the state an earlier run persisted for it. A call awaiting approval asks again; a read-only
 * call is simply re-run; anything else may have partly happened, so the model is told it was
 * interrupted instead of running it twice. A call with no recorded state (a run from before states
 * were kept, or a sub-agent's loop) asks again when its question is still persisted.
 */
async function* settleUnresolvedCalls(deps: LoopRun, signal: AbortSignal): Yield {
  const history = deps.conversation.history();
  const answered = new Set(history.filter((m) => m.role === 'tool' && m.tool_call_id).map((m) => m.tool_call_id));
  let recorded: ReadonlyMap<string, ToolCallState> | null = null;
  for (const message of history) {
    if (message.role !== 'assistant' || !message.tool_calls) continue;
    for (const call of message.tool_calls) {
      if (answered.has(call.id)) continue;
      if (signal.aborted) return;
      const p = prepare(deps, message.id, call);
      recorded ??= (await deps.callStates?.recorded?.()) ?? new Map();
      const state = recorded.get(callKey(message.id, call.id));
      const awaiting = state === undefined ? (await deps.approvals.pending(call.id)) !== undefined : state === 'awaiting_approval';
      if (awaiting || (kindOf(p) === 'read' && !p.error)) {
        yield* runOne(deps, p, signal);
      } else {
        yield announced(deps, p);
        // It may have partly run: it failed, and the model is told so.
        yield* finish(deps, p, 'failed', {
          content: 'This call was interrupted before it finished (Folio stopped while it ran). It may have partly run: check the current state before trying again.',
          isError: true,
          facts: { failure: { kind: 'interrupted' } },
        });
      }
    }
  }
}
