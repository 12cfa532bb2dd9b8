// Request guards that run before routing: the Host check (a DNS-rebinding page would send its own
// host name) and the bearer token for the API.
import type { IncomingMessage } from 'node:http';
import { safeEqual } from '../../tenancy/constant-time';

/**
 * Loopback names on the listening port always pass (local health checks, single-user mode). A
 * service behind a reverse proxy also accepts the public names it is configured with, compared
 * exactly (`name` or `name:port`, as the proxy forwards them); `*` accepts any Host, for proxies
 * that rewrite it to an address nobody can predict.
 */
export function isAllowedHost(hostHeader: string | undefined, port: number, publicHosts: readonly string[] = []): boolean {
  if (hostHeader === undefined) return false;
  const host = hostHeader.toLowerCase();
  if (host === `127.0.0.1:${port}` || host === `localhost:${port}`) return true;
  return publicHosts.includes('*') || publicHosts.includes(host);
}

export function hasValidBearer(req: IncomingMessage, token: string): boolean {
  const header = req.headers.authorization;
  if (typeof header !== 'string') return false;
  const match = /^Bearer +(\S+) *$/i.exec(header);
  if (!match) return false;
  return safeEqual(match[1], token);
}
