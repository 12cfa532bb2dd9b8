// The team service's metrics in Prometheus' text format (GET /metrics), kept with prom-client, the
// maintained client library: counters and histograms are fed as things happen (HTTP requests, model
// calls, lease takeovers); gauges that are facts of the database (runs by status, the indexing queue)
// are read when Prometheus scrapes, so every worker reports the cluster's figures the same way.
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { RunEvent } from '../../shared/contract';

/**
 * A tool's label: its catalog name. MCP tools are named by each tenant's servers (any number of
 * names), so they count as one label each per kind, keeping the series few.
 */
export function toolLabel(name: string): string {
  if (name.startsWith('mcp__')) return 'mcp';
  if (name.startsWith('skill_')) return 'skill';
  return /^[a-z][a-z0-9_]{0,63}$/.test(name) ? name : 'other';
}


/** What the gauges read at scrape time: counts from the shared database. */
export interface MetricsSources {
  runsByStatus(): Promise<{ status: string; count: number }[]>;
  queueDepth(): Promise<number>;
  sseClients(): number;
}

export interface ServiceMetrics {
  readonly contentType: string;
  render(): Promise<string>;
  httpRequest(method: string, route: string, status: number, seconds: number): void;
  outboundCall(kind: string, host: string, status: number | null, seconds: number): void;
  leaseTakeover(): void;
  /** One model call that answered: its tokens and time, by the profile's provider. */
  modelCall(provider: string, promptTokens: number, completionTokens: number, seconds: number): void;
  /** A run event on this worker (tool results and run ends are counted). */
  runEvent(event: RunEvent): void;
  /** The SSE client count, once the HTTP server exists. */
  bindSseClients(count: () => number): void;
}

export function createServiceMetrics(sources: Omit<MetricsSources, 'sseClients'>): ServiceMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'folio_process_' });
  let sseClients = (): number => 0;

  const http = new Counter({ name: 'folio_http_requests_total', help: 'HTTP requests answered, by route pattern and status', labelNames: ['method', 'route', 'status'], registers: [registry] });
  const httpSeconds = new Histogram({ name: 'folio_http_request_duration_seconds', help: 'Time to answer an HTTP request (SSE: the stream)', labelNames: ['route'], buckets: [0.005, 0.02, 0.1, 0.5, 2, 10, 60, 600], registers: [registry] });
  const outbound = new Histogram({ name: 'folio_outbound_request_duration_seconds', help: 'Requests leaving the service (kind model: model latency), by kind, host and status', labelNames: ['kind', 'host', 'status'], buckets: [0.05, 0.2, 0.5, 1, 2, 5, 15, 60, 300], registers: [registry] });
  const tokens = new Counter({ name: 'folio_model_tokens_total', help: 'Tokens of answered model calls, by provider and kind (prompt, completion)', labelNames: ['provider', 'kind'], registers: [registry] });
  const modelSeconds = new Histogram({ name: 'folio_model_call_duration_seconds', help: 'Model latency: from a call to its last token, by provider', labelNames: ['provider'], buckets: [0.1, 0.5, 1, 2, 5, 10, 30, 60, 180, 600], registers: [registry] });
  const tools = new Counter({ name: 'folio_tool_calls_total', help: 'Tool calls that ended on this worker, by tool and outcome (ok, error)', labelNames: ['tool', 'outcome'], registers: [registry] });
  const runSeconds = new Histogram({ name: 'folio_run_duration_seconds', help: 'Runs that ended on this worker, by how they ended (done, cancelled, error, max_turns)', labelNames: ['reason'], buckets: [1, 5, 15, 60, 300, 900, 3600, 14_400], registers: [registry] });
  const takeovers = new Counter({ name: 'folio_lease_takeovers_total', help: "Runs of a worker that stopped answering, ended interrupted by this worker's sweep", registers: [registry] });
  new Gauge({
    name: 'folio_runs',
    help: 'Runs in the database by status (the cluster, as every worker reads it)',
    labelNames: ['status'],
    registers: [registry],
    async collect() {
      this.reset();
      for (const { status, count } of await sources.runsByStatus()) this.set({ status }, count);
    },
  });
  new Gauge({
    name: 'folio_library_queue_depth',
    help: 'Library files waiting to be indexed (pending or indexing)',
    registers: [registry],
    async collect() {
      this.set(await sources.queueDepth());
    },
  });
  new Gauge({
    name: 'folio_sse_clients',
    help: 'Event streams open on this worker',
    registers: [registry],
    collect() {
      this.set(sseClients());
    },
  });

  return {
    contentType: registry.contentType,
    render: () => registry.metrics(),
    httpRequest(method, route, status, seconds) {
      http.inc({ method, route, status: String(status) });
      httpSeconds.observe({ route }, seconds);
    },
    outboundCall(kind, host, status, seconds) {
      outbound.observe({ kind, host, status: status === null ? 'none' : String(status) }, seconds);
    },
    leaseTakeover: () => takeovers.inc(),
    modelCall(provider, promptTokens, completionTokens, seconds) {
      tokens.inc({ provider, kind: 'prompt' }, promptTokens);
      tokens.inc({ provider, kind: 'completion' }, completionTokens);
      modelSeconds.observe({ provider }, seconds);
    },
    runEvent(event) {
      if (event.type === 'tool_result') tools.inc({ tool: toolLabel(event.name), outcome: event.is_error ? 'error' : 'ok' });
      else if (event.type === 'run_finished') runSeconds.observe({ reason: event.reason }, event.duration_ms / 1000);
    },
    bindSseClients(count) {
      sseClients = count;
    },
  };
}
