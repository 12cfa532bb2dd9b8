// Checks a profile against its provider: sends a few small requests and compares what the profile
// declares with what the provider does. It reports; it never edits any yaml.
import { FolioError, type ErrorCode } from '../../shared/errors';
import { ANSWER_DEADLINE_MS, answerTimeoutError } from './answer-deadline';
import type { ModelProfile } from '../models/profile-schema';
import { planReasoning, reasoningModeList, reasoningModes } from '../models/reasoning';
import type { ProbeCheck, ProbeFact, ProbeRow, ReasoningMode } from '../../shared/contract';
import { outboundFetch } from '../net/outbound';
import type { OutboundAudit } from '../net/outbound-audit';
import { createChatModel } from './openai-chat-model';
import { buildRequestBody } from './request-params';
import type { ChatModel, ChatRequest, ChatStreamEvent, ToolSchema } from './types';

export interface ProbeReport {
  profile: string;
  rows: ProbeRow[];
  /** Set when the provider could not be used at all (unreachable, key rejected); later checks did not run. */
  error?: string;
  /** The failure's code and class, so a screen can explain it in the person's language. */
  error_code?: ErrorCode;
  error_name?: string;
}

export interface ProbeOptions {
  /** Also run the long-context recall check (costs ~reliable_context/2 prompt tokens). */
  needle?: boolean;
  fetch?: typeof fetch;
  /** Who the probe's requests are charged to (the team service's audit rows); null on the desktop. */
  outbound: OutboundAudit | null;
  signal?: AbortSignal;
  idleTimeoutMs?: number;
  maxRetries?: number;
  baseDelayMs?: number;
  /** The hidden code for the needle check; random by default. */
  needleCode?: string;
  /**
   * How long the first request may wait for the provider's answer (its response headers). A rejected
   * key or a dead address is answered or given up on within it, instead of after every retry and
   * the client's own timeout. Default 4 s.
   */
  answerDeadlineMs?: number;
}

type Done = Extract<ChatStreamEvent, { type: 'done' }>;
type TurnResult = { done: Done } | { error: FolioError };

const SYSTEM = 'You are a connectivity probe. Follow the instruction exactly and be brief.';

const PROBE_TOOLS: ToolSchema[] = [
  {
    name: 'get_time',
    description: 'Get the current local time in a city.',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
  {
    name: 'get_weather',
    description: 'Get the current weather in a city.',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
];

export async function probeProfile(profile: ModelProfile, apiKey: string, opts: ProbeOptions): Promise<ProbeReport> {
  // The deadline wraps the same outbound fetch a chat uses (its network policy and log included).
  const deadline = new AnswerDeadline(opts.answerDeadlineMs ?? ANSWER_DEADLINE_MS, opts.fetch ?? outboundFetch('model', opts.outbound), opts.signal);
  const model = createChatModel(profile, apiKey, {
    maxRetries: opts.maxRetries ?? 1,
    ...(opts.idleTimeoutMs === undefined ? {} : { idleTimeoutMs: opts.idleTimeoutMs }),
    ...(opts.baseDelayMs === undefined ? {} : { baseDelayMs: opts.baseDelayMs }),
    // Already audited: the deadline wraps the outbound fetch.
    fetch: deadline.fetch,
    outbound: null,
  });
  const report: ProbeReport = { profile: profile.id, rows: [] };
  // Thinking is switched off where possible so the other checks are fast and cheap.
  const quiet: Partial<ChatRequest> = profile.thinking_mode === 'toggle' ? { thinking: false } : {};

  const first = await runTurn(model, { ...quiet, messages: [system(), user('Reply with exactly the word: pong')] }, deadline.signal);
  const chat: TurnResult = 'error' in first && deadline.expired ? { error: deadline.error() } : first;
  deadline.disarm();
  const signal = opts.signal ?? new AbortController().signal;
  if ('error' in chat) {
    setError(report, chat.error);
    report.rows.push({ check: 'chat', declared: { kind: 'reply' }, observed: { kind: 'error', code: chat.error.code }, ok: false });
    return report;
  }
  const reply = chat.done.content.trim();
  report.rows.push({ check: 'chat', declared: { kind: 'reply' }, observed: reply ? { kind: 'replied', text: clip(reply, 40) } : { kind: 'empty_reply' }, ok: reply !== '' });

  const steps: (() => Promise<ProbeRow>)[] = [
    () => checkParallelTools(model, profile, quiet, signal),
    () => checkThinking(model, profile, chat.done, signal),
  ];
  if (profile.reasoning_effort_levels.length > 0) steps.push(() => checkReasoningEffort(model, profile, signal));
  for (const mode of reasoningModeList) steps.push(() => checkReasoningMode(model, profile, mode, signal));
  if (opts.needle) steps.push(() => checkNeedle(model, profile, quiet, opts.needleCode ?? randomCode(), signal));

  for (const step of steps) {
    try {
      report.rows.push(await step());
    } catch (err) {
      // Only refusals of a request (provider_error) say something about a capability; anything
      // else (unreachable, rate limited, cancelled) means the probe cannot go on.
      if (err instanceof FolioError) setError(report, err);
      else report.error = err instanceof Error ? err.message : String(err);
      break;
    }
  }
  return report;
}

async function checkParallelTools(model: ChatModel, profile: ModelProfile, quiet: Partial<ChatRequest>, signal: AbortSignal): Promise<ProbeRow> {
  const declared: ProbeFact = { kind: 'flag', value: profile.parallel_tools };
  const result = await runTurn(
    model,
    {
      ...quiet,
      tools: PROBE_TOOLS,
      messages: [
        system(),
        user('I need both the current local time in Paris and the current weather in Paris. Call get_time and get_weather now, both in this one response, without writing any text.'),
      ],
    },
    signal,
  );
  if ('error' in result) return refused('parallel_tools', declared, result.error);
  const names = new Set(result.done.toolCalls.map((c) => c.name));
  const parallel = result.done.toolCalls.length >= 2 && names.size >= 2;
  const count = result.done.toolCalls.length;
  return { check: 'parallel_tools', declared, observed: { kind: 'tool_calls', count: parallel ? count : Math.min(count, 1) }, ok: parallel === profile.parallel_tools };
}

async function checkThinking(model: ChatModel, profile: ModelProfile, chat: Done, signal: AbortSignal): Promise<ProbeRow> {
  const declared: ProbeFact = { kind: 'thinking_mode', mode: profile.thinking_mode };
  const streamedInChat = chat.reasoning !== null;
  if (profile.thinking_mode === 'none') {
    return { check: 'thinking', declared, observed: { kind: 'reasoning', streamed: streamedInChat }, ok: !streamedInChat };
  }
  if (profile.thinking_mode === 'always') {
    // Some providers reason without streaming it (OpenAI); acceptance is what can be checked.
    return { check: 'thinking', declared, observed: { kind: 'accepted', reasoning: streamedInChat ? 'streamed' : 'not_streamed' }, ok: true };
  }
  const result = await runTurn(model, { thinking: true, messages: [system(), user('What is 17 + 25? Answer with the number only.')] }, signal);
  if ('error' in result) return refused('thinking', declared, result.error);
  const streamed = result.done.reasoning !== null;
  const observed: ProbeFact = { kind: 'accepted', reasoning: streamed ? 'streamed' : 'not_streamed', ...(streamedInChat ? { leaked: true } : {}) };
  return { check: 'thinking', declared, observed, ok: !streamedInChat };
}

async function checkReasoningEffort(model: ChatModel, profile: ModelProfile, signal: AbortSignal): Promise<ProbeRow> {
  // The lowest level differs from the default the chat check already sent.
  const level = profile.reasoning_effort_levels[0] ?? '';
  const declared: ProbeFact = { kind: 'levels', levels: profile.reasoning_effort_levels };
  const result = await runTurn(
    model,
    { thinking: true, reasoningEffort: level, messages: [system(), user('Reply with exactly the word: pong')] },
    signal,
  );
  if ('error' in result) return refused('reasoning_effort', declared, result.error);
  return { check: 'reasoning_effort', declared, observed: { kind: 'accepted_value', value: level }, ok: true };
}


/** Fields whose presence decides how a provider reasons; the probe reports exactly what it sent. */
const REASONING_FIELDS = ['thinking', 'enable_thinking', 'reasoning_effort'];

/** One task setting as Folio sends it: accepted, and for 'none', really without reasoning. */
async function checkReasoningMode(model: ChatModel, profile: ModelProfile, mode: ReasoningMode, signal: AbortSignal): Promise<ProbeRow> {
  const check: ProbeCheck = `reasoning:${mode}`;
  if (!reasoningModes(profile).includes(mode)) {
    // Nothing to verify at the provider: the run drops the setting and tells the person.
    return { check, declared: { kind: 'unsupported', runs_as: planReasoning(profile, mode).applied }, observed: { kind: 'not_sent' }, ok: true };
  }
  const request: ChatRequest = { reasoning: mode, messages: [system(), user('What is 17 + 25? Answer with the number only.')] };
  const body = buildRequestBody(profile, request);
  const sent = Object.entries(body).filter(([k]) => REASONING_FIELDS.includes(k));
  const declared: ProbeFact = sent.length > 0 ? { kind: 'sends', fields: sent.map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`).join(' ') } : { kind: 'provider_default' };
  const result = await runTurn(model, request, signal);
  if ('error' in result) return refused(check, declared, result.error);
  const streamed = result.done.reasoning !== null;
  if (mode === 'none') return { check, declared, observed: { kind: 'accepted', reasoning: streamed ? 'streamed_anyway' : 'none' }, ok: !streamed };
  return { check, declared, observed: { kind: 'accepted', reasoning: streamed ? 'streamed' : 'not_streamed' }, ok: true };
}

async function checkNeedle(model: ChatModel, profile: ModelProfile, quiet: Partial<ChatRequest>, code: string, signal: AbortSignal): Promise<ProbeRow> {
  const tokens = Math.floor(profile.reliable_context / 2);
  const declared: ProbeFact = { kind: 'recall', tokens };
  const haystack = buildHaystack(tokens, code);
  const result = await runTurn(
    model,
    {
      ...quiet,
      messages: [system(), user(`${haystack}\n\nWhat is the secret code mentioned in the text above? Reply with the code only.`)],
    },
    signal,
  );
  if ('error' in result) return refused('needle', declared, result.error);
  const found = result.done.content.includes(code);
  return { check: 'needle', declared, observed: found ? { kind: 'found' } : { kind: 'missed', reply: clip(result.done.content.trim(), 40) }, ok: found };
}

/** ~4 characters per token of varied filler, with the code sentence about 60% of the way in. */
export function buildHaystack(tokens: number, code: string): string {
  const topics = ['river', 'library', 'harbour', 'orchard', 'observatory', 'market', 'bridge', 'garden', 'workshop', 'station'];
  const sentences: string[] = [];
  let chars = 0;
  for (let i = 0; chars < tokens * 4; i++) {
    const s = `Note ${i + 1}: the ${topics[i % topics.length] ?? 'town'} was quiet on day ${(i * 7) % 31 + 1}, and nothing of importance happened there.`;
    sentences.push(s);
    chars += s.length + 1;
  }
  sentences.splice(Math.floor(sentences.length * 0.6), 0, `Remember this: the secret code is ${code}.`);
  return sentences.join(' ');
}

function setError(report: ProbeReport, error: FolioError): void {
  report.error = error.message;
  report.error_code = error.code;
  report.error_name = error.name;
}

/**
 * Bounds the wait for the provider's first answer: every request made while armed must get its
 * response headers within `ms`, and once one does not, the first check is abandoned (retries and
 * backoff included) through `signal`. A streaming reply is not bounded once its headers came.
 */
class AnswerDeadline {
  expired = false;
  private armed = true;
  private readonly controller = new AbortController();
  readonly signal: AbortSignal;

  constructor(
    private readonly ms: number,
    private readonly base: typeof fetch,
    outer: AbortSignal | undefined,
  ) {
    this.signal = outer ? AbortSignal.any([outer, this.controller.signal]) : this.controller.signal;
  }

  readonly fetch: typeof fetch = async (input, init) => {
    if (!this.armed) return this.base(input, init);
    const request = new AbortController();
    const signals = init?.signal ? [init.signal, request.signal] : [request.signal];
    const timer = setTimeout(() => {
      this.expired = true;
      request.abort();
      this.controller.abort();
    }, this.ms);
    try {
      return await this.base(input, { ...init, signal: AbortSignal.any(signals) });
    } finally {
      clearTimeout(timer);
    }
  };

  disarm(): void {
    this.armed = false;
  }

  error(): FolioError {
    return answerTimeoutError(this.ms);
  }
}

async function runTurn(model: ChatModel, request: ChatRequest, signal: AbortSignal): Promise<TurnResult> {
  try {
    let done: Done | undefined;
    for await (const event of model.stream(request, signal)) if (event.type === 'done') done = event;
    if (!done) throw new FolioError('internal', 'the stream ended without a result');
    return { done };
  } catch (err) {
    if (err instanceof FolioError) return { error: err };
    throw err;
  }
}

/** A refused request is a capability finding; any other failure stops the probe. */
function refused(check: ProbeCheck, declared: ProbeFact, error: FolioError): ProbeRow {
  if (error.code !== 'provider_error' || /rejected the API key/.test(error.message)) throw error;
  return { check, declared, observed: { kind: 'rejected', message: error.message }, ok: false };
}

/** 0: everything as declared; 2: a declared capability does not match; 3: the provider could not be probed. */
export function probeExitCode(report: ProbeReport): 0 | 2 | 3 {
  if (report.error !== undefined) return 3;
  return report.rows.every((r) => r.ok) ? 0 : 2;
}

function system(): ChatRequest['messages'][number] {
  return { role: 'system', content: SYSTEM };
}

function user(content: string): ChatRequest['messages'][number] {
  return { role: 'user', content };
}

function clip(s: string, max: number): string {
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

function randomCode(): string {
  return `FOLIO-${Math.floor(100000 + Math.random() * 900000)}`;
}
