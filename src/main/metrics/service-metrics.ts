// The team service's metrics in Prometheus' text format (GET /metrics), kept with prom-client, the
// maintained client library: counters and histograms are fed as things happen (HTTP requests, model
// calls, lease takeovers); gauges that are facts of the database (runs by status, the indexing queue)
// are read when Prometheus scrapes, so every worker reports the cluster's figures the same way.
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

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
    bindSseClients(count) {
      sseClients = count;
    },
  };
}
