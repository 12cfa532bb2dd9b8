// Request guards that run before routing: the Host check (a DNS-rebinding page would send its own
// host name) and the bearer token for the API.
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export function isAllowedHost(hostHeader: string | undefined, port: number): boolean {
  if (hostHeader === undefined) return false;
  const host = hostHeader.toLowerCase();
  return host === `127.0.0.1:${port}` || host === `localhost:${port}`;
}

export function hasValidBearer(req: IncomingMessage, token: string): boolean {
  const header = req.headers.authorization;
  if (typeof header !== 'string') return false;
  const match = /^Bearer +(\S+) *$/i.exec(header);
  if (!match) return false;
  return safeEqual(match[1], token);
}

/** Constant-time for equal lengths; a length mismatch still spends one comparison. */
function safeEqual(given: string, expected: string): boolean {
  const a = Buffer.from(given, 'utf8');
  const b = Buffer.from(expected, 'utf8');
  if (a.length !== b.length) {
    timingSafeEqual(b, b);
    return false;
  }
  return timingSafeEqual(a, b);
}
