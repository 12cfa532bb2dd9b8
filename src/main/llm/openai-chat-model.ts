// The one ChatModel implementation: any OpenAI-compatible provider through the `openai` SDK, with
// Folio's own retry loop (the SDK's is off) so the agent loop can be told to discard partial output.
import type { ChatCompletionCreateParamsStreaming } from 'openai/resources/chat/completions';
import { FolioError } from '../../shared/errors';
import type { ModelProfile } from '../models/profile-schema';
import { backoffDelay, classifyFailure, StreamInterrupted, type ErrorContext } from './provider-errors';
import { createOpenAIClient } from './openai-client';
import type { OutboundAudit } from '../net/outbound-audit';
import { buildRequestBody } from './request-params';
import { ProviderSseDecoder } from './sse-decoder';
import { StreamAssembler } from './stream-assembler';
import type { ChatModel, ChatRequest, ChatStreamEvent } from './types';

/** How long reading one response may keep the thread before the event loop gets a turn. */
const HOLD_THREAD_MS = 10;

export interface ChatModelOptions {
  /** Retries after the first attempt. Default 4. */
  maxRetries?: number;
  /** A stream (or a response) silent this long is aborted and retried. Default 60 s. */
  idleTimeoutMs?: number;
  /** First backoff step; doubles per retry, with jitter. Default 1 s. */
  baseDelayMs?: number;
  fetch?: typeof fetch;
  /** Who the model's requests are charged to (the team service's audit rows); null on the desktop. */
  outbound: OutboundAudit | null;
}

export function createChatModel(profile: ModelProfile, apiKey: string, opts: ChatModelOptions): ChatModel {
  const maxRetries = opts.maxRetries ?? 4;
  const idleTimeoutMs = opts.idleTimeoutMs ?? 60_000;
  const baseDelayMs = opts.baseDelayMs ?? 1000;
  // Our watchdog fires first; the client timeout only bounds the wait for response headers.
  let client: ReturnType<typeof createOpenAIClient> | undefined;
  const errorContext: ErrorContext = { profileId: profile.id, apiBase: profile.api_base, apiKey };

  async function* attempt(body: Record<string, unknown>, promptChars: number, signal: AbortSignal): AsyncGenerator<ChatStreamEvent> {
    const controller = new AbortController();
    const forwardAbort = (): void => controller.abort();
    signal.addEventListener('abort', forwardAbort, { once: true });
    let idle = false;
    const watchdog = new IdleWatchdog(idleTimeoutMs, () => {
      idle = true;
      controller.abort();
    });
    const interrupted = (): StreamInterrupted => new StreamInterrupted('idle', `no data from the provider for ${idleTimeoutMs} ms`);

    const assembler = new StreamAssembler();
    try {
      watchdog.waiting();
      let response: Response;
      try {
        client ??= createOpenAIClient(profile, apiKey, { timeoutMs: idleTimeoutMs + 1000, fetch: opts.fetch, outbound: opts.outbound });
        // The raw response: its events are decoded here (sse-decoder.ts), not by the SDK's reader,
        // whose cost per event grows with the bytes one network read holds.
        response = await (await client).chat.completions.create(body as unknown as ChatCompletionCreateParamsStreaming, { signal: controller.signal }).asResponse();
      } catch (err) {
        if (idle) throw interrupted();
        throw err;
      }
      if (!response.body) throw new StreamInterrupted('dropped', 'the provider answered without a body');
      // fetch bodies are byte streams; the typings leave the chunk type open.
      const reader = (response.body as ReadableStream<Uint8Array>).getReader();
      const decoder = new ProviderSseDecoder(response.headers);
      let heldSince = performance.now();
      for (;;) {
        // Bytes already received are read without returning to the event loop, so a provider faster
        // than the run would hold the thread for its whole answer while the process's other I/O
        // (the team service's event writes, HTTP requests, timers) waits: give it a turn now and then.
        if (performance.now() - heldSince > HOLD_THREAD_MS) {
          await new Promise((resolve) => setImmediate(resolve));
          heldSince = performance.now();
        }
        watchdog.waiting();
        const next = await reader.read();
        // The watchdog is paused while the consumer handles our events: a slow UI is not a stall.
        watchdog.pause();
        const chunks = next.done ? decoder.end() : decoder.push(next.value);
        for (const chunk of chunks) for (const event of assembler.push(chunk)) yield event;
        if (next.done) break;
      }
      if (signal.aborted) throw cancelled(profile.id);
      if (idle) throw interrupted();
      if (!assembler.finished) throw new StreamInterrupted('dropped', 'the stream ended before the response was complete');
      yield assembler.done(promptChars);
    } catch (err) {
      if (signal.aborted) throw cancelled(profile.id);
      if (idle && !(err instanceof StreamInterrupted)) throw interrupted();
      throw err;
    } finally {
      watchdog.stop();
      signal.removeEventListener('abort', forwardAbort);
      controller.abort();
    }
  }

  return {
    async *stream(request: ChatRequest, signal: AbortSignal): AsyncGenerator<ChatStreamEvent> {
      const body = buildRequestBody(profile, request);
      const promptChars = request.messages.reduce((n, m) => n + m.content.length + (m.reasoning?.length ?? 0), 0);
      for (let retry = 0; ; retry++) {
        if (signal.aborted) throw cancelled(profile.id);
        try {
          yield* attempt(body, promptChars, signal);
          return;
        } catch (err) {
          if (signal.aborted || (err instanceof FolioError && err.code === 'cancelled')) throw cancelled(profile.id);
          const verdict = classifyFailure(err, errorContext);
          if (!verdict.retryable || retry >= maxRetries) throw verdict.final;
          const delayMs = verdict.retryAfterMs ?? backoffDelay(retry + 1, baseDelayMs);
          yield { type: 'retry', attempt: retry + 1, reason: verdict.reason, ...(verdict.cause ? { cause: verdict.cause } : {}), delayMs };
          await sleep(delayMs, signal, profile.id);
        }
      }
    },
  };
}

/**
 * Fires when one wait for the provider lasts `timeoutMs`. It keeps one timer per stream and checks
 * the clock when that fires, instead of a setTimeout/clearTimeout pair per chunk: at thousands of
 * chunks a second the timer-list churn was a measurable share of the streaming path.
 */
export class IdleWatchdog {
  private timer: ReturnType<typeof setTimeout> | null = null;
  private verdict: ReturnType<typeof setImmediate> | null = null;
  /** When the current wait began; null while paused (the consumer is busy, not the provider). */
  private waitingSince: number | null = null;

  constructor(
    private readonly timeoutMs: number,
    private readonly onIdle: () => void,
  ) {}

  waiting(): void {
    this.waitingSince = performance.now();
    if (this.timer === null) this.schedule(this.timeoutMs);
  }

  pause(): void {
    this.waitingSince = null;
  }

  stop(): void {
    this.waitingSince = null;
    if (this.timer !== null) clearTimeout(this.timer);
    if (this.verdict !== null) clearImmediate(this.verdict);
    this.timer = null;
    this.verdict = null;
  }

  private schedule(ms: number): void {
    this.timer = setTimeout(() => this.check(), ms);
  }

  private check(): void {
    this.timer = null;
    // Paused: the next wait re-arms the timer.
    if (this.waitingSince === null) return;
    const left = this.timeoutMs - (performance.now() - this.waitingSince);
    if (left > 0) return this.schedule(Math.max(1, Math.ceil(left)));
    // Timers run before the loop reads its sockets: after the process itself was held up (a busy
    // machine, a laptop waking), bytes the provider sent meanwhile are still unread here. Let them be
    // read first; only a wait that is still the same one afterwards is the provider's silence.
    const since = this.waitingSince;
    this.verdict = setImmediate(() => {
      this.verdict = null;
      if (this.waitingSince !== since) return;
      this.waitingSince = null;
      this.onIdle();
    });
  }
}

/**
 * The key to pass to createChatModel ('' for key-less profiles); throws the error the UI shows when
 * a profile needs a key and has none.
 */
export function assertKey(profile: Pick<ModelProfile, 'id' | 'api_key_env'>, key: string | undefined): string {
  if (profile.api_key_env === null) return key ?? '';
  if (key === undefined || key.trim() === '') {
    throw new FolioError('missing_api_key', `No API key for ${profile.id}: set ${profile.api_key_env} or enter a key in Settings`);
  }
  return key;
}

/** Cost of a call in the profile's currency (prices are per million tokens). */
export function estimateCost(profile: Pick<ModelProfile, 'price'>, usage: { promptTokens: number; completionTokens: number }): number {
  return (usage.promptTokens * profile.price.input + usage.completionTokens * profile.price.output) / 1_000_000;
}

export function cancelled(profileId: string): FolioError {
  return new FolioError('cancelled', `The request to ${profileId} was cancelled`);
}

/** Waits between retries; rejects with `cancelled` as soon as the caller aborts. */
export function sleep(ms: number, signal: AbortSignal, profileId: string): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(cancelled(profileId));
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(cancelled(profileId));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
