// Web mode's HTTP server (plain node:http). Routing is derived from the contract, every call goes
// through dispatchCall. Single-user web mode listens on 127.0.0.1 with one bearer token; the team
// service (`tenancy`) authenticates each request as a tenant's user, rate-limits per tenant, logs
// one JSON line per request and answers the orchestrator's /healthz and /readyz.
import { LibraryId } from '../../../shared/contract/projects';
import { type AddressInfo } from 'node:net';
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import { contract, type MethodName } from '../../../shared/contract/methods';
import { FolioError, NotFoundError, ValidationError, formatZodError } from '../../../shared/errors';
import type { FolioCore } from '../../service/ports';
import { type Scope, LOCAL_SCOPE, isAdmin, REQUEST_ID_HEADER, logRequest, requestIdFrom, scrubbedError } from '../../tenancy';
import { dispatchCall } from '../dispatch';
import { DEFAULT_MAX_BODY_BYTES, discardRequestBody, readJsonObject } from './body';
import { sendDownload } from './download';
import { hasValidBearer, isAllowedHost } from './guards';
import {
  ADMIN_METHODS,
  AdminOnlyError,
  ForbiddenHostError,
  UnauthorizedError,
  UnavailableError,
  parseId,
  parseQuery,
  retryAfterHeader,
  sendMethodNotAllowed,
} from './request-errors';
import { sendError, sendErrorShape, sendJson, setSecurityHeaders } from './respond';
import { type RouteTarget, createApiRouter, statusForSuccess } from './routes';
import {
  type CoreResolver,
  type DrainOptions,
  type FolioHttpServer,
  type HttpServerOptions,
  HEALTH_PATH,
  METRICS_PATH,
  READY_PATH,
} from './server-options';
import { DEFAULT_SSE_HEARTBEAT_MS, resumeSeq, streamRunEvents } from './sse';
import { createFirstPageCache, serveFirstPage } from './first-page';
import { serveStatic } from './static';
import { DEFAULT_MAX_UPLOAD_BYTES, handleLibraryUpload, handleTemplateUpload, handleUpload } from './upload';

/** Per-request facts the request log needs; filled in as the request is understood. */
interface RequestContext {
  requestId: string;
  started: number;
  route: string;
  /** The route's pattern once one matched (metrics must not take raw paths as labels). */
  pattern?: string;
  scope?: Scope;
  params?: Record<string, string>;
  errorCode?: string;
  /** The request's secrets, looked up once, when something is about to be logged. */
  secrets?: readonly string[];
}

const READY_CHECK_TIMEOUT_MS = 2000;

export function createHttpServer(core: FolioCore | CoreResolver, opts: HttpServerOptions): FolioHttpServer {
  const { token, tenancy } = opts;
  if ((token === undefined) === (tenancy === undefined)) throw new Error('Give the HTTP server either a token (single user) or tenancy (service), not both');
  if (token !== undefined && token.length < 16) throw new Error('The HTTP token must be at least 16 characters');
  const resolveCore: CoreResolver = typeof core === 'function' ? core : () => core;
  const publicHosts = tenancy?.publicHosts ?? [];
  const router = createApiRouter();
  const firstPage = createFirstPageCache();
  const maxBodyBytes = opts.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const uploadLimits = { maxFileBytes: opts.maxUploadBytes ?? DEFAULT_MAX_UPLOAD_BYTES };
  const heartbeatMs = opts.sseHeartbeatMs ?? DEFAULT_SSE_HEARTBEAT_MS;
  const onInternalError = opts.onInternalError ?? ((where, error) => console.error(`[folio] http ${where} failed:`, error));
  const secretsOf = (req: IncomingMessage, ctx: RequestContext): readonly string[] => (ctx.secrets ??= tenancy?.logSecrets?.(req.headers, ctx.scope) ?? []);
  /** A request's internal error, as the log may show it. */
  const reportFor = (req: IncomingMessage, ctx: RequestContext) => (where: string, error: unknown) => onInternalError(where, scrubbedError(error, secretsOf(req, ctx)));

  const server = createServer() as FolioHttpServer;
  let draining = false;
  let drainPromise: Promise<void> | null = null;
  /** Requests not yet answered, SSE streams aside (they never end by themselves). */
  const inFlight = new Set<ServerResponse>();
  const streams = new Set<ServerResponse>();
  let onIdle: (() => void) | null = null;

  async function handle(req: IncomingMessage, res: ServerResponse, ctx: RequestContext): Promise<void> {
    setSecurityHeaders(res);
    res.setHeader('X-Request-Id', ctx.requestId);
    const rawUrl = req.url ?? '/';
    if (!rawUrl.startsWith('/')) throw new ValidationError('Request target must be a path');
    const queryStart = rawUrl.indexOf('?');
    const pathname = queryStart === -1 ? rawUrl : rawUrl.slice(0, queryStart);
    const search = queryStart === -1 ? '' : rawUrl.slice(queryStart + 1);
    const method = req.method ?? 'GET';
    ctx.route = pathname.length > 200 ? `${pathname.slice(0, 200)}…` : pathname;

    // Prometheus scrapes by address too; keep /metrics off the public proxy (deploy/nginx.conf).
    if (pathname === METRICS_PATH && opts.metrics) {
      if (method !== 'GET' && method !== 'HEAD') {
        sendMethodNotAllowed(req, res, method, ['GET', 'HEAD']);
        return;
      }
      ctx.pattern = METRICS_PATH;
      const body = await opts.metrics.render();
      res.writeHead(200, { 'Content-Type': opts.metrics.contentType, 'Cache-Control': 'no-store' }).end(body);
      return;
    }
    // Probes come from the orchestrator by address, with whatever Host that gives; they reveal nothing.
    if (pathname === HEALTH_PATH || pathname === READY_PATH) {
      if (method !== 'GET' && method !== 'HEAD') {
        sendMethodNotAllowed(req, res, method, ['GET', 'HEAD']);
        return;
      }
      ctx.pattern = pathname;
      if (pathname === HEALTH_PATH) sendJson(res, 200, { status: 'ok' });
      else await answerReady(res);
      return;
    }

    const port = (server.address() as AddressInfo | null)?.port ?? -1;
    if (!isAllowedHost(req.headers.host, port, publicHosts)) throw new ForbiddenHostError();
    if (draining) {
      res.shouldKeepAlive = false;
      throw new UnavailableError('This worker is shutting down; retry (another worker will answer)');
    }

    if (pathname !== '/v1' && !pathname.startsWith('/v1/')) {
      if (method !== 'GET' && method !== 'HEAD') {
        sendMethodNotAllowed(req, res, method, ['GET', 'HEAD']);
        return;
      }
      if (opts.staticDir !== undefined && token !== undefined) {
        const page = { core: () => resolveCore(LOCAL_SCOPE, { headers: req.headers, params: {} }), staticDir: opts.staticDir, page: firstPage, token, pathname, query: parseQuery(search) };
        if (await serveFirstPage(req, res, page)) return;
      }
      if (opts.staticDir !== undefined && (await serveStatic(req, res, opts.staticDir, pathname))) return;
      throw new NotFoundError('Not found');
    }

    // Answered after authentication, so an unauthenticated caller learns nothing about which routes exist.
    const match = router.match(method, pathname);
    let scopeCore: FolioCore;
    const coreRequest = { headers: req.headers, params: match.kind === 'found' ? match.params : {} };
    if (tenancy) {
      const scope = await tenancy.authenticator.authenticate(req.headers);
      ctx.scope = scope;
      if (match.kind === 'found') ctx.route = match.route.path;
      await tenancy.gate?.check(scope.tenant_id);
      // Rate before registry: a tenant over its limit costs no database write.
      await tenancy.rateLimiter?.take(scope.tenant_id);
      tenancy.checkHeaders?.(req.headers);
      await tenancy.registry.ensure(scope);
      if (await tenancy.platformRoutes?.(req, res, scope, pathname, parseQuery(search))) return;
      scopeCore = await resolveCore(scope, coreRequest);
    } else {
      if (token === undefined || !hasValidBearer(req, token)) throw new UnauthorizedError();
      scopeCore = await resolveCore(LOCAL_SCOPE, coreRequest);
    }

    if (match.kind === 'not_found') throw new NotFoundError('Unknown route');
    if (match.kind === 'method_not_allowed') {
      sendMethodNotAllowed(req, res, method, match.allow);
      return;
    }
    ctx.route = match.route.path;
    ctx.pattern = match.route.path;
    ctx.params = match.params;
    if (ctx.scope && match.route.target.kind === 'call' && ADMIN_METHODS.has(match.route.target.method) && !isAdmin(ctx.scope)) throw new AdminOnlyError();
    await handleRoute(scopeCore, req, res, ctx, match.route.target, match.params, parseQuery(search));
  }

  async function answerReady(res: ServerResponse): Promise<void> {
    if (draining) throw new UnavailableError('Draining');
    if (opts.ready) {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), READY_CHECK_TIMEOUT_MS);
      });
      const ok = await Promise.race([opts.ready().catch(() => false), timeout]).finally(() => clearTimeout(timer));
      if (!ok) throw new UnavailableError('The database does not answer');
    }
    sendJson(res, 200, { status: 'ready' });
  }

  async function handleRoute(
    core: FolioCore,
    req: IncomingMessage,
    res: ServerResponse,
    ctx: RequestContext,
    target: RouteTarget,
    params: Record<string, string>,
    query: Record<string, string | string[]>,
  ): Promise<void> {
    switch (target.kind) {
      case 'call':
        return handleCall(core, req, res, ctx, target.method, target.download, params, query);
      case 'upload': {
        const taskId = parseId('task_id', params.task_id);
        if (Object.keys(query).length > 0) throw new ValidationError('Uploads take no query parameters');
        const files = await handleUpload(core, req, taskId, uploadLimits);
        const output = contract.addFiles.output.safeParse({ files });
        if (!output.success) throw new Error(`addUploadedFiles broke the contract: ${formatZodError(output.error)}`);
        sendJson(res, 201, output.data);
        return;
      }
      case 'template-upload': {
        if (Object.keys(query).length > 0) throw new ValidationError('Uploads take no query parameters');
        const summary = await handleTemplateUpload(core, req, uploadLimits);
        const output = contract.importTemplate.output.safeParse(summary);
        if (!output.success) throw new Error(`importUploadedTemplate broke the contract: ${formatZodError(output.error)}`);
        sendJson(res, 201, output.data);
        return;
      }
      case 'library-upload': {
        const library = LibraryId.safeParse(params.project_id);
        if (!library.success) throw new ValidationError(`project_id: ${formatZodError(library.error)}`);
        if (Object.keys(query).length > 0) throw new ValidationError('Uploads take no query parameters');
        const files = await handleLibraryUpload(core, req, library.data, uploadLimits);
        const output = contract.addLibraryFiles.output.safeParse({ files });
        if (!output.success) throw new Error(`addUploadedLibraryFiles broke the contract: ${formatZodError(output.error)}`);
        sendJson(res, 201, output.data);
        return;
      }
      case 'events': {
        const taskId = parseId('task_id', params.task_id);
        const runId = parseId('run_id', params.run_id);
        const afterSeq = resumeSeq(req, query);
        await streamRunEvents(core.events, req, res, { taskId, runId, afterSeq }, heartbeatMs);
        // A stream lives until its run ends; it does not hold up a drain (the client reconnects).
        // One whose client left during the subscribe is over already: its 'close' will not come again.
        if (!res.writableEnded && !res.destroyed) {
          // A drain that began while this one subscribed has ended the others already: this one
          // ends too, once the replay queued for this tick is written, and its 'close' (as any
          // request's) lets the drain go on.
          if (draining) {
            process.nextTick(() => res.end());
            return;
          }
          inFlight.delete(res);
          streams.add(res);
          res.on('close', () => streams.delete(res));
        }
        return;
      }
    }
  }

  async function handleCall(
    core: FolioCore,
    req: IncomingMessage,
    res: ServerResponse,
    ctx: RequestContext,
    method: MethodName,
    download: boolean,
    params: Record<string, string>,
    query: Record<string, string | string[]>,
  ): Promise<void> {
    const httpMethod = req.method ?? 'GET';
    let asJson = !download;
    if (download && 'format' in query) {
      if (query.format !== 'json') throw new ValidationError('format: expected "json"');
      asJson = true;
      delete query.format;
    }
    const hasBody = httpMethod === 'POST' || httpMethod === 'PATCH' || httpMethod === 'PUT';
    const fields: Record<string, unknown> = hasBody ? await readJsonObject(req, maxBodyBytes) : query;
    if (hasBody && Object.keys(query).length > 0) {
      throw new ValidationError('This route takes its input as a JSON body, not a query string');
    }
    for (const [name, value] of Object.entries(params)) {
      if (Object.hasOwn(fields, name)) throw new ValidationError(`${name}: given both in the path and in the request`);
      fields[name] = value;
    }
    const result = await dispatchCall(core, method, fields, { transport: 'http', onInternalError: reportFor(req, ctx) });
    if (!result.ok) {
      ctx.errorCode = result.error.code;
      sendErrorShape(res, result.error);
      return;
    }
    if (asJson) sendJson(res, statusForSuccess(method), result.value);
    else sendDownload(res, contract.readFile.output.parse(result.value));
  }

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const ctx: RequestContext = { requestId: requestIdFrom(req.headers[REQUEST_ID_HEADER]), started: performance.now(), route: '?' };
    inFlight.add(res);
    res.on('close', () => {
      inFlight.delete(res);
      if (inFlight.size === 0) onIdle?.();
      opts.onRequestDone?.(req.method ?? '?', ctx.pattern ?? 'unmatched', res.headersSent ? res.statusCode : 499, (performance.now() - ctx.started) / 1000);
      if (opts.logger) {
        logRequest(opts.logger, {
          requestId: ctx.requestId, method: req.method ?? '?', route: ctx.route, status: res.headersSent ? res.statusCode : 499,
          ms: performance.now() - ctx.started, tenant: ctx.scope?.tenant_id, user: ctx.scope?.user_id,
          taskId: ctx.params?.task_id, runId: ctx.params?.run_id, errorCode: ctx.errorCode,
        }, secretsOf(req, ctx));
      }
    });
    handle(req, res, ctx).catch((error: unknown) => {
      if (!(error instanceof FolioError)) reportFor(req, ctx)(`${req.method ?? '?'} request`, error);
      ctx.errorCode = error instanceof FolioError ? error.code : 'internal';
      if (res.headersSent) {
        res.destroy();
        return;
      }
      const headers: Record<string, string> = retryAfterHeader(error);
      // An error before the body was read: drain it and close, so the client still sees the answer.
      if (!req.complete || !res.shouldKeepAlive) {
        res.shouldKeepAlive = false;
        discardRequestBody(req);
        sendError(res, error, { ...headers, Connection: 'close' });
        return;
      }
      sendError(res, error, headers);
    });
  });

  Object.defineProperty(server, 'draining', { get: () => draining });
  Object.defineProperty(server, 'sseClients', { get: () => streams.size });
  server.drain = (drainOpts: DrainOptions = {}) => {
    drainPromise ??= (async () => {
      draining = true;
      // The listener stays open while requests finish, so probes see /readyz turn 503 (a refused
      // connection would look like a crash) and stray requests get a retryable 503, not a reset.
      server.closeIdleConnections();
      for (const stream of streams) stream.end();
      await new Promise<void>((resolve) => {
        if (inFlight.size === 0) return resolve();
        const timer = setTimeout(resolve, drainOpts.graceMs ?? 30_000);
        timer.unref();
        onIdle = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      onIdle = null;
      try {
        await drainOpts.onDrain?.();
      } catch (error) {
        onInternalError('drain hook', error);
      }
      await new Promise<void>((resolve) => {
        if (!server.listening) return resolve();
        server.close(() => resolve());
        server.closeAllConnections();
      });
    })();
    return drainPromise;
  };
  return server;
}
