// fetch whose connection goes to an address already vetted, whatever DNS answers by the time it
// connects: the global fetch looks the host name up again, so a name that answered with a public
// address at the check could answer with 169.254.169.254 at the connect (DNS rebinding). The
// request goes over node:http(s) with a `lookup` that returns the vetted address; the URL keeps its
// host name, so the Host header, TLS's server name and certificate check are the name's, as in
// fetch. Redirects are not followed here (the caller checks each hop).
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { Readable, type Transform } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import zlib from 'node:zlib';

export interface PinnedAddress {
  address: string;
  family: 4 | 6;
}

export function familyOf(address: string): 4 | 6 {
  return address.includes(':') ? 6 : 4;
}

/** A lookup that always answers with the vetted address. */
export function pinnedLookup(vetted: PinnedAddress): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all === true) callback(null, [{ address: vetted.address, family: vetted.family }]);
    else callback(null, vetted.address, vetted.family);
  };
}

/** Kept-alive connections per origin and vetted address; past this many the least used goes. */
const MAX_AGENTS = 32;
const agents = new Map<string, http.Agent>();

/**
 * A keep-alive pool whose every socket connects to `vetted`, so a model call does not pay a new TCP
 * and TLS handshake per request. Its key holds the address too: a pooled socket can only be reused
 * by a request whose check vetted the same address.
 */
function agentFor(url: URL, vetted: PinnedAddress): http.Agent {
  const key = `${url.protocol}//${url.host}@${vetted.address}`;
  const kept = agents.get(key);
  if (kept) {
    agents.delete(key);
    agents.set(key, kept);
    return kept;
  }
  const options = { keepAlive: true, lookup: pinnedLookup(vetted) };
  const agent = url.protocol === 'https:' ? new https.Agent(options) : new http.Agent(options);
  agents.set(key, agent);
  if (agents.size > MAX_AGENTS) {
    const [oldest] = agents.entries();
    if (oldest) {
      agents.delete(oldest[0]);
      retire(oldest[1]);
    }
  }
  return agent;
}

/**
 * Lets a pool go without cutting what is in flight (a model's streamed answer): its idle sockets
 * close now, the busy ones when their response ends, as the pool no longer keeps sockets alive.
 */
function retire(agent: http.Agent): void {
  // Read by the pool when a socket comes free (Node's Agent; not in its public types).
  (agent as unknown as { keepAlive: boolean }).keepAlive = false;
  for (const sockets of Object.values(agent.freeSockets)) for (const socket of sockets ?? []) socket.destroy();
}

/** Statuses whose response has no body (fetch answers them with `body: null`). */
const NULL_BODY_STATUSES = new Set([204, 205, 304]);

/** The stream that decodes a body of this `content-encoding` (lower case), or null for none Folio decodes. */
export function decompressor(encoding: string): Transform | null {
  if (encoding === 'gzip' || encoding === 'x-gzip') return zlib.createGunzip();
  if (encoding === 'deflate') return zlib.createInflate();
  if (encoding === 'br') return zlib.createBrotliDecompress();
  return null;
}

/** The request as fetch would send it (headers, a body of any kind), over a connection to `vetted`. */
export async function pinnedFetch(input: Parameters<typeof fetch>[0], init: RequestInit, vetted: PinnedAddress): Promise<Response> {
  // Request normalizes what callers pass (a FormData becomes multipart with its boundary, a stream
  // is read); the bodies sent to providers, search and MCP servers are small JSON or forms.
  const streamed = init.body instanceof ReadableStream;
  // A streamed body needs `duplex: 'half'` (Node's fetch types have it).
  const request = new Request(input, streamed ? { ...init, duplex: 'half' } : init);
  const body = request.body === null ? null : Buffer.from(await request.arrayBuffer());
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => {
    headers[name] = value;
  });
  if (body !== null) headers['content-length'] = String(body.length);
  const url = new URL(request.url);
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<Response>((resolve, reject) => {
    const req = client.request(
      url,
      { method: request.method, headers, agent: agentFor(url, vetted), lookup: pinnedLookup(vetted), signal: init.signal ?? undefined },
      (res) => {
        try {
          resolve(toResponse(res, url, request.method));
        } catch (err) {
          res.destroy();
          reject(err instanceof Error ? err : new Error(String(err)));
        }
      },
    );
    req.on('error', reject);
    req.end(body ?? undefined);
  });
}

function toResponse(res: http.IncomingMessage, url: URL, method: string): Response {
  const headers = new Headers();
  for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) headers.append(res.rawHeaders[i], res.rawHeaders[i + 1]);
  const status = res.statusCode ?? 502;
  let stream: Readable = res;
  const inflate = decompressor((headers.get('content-encoding') ?? '').trim().toLowerCase());
  if (inflate !== null) {
    // As fetch does: the body comes decoded, so its encoding and length headers no longer apply.
    headers.delete('content-encoding');
    headers.delete('content-length');
    stream = res.pipe(inflate);
    res.on('error', (err) => inflate.destroy(err));
  }
  const noBody = NULL_BODY_STATUSES.has(status) || method === 'HEAD';
  if (noBody) res.resume();
  const webBody = noBody ? null : (Readable.toWeb(stream) as WebReadableStream<Uint8Array>);
  const response = new Response(webBody, { status, statusText: res.statusMessage ?? '', headers });
  // Callers read where the answer came from as fetch reports it.
  Object.defineProperty(response, 'url', { value: url.href });
  return response;
}
