// Every request that leaves the service for an address outside it (a model, a model list, an
// embedding endpoint, a search backend, a page for web_fetch, an MCP server) is reported here as
// one event: what kind, which host, how many bytes went out and came in. The team service hands
// each request's and each run's work an `OutboundAudit` (its sink, which writes `audit_events`, and
// who the work is charged to); the desktop hands `null` and nothing is counted.
//
// The audit is passed, never looked up: an async-context store (AsyncLocalStorage) would find it
// by itself, but in Node 20 one enabled store runs a hook for every promise of the process, and a
// streaming run makes several promises per delta (bench/README.md, `cluster`).
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

/** Where the requests of one piece of work (a request, a run, a scope's background work) are reported, and whose they are. */
export interface OutboundAudit {
  sink: OutboundSink;
  owner: OutboundOwner | null;
}

/** The reporter for one request of `audit`'s work (null: nothing is counted, the desktop). */
export function outboundReporter(audit: OutboundAudit | null): ((event: OutboundEvent) => void) | null {
  if (audit === null) return null;
  const { sink, owner } = audit;
  return (event) => {
    try {
      sink(event, owner);
    } catch {
      // A sink's failure must never fail the request it observes.
    }
  };
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
export function auditedFetch(kind: OutboundKind, base: typeof fetch, audit: OutboundAudit | null): typeof fetch {
  const reportOutbound = outboundReporter(audit);
  if (reportOutbound === null) return base;
  return async (input, init) => {
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
