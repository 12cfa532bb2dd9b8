// The HTTP side of the contract, shared by the web renderer and the terminal chat (`folio chat
// --url`): a contract method becomes a fetch to the route named in its `http` metadata, errors come
// back as FolioError, and a run's events stream over SSE with reconnects. Only `fetch` is needed, so
// it runs in a browser and in Node alike.
// It carries no zod at load (it is in the renderer's first chunk): routes come from the method
// table, the error shape is checked by hand, and the run-event schema loads with the first stream.
import type { MethodName, RunEvent } from './contract';
import type { RunEvent as RunEventSchema } from './contract/events';
import { methodTable } from './contract/method-table';
import { type ErrorCode, type ErrorShapeData, errorCodes, FolioError, fromErrorShape } from './folio-error';
import { SseParser } from './sse';

export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

export interface HttpRequestPlan {
  method: string;
  /** Path plus query, relative to the server's origin. */
  url: string;
  /** JSON text for POST/PATCH; absent for GET/DELETE. */
  body?: string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function fieldText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** Fills the route's `:name` and `*name` segments from the input; the rest is query or JSON body. */
export function planHttpRequest(name: MethodName, input: unknown): HttpRequestPlan {
  const route = methodTable.http[name];
  if (!route) throw new FolioError('unsupported', `"${name}" is only available in the desktop app.`);
  const rest: Record<string, unknown> = isRecord(input) ? { ...input } : {};
  const take = (field: string): string => {
    const value = rest[field];
    if (value === undefined || value === null || value === '') throw new FolioError('invalid_input', `${field}: required`, { name: 'ValidationError' });
    delete rest[field];
    return fieldText(value);
  };
  const path = route.path
    .split('/')
    .map((segment) => {
      if (segment.startsWith(':')) return encodeURIComponent(take(segment.slice(1)));
      if (segment.startsWith('*')) return take(segment.slice(1)).split('/').map(encodeURIComponent).join('/');
      return segment;
    })
    .join('/');
  const defined = Object.entries(rest).filter(([, v]) => v !== undefined);
  if (route.method === 'GET' || route.method === 'DELETE') {
    const query = new URLSearchParams();
    for (const [key, value] of defined) query.set(key, fieldText(value));
    // Download routes answer with the file itself unless asked for the contract's JSON shape.
    if (route.download) query.set('format', 'json');
    const qs = query.toString();
    return { method: route.method, url: qs ? `${path}?${qs}` : path };
  }
  return { method: route.method, url: path, body: JSON.stringify(Object.fromEntries(defined)) };
}

function codeForStatus(status: number): ErrorCode {
  switch (status) {
    case 400:
      return 'invalid_input';
    case 401:
      return 'unauthorized';
    case 403:
      return 'forbidden';
    case 404:
      return 'not_found';
    case 409:
      return 'conflict';
    case 413:
      return 'payload_too_large';
    case 415:
      return 'unsupported';
    case 429:
      return 'rate_limited';
    case 503:
      return 'database_corrupt';
    default:
      return 'internal';
  }
}

/** The wire error shape, checked by hand: three fields are not worth zod in the first chunk. */
function asErrorShape(value: unknown): ErrorShapeData | null {
  if (!isRecord(value)) return null;
  const { name, code, message } = value;
  if (typeof name !== 'string' || typeof message !== 'string') return null;
  const known = errorCodes.find((c) => c === code);
  return known ? { name, code: known, message } : null;
}

/** The server answers errors as `{error: {name, code, message}}`; anything else still becomes a FolioError. */
export async function errorFromResponse(response: Response): Promise<FolioError> {
  let body: unknown = null;
  try {
    body = await response.json();
  } catch {
    // not JSON: fall through to a status-based error
  }
  const shape = isRecord(body) ? asErrorShape(body.error) : null;
  if (shape) return fromErrorShape(shape);
  return new FolioError(codeForStatus(response.status), `Request failed (HTTP ${response.status}).`);
}

export function networkError(cause: unknown): FolioError {
  return new FolioError('internal', 'Cannot reach the Folio server.', { cause, name: 'NetworkError' });
}

/**
 * Calls contract methods over HTTP with a bearer token: `send` fetches and turns a non-2xx answer
 * into a FolioError; `call` plans the route from the contract and returns the parsed JSON.
 */
export function createHttpCall(options: { token: string; baseUrl: string; fetch: FetchLike }) {
  const auth = { Authorization: `Bearer ${options.token}` };
  const send = async (url: string, init: RequestInit): Promise<Response> => {
    let response: Response;
    try {
      response = await options.fetch(options.baseUrl + url, init);
    } catch (err) {
      throw networkError(err);
    }
    if (!response.ok) throw await errorFromResponse(response);
    return response;
  };
  const call = async (name: MethodName, input: unknown): Promise<unknown> => {
    const plan = planHttpRequest(name, input);
    const headers: Record<string, string> = { ...auth, Accept: 'application/json' };
    if (plan.body !== undefined) headers['Content-Type'] = 'application/json';
    const response = await send(plan.url, { method: plan.method, headers, body: plan.body });
    if (response.status === 204) return { ok: true };
    return response.json();
  };
  return { auth, send, call };
}

/** Where a run's events stream (the server's SSE route), for every HTTP client. */
export function runEventsUrl(baseUrl: string, taskId: string, runId: string): string {
  return `${baseUrl}/v1/tasks/${encodeURIComponent(taskId)}/runs/${encodeURIComponent(runId)}/events`;
}

export interface SseSubscription {
  fetch: FetchLike;
  url: string;
  token: string;
  listener: (event: RunEvent) => void;
  onError?: (error: FolioError) => void;
  reconnectDelaysMs?: number[];
}

const defaultReconnectDelays = [250, 500, 1000, 2000, 4000];

function wait(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const onAbort = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Streams a run's events over SSE with fetch (EventSource can't send the bearer token). After a
 * network drop it reconnects with `Last-Event-ID` so the server resumes where we left off; it
 * stops for good after `run_finished`, on a client error (4xx), or when unsubscribed.
 */
export function subscribeRunOverSse(options: SseSubscription): () => void {
  const controller = new AbortController();
  const { signal } = controller;
  const delays = options.reconnectDelaysMs ?? defaultReconnectDelays;
  let lastEventId = '';
  let lastSeq = -1;
  let finished = false;
  let deliveredSinceConnect = false;

  let runEvent: typeof RunEventSchema | null = null;
  const deliver = (data: string): void => {
    if (!runEvent) return;
    let json: unknown;
    try {
      json = JSON.parse(data);
    } catch {
      return; // a malformed frame must not take the stream down
    }
    const parsed = runEvent.safeParse(json);
    if (!parsed.success) return;
    const event = parsed.data;
    if (event.seq <= lastSeq) return; // replayed after a reconnect
    lastSeq = event.seq;
    deliveredSinceConnect = true;
    if (event.type === 'run_finished') finished = true;
    options.listener(event);
  };

  const connectOnce = async (): Promise<'retry' | 'stop'> => {
    const headers: Record<string, string> = { Authorization: `Bearer ${options.token}`, Accept: 'text/event-stream' };
    if (lastEventId) headers['Last-Event-ID'] = lastEventId;
    const response = await options.fetch(options.url, { method: 'GET', headers, signal });
    if (!response.ok) {
      const error = await errorFromResponse(response);
      const transient = response.status === 408 || response.status === 429 || response.status >= 500;
      if (transient) return 'retry';
      options.onError?.(error);
      return 'stop';
    }
    if (!response.body) return 'retry';
    // Node's types leave the body's chunks untyped; fetch always streams bytes.
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    const parser = new SseParser(lastEventId);
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        for (const message of parser.push(decoder.decode(value, { stream: true }))) {
          if (message.id) lastEventId = message.id;
          deliver(message.data);
          if (finished || signal.aborted) return 'stop';
        }
      }
    } finally {
      reader.releaseLock();
    }
    return 'retry';
  };

  const loop = async (): Promise<void> => {
    ({ RunEvent: runEvent } = await import('./contract/events'));
    let attempt = 0;
    while (!signal.aborted && !finished) {
      deliveredSinceConnect = false;
      let outcome: 'retry' | 'stop';
      try {
        outcome = await connectOnce();
      } catch {
        outcome = 'retry';
      }
      if (outcome === 'stop' || finished || signal.aborted) break;
      // A connection that delivered something was healthy: start backing off from scratch.
      if (deliveredSinceConnect) attempt = 0;
      await wait(delays[Math.min(attempt, delays.length - 1)] ?? 1000, signal);
      attempt++;
    }
    // Stop any body still streaming (e.g. after run_finished arrived mid-response).
    controller.abort();
  };

  void loop();
  return () => controller.abort();
}
