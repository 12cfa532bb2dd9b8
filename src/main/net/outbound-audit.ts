// Every request that leaves the service for an address outside it (a model, a model list, an
// embedding endpoint, a search backend, a page for web_fetch, an MCP server) is reported here as
// one event: what kind, which host, how many bytes went out and came in. The team service runs its
// requests and runs inside a sink (`withOutboundSink`) that writes them to `audit_events`; outside
// one (the desktop) nothing is counted.
import { AsyncLocalStorage } from 'node:async_hooks';
export const OUTBOUND_KINDS = ['model', 'model_list', 'embeddings', 'web_search', 'web_fetch', 'mcp'] as const;
export type OutboundKind = (typeof OUTBOUND_KINDS)[number];

export interface OutboundEvent {
  kind: OutboundKind;
  /** `host[:port]` of the first URL asked (redirects stay attributed to it). */
  host: string;
  bytesOut: number;
  bytesIn: number;
  /** The HTTP status, or null when no answer came (refused, unreachable, aborted). */
  status: number | null;
  /** From the request's start to its response body's end (or its failure). */
  seconds: number;
}

/** Who caused a request: the tenant, user, task and run it is charged to. */
export interface OutboundOwner {
  tenant_id: string;
  user_id: string;
  task_id: string | null;
  run_id: string | null;
}

/** Where a request's event goes, with who caused it (null: work outside any tenant's). */
export type OutboundSink = (event: OutboundEvent, owner: OutboundOwner | null) => void;

interface Attribution {
  sink: OutboundSink;
  /** Read when a request starts, so a request is charged to the work that made it. */
  owner: () => OutboundOwner | null;
}

// The sink and the owner travel with the work (async context), not in a process-wide variable: a
// process with two services (tests) or a run started from one tenant's request while another's is
// answered must charge every request to the work that made it.
const attribution = new AsyncLocalStorage<Attribution>();

/** Runs `fn` with its outbound requests reported to `sink`, charged to `owner()` (read at each request). */
export function withOutboundSink<T>(sink: OutboundSink, owner: () => OutboundOwner | null, fn: () => T): T {
  return attribution.run({ sink, owner }, fn);
}

/** Runs `fn` with its outbound requests charged to `owner`, reported to `sink` (or the current one). */
export function asOutboundOwner<T>(owner: OutboundOwner, fn: () => T, sink?: OutboundSink): T {
  const current = sink ?? attribution.getStore()?.sink;
  if (current === undefined) return fn();
  return attribution.run({ sink: current, owner: () => owner }, fn);
}

/** The reporter for a request starting now: bound to the work that makes it. */
export function outboundReporter(): ((event: OutboundEvent) => void) | null {
  const current = attribution.getStore();
  if (current === undefined) return null;
  let owner: OutboundOwner | null = null;
  try {
    owner = current.owner();
  } catch {
    owner = null;
  }
  return (event) => {
    try {
      current.sink(event, owner);
    } catch {
      // A sink's failure must never fail the request it observes.
    }
  };
}

export function reportOutbound(event: OutboundEvent): void {
  outboundReporter()?.(event);
}

/** The byte length of a fetch body when it is known up front (what SDKs send: strings and buffers). */
export function bodyLength(body: RequestInit['body'] | undefined): number {
  if (body === undefined || body === null) return 0;
  if (typeof body === 'string') return Buffer.byteLength(body, 'utf8');
  if (body instanceof ArrayBuffer) return body.byteLength;
  if (ArrayBuffer.isView(body)) return body.byteLength;
  if (body instanceof URLSearchParams) return Buffer.byteLength(body.toString(), 'utf8');
  if (body instanceof Blob) return body.size;
  return 0;
}

/** `fetch` that reports each request once its response body has been read (or abandoned). */
export function auditedFetch(kind: OutboundKind, base: typeof fetch): typeof fetch {
  return async (input, init) => {
    const reportOutbound = outboundReporter();
    if (reportOutbound === null) return base(input, init);
    const url = input instanceof Request ? input.url : String(input);
    let host = '';
    try {
      host = new URL(url).host;
    } catch {
      host = '(invalid url)';
    }
    const bytesOut = bodyLength(init?.body);
    const started = performance.now();
    const seconds = () => (performance.now() - started) / 1000;
    let res: Response;
    try {
      res = await base(input, init);
    } catch (err) {
      reportOutbound({ kind, host, bytesOut, bytesIn: 0, status: null, seconds: seconds() });
      throw err;
    }
    if (res.body === null) {
      reportOutbound({ kind, host, bytesOut, bytesIn: 0, status: res.status, seconds: seconds() });
      return res;
    }
    const reader: ReadableStreamDefaultReader<Uint8Array> = res.body.getReader();
    let bytesIn = 0;
    let reported = false;
    const report = () => {
      if (reported) return;
      reported = true;
      reportOutbound({ kind, host, bytesOut, bytesIn, status: res.status, seconds: seconds() });
    };
    const counted = new ReadableStream<Uint8Array>({
      async pull(controller) {
        try {
          const { done, value } = await reader.read();
          if (done) {
            report();
            controller.close();
            return;
          }
          bytesIn += value.byteLength;
          controller.enqueue(value);
        } catch (err) {
          report();
          controller.error(err);
        }
      },
      async cancel(reason) {
        report();
        await reader.cancel(reason);
      },
    });
    const wrapped = new Response(counted, { status: res.status, statusText: res.statusText, headers: res.headers });
    Object.defineProperty(wrapped, 'url', { value: res.url });
    return wrapped;
  };
}
