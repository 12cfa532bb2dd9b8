// Web mode's HTTP server (plain node:http). Routing is derived from the contract, every call goes
// through dispatchCall, and the server only ever listens on 127.0.0.1.
import { LibraryId } from '../../../shared/contract/projects';
import { type AddressInfo } from 'node:net';
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import { Id } from '../../../shared/contract/entities';
import { contract, type MethodName } from '../../../shared/contract/methods';
import { FolioError, NotFoundError, ValidationError, formatZodError, toErrorShape } from '../../../shared/errors';
import type { FolioCore } from '../../service/ports';
import { dispatchCall } from '../dispatch';
import { DEFAULT_MAX_BODY_BYTES, discardRequestBody, readJsonObject } from './body';
import { sendDownload } from './download';
import { hasValidBearer, isAllowedHost } from './guards';
import { sendError, sendErrorShape, sendJson, setSecurityHeaders } from './respond';
import { type RouteTarget, createApiRouter, statusForSuccess } from './routes';
import { DEFAULT_SSE_HEARTBEAT_MS, resumeSeq, streamRunEvents } from './sse';
import { serveStatic } from './static';
import { DEFAULT_MAX_UPLOAD_BYTES, handleLibraryUpload, handleTemplateUpload, handleUpload } from './upload';

export interface HttpServerOptions {
  /** The bearer token every /v1 request must carry. */
  token: string;
  /** The built renderer; without it only the API is served. */
  staticDir?: string;
  maxBodyBytes?: number;
  maxUploadBytes?: number;
  sseHeartbeatMs?: number;
  /** Told about bugs in main (never request bodies or the token). Defaults to console.error. */
  onInternalError?: (where: string, error: unknown) => void;
}

export interface StartHttpServerOptions extends Omit<HttpServerOptions, 'token'> {
  token: string;
  /** 0 (default) picks a free port. */
  port?: number;
  /** Accepted only as '127.0.0.1': web mode is local-only by design. */
  host?: '127.0.0.1';
}

export interface RunningHttpServer {
  url: string;
  port: number;
  server: Server;
  /** Stops listening and drops open connections (SSE streams included). Does not close the core. */
  close(): Promise<void>;
}

class UnauthorizedError extends FolioError {
  constructor() {
    super('unauthorized', 'Missing or invalid bearer token', { name: 'UnauthorizedError' });
  }
}

class ForbiddenHostError extends FolioError {
  constructor() {
    super('forbidden', 'Host not allowed', { name: 'ForbiddenError' });
  }
}

class MethodNotAllowedError extends FolioError {
  constructor(method: string) {
    super('unsupported', `Method ${method.slice(0, 10)} not allowed here`, { name: 'MethodNotAllowedError' });
  }
}

export function createHttpServer(core: FolioCore, opts: HttpServerOptions): Server {
  if (opts.token.length < 16) throw new Error('The HTTP token must be at least 16 characters');
  const router = createApiRouter();
  const maxBodyBytes = opts.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const maxUploadBytes = opts.maxUploadBytes ?? DEFAULT_MAX_UPLOAD_BYTES;
  const heartbeatMs = opts.sseHeartbeatMs ?? DEFAULT_SSE_HEARTBEAT_MS;
  const onInternalError = opts.onInternalError ?? ((where, error) => console.error(`[folio] http ${where} failed:`, error));

  const server = createServer();

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    setSecurityHeaders(res);
    const port = (server.address() as AddressInfo | null)?.port ?? -1;
    if (!isAllowedHost(req.headers.host, port)) throw new ForbiddenHostError();

    const rawUrl = req.url ?? '/';
    if (!rawUrl.startsWith('/')) throw new ValidationError('Request target must be a path');
    const queryStart = rawUrl.indexOf('?');
    const pathname = queryStart === -1 ? rawUrl : rawUrl.slice(0, queryStart);
    const search = queryStart === -1 ? '' : rawUrl.slice(queryStart + 1);
    const method = req.method ?? 'GET';

    if (pathname !== '/v1' && !pathname.startsWith('/v1/')) {
      if (method !== 'GET' && method !== 'HEAD') {
        sendMethodNotAllowed(req, res, method, ['GET', 'HEAD']);
        return;
      }
      if (opts.staticDir !== undefined && (await serveStatic(req, res, opts.staticDir, pathname))) return;
      throw new NotFoundError('Not found');
    }

    // Before routing, so an unauthenticated caller learns nothing about which routes exist.
    if (!hasValidBearer(req, opts.token)) throw new UnauthorizedError();

    const match = router.match(method, pathname);
    if (match.kind === 'not_found') throw new NotFoundError('Unknown route');
    if (match.kind === 'method_not_allowed') {
      sendMethodNotAllowed(req, res, method, match.allow);
      return;
    }
    await handleRoute(req, res, match.route.target, match.params, parseQuery(search));
  }

  async function handleRoute(
    req: IncomingMessage,
    res: ServerResponse,
    target: RouteTarget,
    params: Record<string, string>,
    query: Record<string, string | string[]>,
  ): Promise<void> {
    switch (target.kind) {
      case 'call':
        return handleCall(req, res, target.method, target.download, params, query);
      case 'upload': {
        const taskId = parseId('task_id', params.task_id);
        if (Object.keys(query).length > 0) throw new ValidationError('Uploads take no query parameters');
        const files = await handleUpload(core, req, taskId, maxUploadBytes);
        const output = contract.addFiles.output.safeParse({ files });
        if (!output.success) throw new Error(`addUploadedFiles broke the contract: ${formatZodError(output.error)}`);
        sendJson(res, 201, output.data);
        return;
      }
      case 'template-upload': {
        if (Object.keys(query).length > 0) throw new ValidationError('Uploads take no query parameters');
        const summary = await handleTemplateUpload(core, req, maxUploadBytes);
        const output = contract.importTemplate.output.safeParse(summary);
        if (!output.success) throw new Error(`importUploadedTemplate broke the contract: ${formatZodError(output.error)}`);
        sendJson(res, 201, output.data);
        return;
      }
      // ---- projects and libraries (issue 14) ----
      case 'library-upload': {
        const library = LibraryId.safeParse(params.project_id);
        if (!library.success) throw new ValidationError(`project_id: ${formatZodError(library.error)}`);
        if (Object.keys(query).length > 0) throw new ValidationError('Uploads take no query parameters');
        const files = await handleLibraryUpload(core, req, library.data, maxUploadBytes);
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
        return;
      }
    }
  }

  async function handleCall(
    req: IncomingMessage,
    res: ServerResponse,
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
    const result = await dispatchCall(core, method, fields, { transport: 'http', onInternalError });
    if (!result.ok) {
      sendErrorShape(res, result.error);
      return;
    }
    if (asJson) sendJson(res, statusForSuccess(method), result.value);
    else sendDownload(res, contract.readFile.output.parse(result.value));
  }

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    handle(req, res).catch((error: unknown) => {
      if (!(error instanceof FolioError)) onInternalError(`${req.method ?? '?'} request`, error);
      if (res.headersSent) {
        res.destroy();
        return;
      }
      // An error before the body was read: drain it and close, so the client still sees the answer.
      if (!req.complete) {
        res.shouldKeepAlive = false;
        discardRequestBody(req);
        sendError(res, error, { Connection: 'close' });
        return;
      }
      sendError(res, error);
    });
  });
  return server;
}

export async function startHttpServer(core: FolioCore, opts: StartHttpServerOptions): Promise<RunningHttpServer> {
  if (opts.host !== undefined && opts.host !== '127.0.0.1') throw new Error('The HTTP server only binds 127.0.0.1');
  const server = createHttpServer(core, opts);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    server,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

function sendMethodNotAllowed(req: IncomingMessage, res: ServerResponse, method: string, allow: string[]): void {
  discardRequestBody(req);
  sendJson(res, 405, { error: toErrorShape(new MethodNotAllowedError(method)) }, { Allow: allow.join(', ') });
}

function parseId(field: string, value: string | undefined): string {
  const parsed = Id.safeParse(value);
  if (!parsed.success) throw new ValidationError(`${field}: ${formatZodError(parsed.error)}`);
  return parsed.data;
}

/** Repeated keys become arrays, which the contract's string fields then reject. */
function parseQuery(search: string): Record<string, string | string[]> {
  // No prototype: a key like `__proto__` must stay a plain (and then rejected) field.
  const query = Object.create(null) as Record<string, string | string[]>;
  for (const [key, value] of new URLSearchParams(search)) {
    const existing = query[key];
    if (existing === undefined) query[key] = value;
    else query[key] = Array.isArray(existing) ? [...existing, value] : [existing, value];
  }
  return query;
}
