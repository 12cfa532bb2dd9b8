// A GET that cannot be pointed at the person's own machine or network (SSRF): every hop's host is
// resolved here, every address it resolves to is vetted, and the connection is pinned to the vetted
// address (a custom `lookup`), so a DNS answer that changes between the check and the connect
// (rebinding) cannot move it. Redirects are followed by hand, each hop checked again.
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { pipeline, type Readable } from 'node:stream';
import { NetworkRefusedError, NetworkUnreachableError, ToolError, ToolTimeoutError, ToolTooLargeError } from '../types';
import { addressRefusal, isIpLiteral } from '../../net/address-policy';
import { decompressor, familyOf, type PinnedAddress, pinnedLookup } from '../../net/pinned-fetch';
import { outboundReporter, type OutboundAudit } from '../../net/outbound-audit';

export const FETCH_MAX_BYTES = 5 * 1024 * 1024;
export const FETCH_TIMEOUT_MS = 20_000;
export const FETCH_MAX_REDIRECTS = 5;

export interface ResolvedAddress {
  address: string;
  family: number;
}

export interface SafeFetchOptions {
  /** Resolves a host name to all its addresses (default: the system resolver, as connections would). */
  lookup?: (hostname: string) => Promise<ResolvedAddress[]>;
  /** Whether an address may be connected to (default: public unicast only). Tests narrow it to one server. */
  isAllowedAddress?: (address: string, port: number) => boolean;
  /** Decides from the response's media type (lower-case, without parameters) whether to read the body. */
  acceptContentType?: (mediaType: string) => boolean;
  maxBytes?: number;
  /** For the whole fetch, redirects included. */
  timeoutMs?: number;
  maxRedirects?: number;
  signal?: AbortSignal;
  userAgent?: string;
}

export interface FetchedResponse {
  /** The URL after redirects. */
  url: string;
  status: number;
  statusText: string;
  /** Lower-case media type without parameters ('' when the server sent none). */
  mediaType: string;
  /** The charset parameter of Content-Type, if any. */
  charset: string | null;
  body: Buffer;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

async function systemLookup(hostname: string): Promise<ResolvedAddress[]> {
  return dns.promises.lookup(hostname, { all: true, verbatim: true });
}

function defaultPolicy(address: string): boolean {
  return addressRefusal(address) === null;
}

/** Parses and checks a URL's form: http(s) only, no credentials. */
export function checkUrl(raw: string, base?: string): URL {
  let url: URL;
  try {
    url = new URL(raw, base);
  } catch {
    throw new ToolError(`Not a valid URL: ${raw}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new NetworkRefusedError(`Refused ${url.protocol} URL: only http and https can be fetched.`);
  }
  if (url.username !== '' || url.password !== '') throw new NetworkRefusedError('Refused: URLs with a user name or password are not fetched.');
  return url;
}

function portOf(url: URL): number {
  if (url.port !== '') return Number(url.port);
  return url.protocol === 'https:' ? 443 : 80;
}

/** The resolver cannot be cancelled, so the time limit and a cancel stop waiting for it instead. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(new Error('aborted'));
    if (signal.aborted) onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    void promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** Every address of the URL's host, all vetted; the first is the one to connect to. */
async function vetHost(url: URL, options: SafeFetchOptions, signal: AbortSignal): Promise<PinnedAddress> {
  const host = url.hostname.replace(/^\[|\]$/gu, '');
  const port = portOf(url);
  let addresses: ResolvedAddress[];
  if (isIpLiteral(host)) addresses = [{ address: host, family: familyOf(host) }];
  else {
    try {
      addresses = await untilAborted((options.lookup ?? systemLookup)(host), signal);
    } catch (err) {
      if (signal.aborted) throw err;
      throw new NetworkUnreachableError(`Could not resolve ${host}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  if (addresses.length === 0) throw new NetworkUnreachableError(`Could not resolve ${host}: no addresses.`);
  const allowed = options.isAllowedAddress ?? defaultPolicy;
  for (const { address } of addresses) {
    if (!allowed(address, port)) {
      const why = addressRefusal(address) ?? 'not allowed by the fetch policy';
      const shown = address === host ? host : `${host} (${address})`;
      throw new NetworkRefusedError(`Refused to fetch ${url.href}: ${shown} is ${why}. Only public Internet addresses can be fetched.`);
    }
  }
  const first = addresses[0];
  if (!first) throw new NetworkUnreachableError(`Could not resolve ${host}: no addresses.`);
  return { address: first.address, family: first.family === 6 || first.family === 4 ? first.family : familyOf(first.address) };
}

function parseContentType(header: string | undefined): { mediaType: string; charset: string | null } {
  if (!header) return { mediaType: '', charset: null };
  const [type = '', ...params] = header.split(';');
  let charset: string | null = null;
  for (const param of params) {
    const m = /^\s*charset\s*=\s*"?([^";\s]+)"?/iu.exec(param);
    if (m?.[1]) charset = m[1].toLowerCase();
  }
  return { mediaType: type.trim().toLowerCase(), charset };
}

function request(url: URL, vetted: PinnedAddress, options: SafeFetchOptions, signal: AbortSignal): Promise<http.IncomingMessage> {
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.request(
      url,
      {
        method: 'GET',
        // A fresh connection per hop: a pooled socket could belong to another (differently vetted) host.
        agent: false,
        lookup: pinnedLookup(vetted),
        signal,
        headers: {
          'User-Agent': options.userAgent ?? 'Folio/0.1 (local research assistant)',
          Accept: 'text/html,application/xhtml+xml,text/markdown,text/plain;q=0.9,application/json;q=0.9,application/xml;q=0.8,*/*;q=0.1',
          'Accept-Encoding': 'gzip, deflate, br',
        },
      },
      resolve,
    );
    req.on('error', reject);
    req.end();
  });
}

function decoded(res: http.IncomingMessage): Readable {
  const transform = decompressor((res.headers['content-encoding'] ?? '').trim().toLowerCase());
  // pipeline (not pipe) so an aborted response also fails the decompressor instead of leaving it waiting.
  return transform === null ? res : pipeline(res, transform, () => undefined);
}

/** Reads the body, decompressed, refusing it once it passes `maxBytes` (so a compressed bomb stops too). */
async function readBody(res: http.IncomingMessage, maxBytes: number): Promise<Buffer> {
  const declared = Number(res.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes && !res.headers['content-encoding']) {
    res.destroy();
    throw new ToolTooLargeError(`The response is ${declared} bytes; pages over ${maxBytes / 1024 / 1024} MB are not fetched.`);
  }
  const stream = decoded(res);
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for await (const chunk of stream) {
      const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
      total += buf.length;
      if (total > maxBytes) throw new ToolTooLargeError(`The response is larger than ${maxBytes / 1024 / 1024} MB; pages that big are not fetched.`);
      chunks.push(buf);
    }
  } finally {
    res.destroy();
    stream.destroy();
  }
  return Buffer.concat(chunks);
}

/** `outbound`: who the fetch is charged to (the team service's audit rows); null on the desktop. */
export async function safeFetch(rawUrl: string, outbound: OutboundAudit | null, options: SafeFetchOptions = {}): Promise<FetchedResponse> {
  const timeoutMs = options.timeoutMs ?? FETCH_TIMEOUT_MS;
  const maxRedirects = options.maxRedirects ?? FETCH_MAX_REDIRECTS;
  const deadline = AbortSignal.timeout(timeoutMs);
  const signal = options.signal ? AbortSignal.any([deadline, options.signal]) : deadline;
  const failure = (err: unknown, url: URL): ToolError => {
    if (err instanceof ToolError) return err;
    if (deadline.aborted) return new ToolTimeoutError(timeoutMs / 1000, `Timed out after ${timeoutMs / 1000} s fetching ${url.href}.`);
    if (options.signal?.aborted) return new ToolError('The fetch was cancelled.');
    return new NetworkUnreachableError(`Could not fetch ${url.href}: ${err instanceof Error ? err.message : String(err)}`);
  };

  let url = checkUrl(rawUrl);
  const host = url.host;
  let hops = 0;
  let status: number | null = null;
  let bytesIn = 0;
  const started = performance.now();
  try {
    for (;;) {
      const fetched = await fetchHop();
      if (fetched === 'redirected') continue;
      status = fetched.status;
      bytesIn = fetched.body.byteLength;
      return fetched;
    }
  } finally {
    outboundReporter(outbound)?.({ kind: 'web_fetch', host, bytesOut: 0, bytesIn, status, seconds: (performance.now() - started) / 1000 });
  }

  async function fetchHop(): Promise<FetchedResponse | 'redirected'> {
    let res: http.IncomingMessage;
    try {
      const vetted = await vetHost(url, options, signal);
      res = await request(url, vetted, options, signal);
    } catch (err) {
      throw failure(err, url);
    }
    const status = res.statusCode ?? 0;
    const location = res.headers.location;
    if (REDIRECT_STATUSES.has(status) && location !== undefined) {
      res.destroy();
      if (++hops > maxRedirects) throw new ToolError(`Too many redirects (more than ${maxRedirects}); last one pointed to ${location}.`);
      url = checkUrl(location, url.href);
      return 'redirected';
    }
    const { mediaType, charset } = parseContentType(res.headers['content-type']);
    if (options.acceptContentType && !options.acceptContentType(mediaType)) {
      res.destroy();
      throw new ToolError(`Refused content type "${mediaType || '(none)'}" from ${url.href}: only web pages, text, Markdown, JSON and XML are fetched.`);
    }
    try {
      const body = await readBody(res, options.maxBytes ?? FETCH_MAX_BYTES);
      return { url: url.href, status, statusText: res.statusMessage ?? '', mediaType, charset, body };
    } catch (err) {
      throw failure(err, url);
    }
  }
}
