// Decides, for each way a provider call can fail, whether to retry and what to tell the person if
// retries run out. Messages name the profile and api_base, never the key.
import type { APIConnectionError } from 'openai';
import type { RetryCause } from '../../shared/contract';
import { FolioError, ProviderKeyRejectedError } from '../../shared/errors';
import { loadedOpenAISdk } from './openai-client';

/** A failure inside one attempt that the SDK does not model: a watchdog stall or a cut-off stream. */
export class StreamInterrupted extends Error {
  constructor(
    readonly kind: 'idle' | 'dropped',
    message: string,
  ) {
    super(message);
    this.name = 'StreamInterrupted';
  }
}

export interface FailureVerdict {
  retryable: boolean;
  /** Short reason for the `retry` event and logs. */
  reason: string;
  /** Its kind, for a client to word in the person's language (a retryable failure's). */
  cause?: RetryCause;
  /** A delay the provider asked for (retry-after), in ms. */
  retryAfterMs?: number;
  /** What to throw when this failure is final. */
  final: FolioError;
}

export interface ErrorContext {
  profileId: string;
  apiBase: string;
  apiKey: string;
}

const MAX_PROVIDER_MESSAGE = 300;
const MAX_RETRY_AFTER_MS = 60_000;

export function classifyFailure(err: unknown, ctx: ErrorContext): FailureVerdict {
  if (err instanceof StreamInterrupted) {
    return {
      retryable: true,
      reason: err.message,
      cause: err.kind === 'idle' ? 'stalled' : 'dropped',
      final: new FolioError('provider_unreachable', `${ctx.profileId}: ${err.message} (${ctx.apiBase})`),
    };
  }
  // Only a loaded SDK throws its own errors (it loads at the first call).
  const sdk = loadedOpenAISdk();
  // APIConnectionError is an APIError subclass with no status; check it first.
  if (sdk && err instanceof sdk.APIConnectionError) {
    const detail = connectionDetail(err);
    return {
      retryable: true,
      reason: `connection failed${detail ? ` (${detail})` : ''}`,
      cause: 'connection',
      final: new FolioError('provider_unreachable', `Cannot reach ${ctx.apiBase} for profile ${ctx.profileId}${detail ? ` (${detail})` : ''}`),
    };
  }
  if (sdk && err instanceof sdk.APIError) {
    // The SDK's generic defaults are `any`; read the fields through typed locals.
    const status: number | undefined = typeof err.status === 'number' ? err.status : undefined;
    const rawHeaders: unknown = err.headers;
    const headers = isHeaderBag(rawHeaders) ? rawHeaders : undefined;
    const providerMessage = scrub(truncate(providerMessageOf(err.error, String(err.message))), ctx.apiKey);
    if (status === 401 || status === 403) {
      return {
        retryable: false,
        reason: `HTTP ${status}`,
        final: new ProviderKeyRejectedError(`The provider rejected the API key (${status}) for profile ${ctx.profileId}`),
      };
    }
    if (status === 429) {
      return {
        retryable: true,
        reason: 'rate limited (429)',
        cause: 'rate_limited',
        retryAfterMs: retryAfterMs(headers),
        final: new FolioError('rate_limited', `${ctx.profileId} is rate limited by the provider (429): ${providerMessage}`),
      };
    }
    if (status === 408 || (status !== undefined && status >= 500)) {
      return {
        retryable: true,
        reason: `HTTP ${status}`,
        cause: 'server_error',
        retryAfterMs: retryAfterMs(headers),
        final: new FolioError('provider_error', `The provider failed (${status}) for profile ${ctx.profileId}: ${providerMessage}`),
      };
    }
    // A 4xx is our request's fault (unknown parameter, context too long) and an error event inside
    // the stream (no status) is the provider's verdict: retrying would only repeat them.
    return {
      retryable: false,
      reason: status === undefined ? 'error in stream' : `HTTP ${status}`,
      final: new FolioError(
        'provider_error',
        `The provider refused the request${status === undefined ? '' : ` (${status})`} for profile ${ctx.profileId}: ${providerMessage}`,
      ),
    };
  }
  // Anything else came out of reading the response body: undici's "terminated" when the socket
  // closes mid-stream, or a malformed SSE line. Both are worth another attempt.
  const detail = scrub(truncate(err instanceof Error ? `${err.message}${causeCode(err) ? ` (${causeCode(err)})` : ''}` : String(err)), ctx.apiKey);
  return {
    retryable: true,
    reason: `stream failed: ${detail}`,
    cause: 'stream_failed',
    final: new FolioError('provider_unreachable', `The connection to ${ctx.apiBase} failed for profile ${ctx.profileId}: ${detail}`),
  };
}

/** Exponential backoff with full jitter in [0.5, 1.5) of the step, capped. */
export function backoffDelay(attempt: number, baseDelayMs: number, random: () => number = Math.random): number {
  const step = baseDelayMs * 2 ** Math.max(0, attempt - 1);
  return Math.min(30_000, Math.round(step * (0.5 + random())));
}

interface HeaderBag {
  get(name: string): string | null;
}

/** Duck-typed: a custom `fetch` may bring its own Headers class. */
function isHeaderBag(value: unknown): value is HeaderBag {
  return typeof value === 'object' && value !== null && 'get' in value && typeof value.get === 'function';
}

function retryAfterMs(headers: HeaderBag | undefined): number | undefined {
  if (!headers) return undefined;
  const ms = Number(headers.get('retry-after-ms') ?? NaN);
  if (Number.isFinite(ms) && ms >= 0) return Math.min(ms, MAX_RETRY_AFTER_MS);
  const raw = headers.get('retry-after');
  if (raw === null) return undefined;
  const seconds = Number(raw);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.min(seconds * 1000, MAX_RETRY_AFTER_MS);
  const date = Date.parse(raw);
  if (Number.isFinite(date)) return Math.min(Math.max(0, date - Date.now()), MAX_RETRY_AFTER_MS);
  return undefined;
}

function providerMessageOf(body: unknown, sdkMessage: string): string {
  if (typeof body === 'object' && body !== null && 'message' in body && typeof body.message === 'string') return body.message;
  // The SDK's own message starts with the status ("400 ..."), which the caller already shows.
  return sdkMessage.replace(/^\d{3}\s+/, '') || 'no message';
}

function connectionDetail(err: APIConnectionError): string {
  const code = causeCode(err);
  if (code) return code;
  // No code (e.g. undici's "bad port"): the innermost cause's message is the useful one.
  let current: unknown = err;
  let message = '';
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    if (current.message && current.message !== 'Connection error.' && current.message !== 'fetch failed') message = current.message;
    current = current.cause;
  }
  return truncate(message);
}

/** The deepest `code` in an error's cause chain (ECONNREFUSED, ENOTFOUND, UND_ERR_SOCKET...). */
function causeCode(err: unknown): string | undefined {
  let current: unknown = err;
  let found: string | undefined;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth++) {
    if ('code' in current && typeof current.code === 'string') found = current.code;
    current = 'cause' in current ? current.cause : undefined;
  }
  return found;
}

function truncate(s: string): string {
  return s.length > MAX_PROVIDER_MESSAGE ? `${s.slice(0, MAX_PROVIDER_MESSAGE)}…` : s;
}

/** Providers sometimes echo (part of) the key in errors; the key never leaves this module. */
function scrub(s: string, apiKey: string): string {
  return apiKey.length >= 4 ? s.split(apiKey).join('***') : s;
}
