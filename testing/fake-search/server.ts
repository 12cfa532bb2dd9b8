// A local search backend for tests: real HTTP on 127.0.0.1 answering in the shapes of SearXNG's JSON
// API, Brave Web Search, Tavily and Bing Web Search v7, with faults on demand (401, 500, malformed
// JSON, slow), and plain pages under /pages/ for web_fetch to read a result. Test support only.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { readBody, sendJson, sleep } from '../http-helpers';

/** The key the keyed backends accept; any other key gets a 401 like the real services. */
export const FAKE_SEARCH_KEY = 'fake-search-key-0123';

export interface FakeHit {
  title: string;
  url: string;
  snippet: string;
}

export type FakeSearchFault = 'none' | 'unauthorized' | 'server_error' | 'malformed' | 'slow';

export interface FakeSearchRequest {
  backend: 'searxng' | 'brave' | 'tavily' | 'bing';
  method: string;
  query: string;
  /** The count the client asked for (Brave/Bing `count`, Tavily `max_results`); null if none. */
  count: number | null;
  /** Whether the expected key arrived in the backend's own header. */
  keyOk: boolean;
}

export interface FakeSearch {
  origin: string;
  /** Settings URLs per backend (SearXNG: the instance; the others: their endpoint). */
  urls: { searxng: string; brave: string; tavily: string; bing: string };
  readonly requests: FakeSearchRequest[];
  /** The hits every backend returns; default: three hits pointing at this server's /pages/N. */
  setHits(hits: FakeHit[]): void;
  setFault(fault: FakeSearchFault, slowMs?: number): void;
  /** Bodies served at /pages/<name> as text/html. */
  setPage(name: string, html: string): void;
  reset(): void;
  close(): Promise<void>;
}

export async function startFakeSearch(opts: { port?: number } = {}): Promise<FakeSearch> {
  const requests: FakeSearchRequest[] = [];
  const pages = new Map<string, string>();
  const sockets = new Set<Socket>();
  let hits: FakeHit[] | null = null;
  let fault: FakeSearchFault = 'none';
  let slowMs = 5_000;
  let origin = '';

  const defaultHits = (query: string): FakeHit[] =>
    [1, 2, 3].map((n) => ({ title: `Result ${n} about ${query}`, url: `${origin}/pages/${n}`, snippet: `Snippet ${n}: what the web says about ${query}.` }));

  const server = createServer((req, res) => {
    void handle(req, res).catch(() => {
      if (!res.headersSent) sendJson(res, 500, { error: 'fake-search failed' });
      else res.destroy();
    });
  });
  // Never close an idle keep-alive socket: a client (a test's fetch, or Folio) that reuses one just as
  // the server's idle timer closes it gets "other side closed" for a request the server never read.
  // Idle sockets are ended with the server (`sockets`).
  server.keepAliveTimeout = 0;
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', origin);
    const raw = await readBody(req);
    if (req.method === 'POST' && url.pathname === '/__control') return control(raw, res);
    if (url.pathname.startsWith('/pages/')) {
      const name = decodeURIComponent(url.pathname.slice('/pages/'.length));
      const html = pages.get(name) ?? `<html><head><title>Page ${name}</title></head><body><h1>Page ${name}</h1><p>The full text of page ${name}.</p></body></html>`;
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(html);
      return;
    }
    const route = routeOf(req.method ?? 'GET', url.pathname);
    if (route === null) return sendJson(res, 404, { error: `fake-search: no route ${req.method ?? ''} ${url.pathname}` });

    let body: Record<string, unknown> = {};
    try {
      body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
    } catch {
      body = {};
    }
    const query = route === 'tavily' ? (typeof body.query === 'string' ? body.query : '') : (url.searchParams.get('q') ?? '');
    const countRaw = route === 'tavily' ? body.max_results : url.searchParams.get('count');
    const keyOk = keyPresent(route, req);
    requests.push({ backend: route, method: req.method ?? 'GET', query, count: countRaw == null ? null : Number(countRaw), keyOk });

    if (route === 'searxng' && url.searchParams.get('format') !== 'json') return sendJson(res, 403, { error: 'format not allowed' });
    if (fault === 'unauthorized' || !keyOk) return sendJson(res, 401, { error: 'invalid subscription token' });
    if (fault === 'server_error') return sendJson(res, 500, { error: 'internal error' });
    if (fault === 'slow') await sleep(slowMs);
    if (res.destroyed) return;
    if (fault === 'malformed') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(route === 'brave' ? '{"web": {"results": "not a list"}}' : '{"results": [ {"url": ');
      return;
    }
    sendJson(res, 200, shape(route, query, hits ?? defaultHits(query)));
  }

  function control(raw: string, res: ServerResponse): void {
    const body = JSON.parse(raw || '{}') as { hits?: FakeHit[]; fault?: FakeSearchFault; slowMs?: number; reset?: boolean };
    if (body.reset) reset();
    if (body.hits) hits = body.hits;
    if (body.fault) fault = body.fault;
    if (body.slowMs !== undefined) slowMs = body.slowMs;
    sendJson(res, 200, { ok: true });
  }

  function reset(): void {
    requests.length = 0;
    pages.clear();
    hits = null;
    fault = 'none';
    slowMs = 5_000;
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('fake-search: no TCP address');
  origin = `http://127.0.0.1:${address.port}`;

  return {
    origin,
    urls: { searxng: `${origin}/searxng`, brave: `${origin}/brave/res/v1/web/search`, tavily: `${origin}/tavily/search`, bing: `${origin}/bing/v7.0/search` },
    requests,
    setHits: (h) => void (hits = h),
    setFault: (f, ms) => {
      fault = f;
      if (ms !== undefined) slowMs = ms;
    },
    setPage: (name, html) => void pages.set(name, html),
    reset,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

function routeOf(method: string, path: string): FakeSearchRequest['backend'] | null {
  if (method === 'GET' && path === '/searxng/search') return 'searxng';
  if (method === 'GET' && path === '/brave/res/v1/web/search') return 'brave';
  if (method === 'POST' && path === '/tavily/search') return 'tavily';
  if (method === 'GET' && path === '/bing/v7.0/search') return 'bing';
  return null;
}

function keyPresent(backend: FakeSearchRequest['backend'], req: IncomingMessage): boolean {
  switch (backend) {
    case 'searxng':
      // A SearXNG instance has no key; a bearer token, when sent, must be the right one.
      return req.headers.authorization === undefined || req.headers.authorization === `Bearer ${FAKE_SEARCH_KEY}`;
    case 'brave':
      return req.headers['x-subscription-token'] === FAKE_SEARCH_KEY;
    case 'tavily':
      return req.headers.authorization === `Bearer ${FAKE_SEARCH_KEY}`;
    case 'bing':
      return req.headers['ocp-apim-subscription-key'] === FAKE_SEARCH_KEY;
  }
}

/** The hits in each provider's own answer shape, with the extra fields real answers carry. */
function shape(backend: FakeSearchRequest['backend'], query: string, hits: FakeHit[]): unknown {
  switch (backend) {
    case 'searxng':
      return {
        query,
        number_of_results: hits.length,
        results: hits.map((h, i) => ({ url: h.url, title: h.title, content: h.snippet, engine: 'duckduckgo', engines: ['duckduckgo'], score: 1 / (i + 1), category: 'general' })),
        answers: [],
        suggestions: [],
        unresponsive_engines: [],
      };
    case 'brave':
      return {
        type: 'search',
        query: { original: query },
        web: { type: 'search', results: hits.map((h) => ({ type: 'search_result', title: h.title, url: h.url, description: h.snippet.replace(query, `<strong>${query}</strong>`), language: 'en' })) },
      };
    case 'tavily':
      return { query, answer: null, images: [], results: hits.map((h, i) => ({ title: h.title, url: h.url, content: h.snippet, score: 1 - i / 10, raw_content: null })), response_time: 0.5 };
    case 'bing':
      return {
        _type: 'SearchResponse',
        queryContext: { originalQuery: query },
        webPages: { webSearchUrl: 'https://www.bing.com/search?q=x', totalEstimatedMatches: hits.length, value: hits.map((h, i) => ({ id: `r${i}`, name: h.title, url: h.url, snippet: h.snippet, displayUrl: h.url })) },
      };
  }
}


