// What the HTTP server is given and what it hands back: the options of both modes (one bearer
// token, or the team service's tenancy) and the running server's drain and close.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { FolioCore } from '../../service/ports';
import type { Authenticator, Logger, RateLimiter, Scope, TenantGate, TenantRegistry } from '../../tenancy';

/** The orchestrator's probes and Prometheus' scrape: answered without credentials, any Host. */
export const HEALTH_PATH = '/healthz';
export const METRICS_PATH = '/metrics';
export const READY_PATH = '/readyz';

/** What the core answering a request may need of it besides its scope: its headers (the team service's per-request model keys) and the route's parameters. */
export interface CoreRequest {
  headers: IncomingMessage['headers'];
  params: Record<string, string>;
}

/** The core that answers one scope's request: the single-user server passes one constant core. */
export type CoreResolver = (scope: Scope, request: CoreRequest) => FolioCore | Promise<FolioCore>;

/** Service mode: who is asking comes from the platform's headers, not from one shared token. */
export interface TenancyOptions {
  authenticator: Authenticator;
  /** Records tenants and users on first sight, before the request reaches the core. */
  registry: TenantRegistry;
  rateLimiter?: RateLimiter;
  /** Refuses every request of a suspended tenant (403), before anything else is done for it. */
  gate?: TenantGate;
  /** Refuses a request's malformed headers (a bad model key), once it is authenticated and its route known. */
  checkHeaders?: (headers: IncomingMessage['headers']) => void;
  /** What the request's log line and internal errors are scrubbed of: the keys it brought, its tenant's stored keys. */
  logSecrets?: (headers: IncomingMessage['headers'], scope: Scope | undefined) => readonly string[];
  /** Routes of the platform's own (audit), answered after authentication; true when answered. */
  platformRoutes?: (req: IncomingMessage, res: ServerResponse, scope: Scope, pathname: string, query: Record<string, string | string[]>) => Promise<boolean>;
  /** Host names the reverse proxy forwards (see `isAllowedHost`); loopback always passes. */
  publicHosts: readonly string[];
}

export interface HttpServerOptions {
  /** Single-user mode: the bearer token every /v1 request must carry. Exactly one of token / tenancy. */
  token?: string;
  tenancy?: TenancyOptions;
  /** One JSON line per request; without it nothing is logged per request (the desktop's default). */
  logger?: Logger;
  /** `GET /metrics` (Prometheus), answered like /healthz: no credentials, any Host. */
  metrics?: { contentType: string; render(): Promise<string> };
  /** Told about every answered request (metrics), with its route pattern. */
  onRequestDone?: (method: string, route: string, status: number, seconds: number) => void;
  /** For /readyz: resolves true when the database answers. Without it, ready means "not draining". */
  ready?: () => Promise<boolean>;
  /** The built renderer; without it only the API is served. */
  staticDir?: string;
  maxBodyBytes?: number;
  maxUploadBytes?: number;
  sseHeartbeatMs?: number;
  /** Told about bugs in main (never request bodies or the token). Defaults to console.error. */
  onInternalError?: (where: string, error: unknown) => void;
}

export interface StartHttpServerOptions extends HttpServerOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  /** Single-user mode accepts only '127.0.0.1' (web mode is local-only by design); a service may bind any. */
  host?: string;
}

export interface DrainOptions {
  /** How long in-flight requests may take before their connections are closed. Default 30 s. */
  graceMs?: number;
  /** Called once in-flight requests are done (or the grace ran out): e.g. hand runs back to other workers. */
  onDrain?: () => Promise<void>;
}

export interface RunningHttpServer {
  url: string;
  port: number;
  server: Server;
  /** Stops listening and drops open connections (SSE streams included). Does not close the core. */
  close(): Promise<void>;
  /**
   * Graceful shutdown (SIGTERM): /readyz turns 503 and new API requests get 503 `unavailable`
   * (with `Connection: close`), SSE streams end (clients resume elsewhere with Last-Event-ID),
   * in-flight requests finish within the grace, `onDrain` runs, then the listener and every
   * connection close.
   */
  drain(opts?: DrainOptions): Promise<void>;
}

/** A server built by createHttpServer, with the state its drain needs. */
export interface FolioHttpServer extends Server {
  drain(opts?: DrainOptions): Promise<void>;
  readonly draining: boolean;
  /** Event streams open now. */
  readonly sseClients: number;
}
