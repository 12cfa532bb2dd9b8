// Requests to addresses a person typed: a provider's base URL, the model list of a provider being
// set up, a search backend, an embedding endpoint, an MCP server. On a desktop they may go wherever
// the person can reach (a local Ollama is the point). In the team service a tenant types them and
// the worker connects: a URL naming 169.254.169.254, the database host or any internal service
// would let a tenant read what only the worker should reach (SSRF). So the team service calls
// `restrictOutbound` at start, and from then on every such request (`outboundFetch(kind)`) is checked:
// each address its host resolves to, and each redirect's, must be public unicast (address-policy.ts)
// or inside what the operator allowed (`--allow-network`: host names, IP addresses, CIDR ranges).
//
// A host name's answer is checked once and the connection goes to the address checked
// (pinned-fetch.ts), so a name whose DNS answer changes between the check and the connect
// (rebinding) cannot move the request, as web_fetch does for pages (tools/net/safe-fetch.ts). A
// host the operator allowed by name is trusted as the name: fetch resolves it itself.
import dns from 'node:dns';
import ipaddr from 'ipaddr.js';
import { FolioError } from '../../shared/errors';
import { addressRefusal, isIpLiteral } from './address-policy';
import { familyOf, pinnedFetch, type PinnedAddress } from './pinned-fetch';
import { auditedFetch, type OutboundAudit, type OutboundKind } from './outbound-audit';

export interface OutboundPolicy {
  /** What the operator allowed besides public addresses: host names, IP addresses and CIDR ranges. */
  allow: readonly string[];
  /** Resolves a host to all its addresses (default: the system resolver, as fetch would). */
  lookup?: (hostname: string) => Promise<string[]>;
}

const MAX_REDIRECTS = 5;

let policy: OutboundPolicy | null = null;

/** From now on requests to typed addresses are checked (the team service); null lifts it (tests). */
export function restrictOutbound(next: OutboundPolicy | null): void {
  policy = next;
}

/**
 * The fetch for requests to addresses a person typed: the global one, or the checked one once
 * restricted; each request is reported to `audit` (the work making it), null on the desktop.
 */
export function outboundFetch(kind: OutboundKind, audit: OutboundAudit | null): typeof fetch {
  const current = policy;
  const base: typeof fetch = current === null ? fetch : (input, init) => checkedFetch(current, input, init);
  return auditedFetch(kind, base, audit);
}

/** Whether the operator allowed this address for tenants' typed addresses (`--allow-network`); false unrestricted. */
export function operatorAllowsAddress(address: string): boolean {
  return policy !== null && allowed(policy, address.toLowerCase(), address);
}

async function systemLookup(hostname: string): Promise<string[]> {
  return (await dns.promises.lookup(hostname, { all: true, verbatim: true })).map((a) => a.address);
}

/** Whether the operator allowed `host` (by name) or `address` (exactly or in a range); the list is a handful of entries, read per request. */
function allowed(policy: OutboundPolicy, host: string, address: string | null): boolean {
  for (const entry of policy.allow) {
    const rule = entry.trim().toLowerCase();
    if (rule === '') continue;
    if (rule === host) return true;
    if (address === null) continue;
    try {
      if (rule.includes('/')) {
        const [range, bits] = ipaddr.parseCIDR(rule);
        const ip = ipaddr.parse(address);
        if (ip.kind() === range.kind() && ip.match(range, bits)) return true;
      } else if (isIpLiteral(rule) && ipaddr.parse(rule.replace(/^\[|\]$/gu, '')).toNormalizedString() === ipaddr.parse(address).toNormalizedString()) {
        return true;
      }
    } catch {
      // A malformed entry allows nothing; the configuration check reports it at start.
    }
  }
  return false;
}

/**
 * Throws FolioError('forbidden') unless every address of the URL's host may be reached. Returns the
 * address to connect to when the host is a name it resolved (null: an IP address, or a name the
 * operator allowed as such).
 */
export async function assertOutboundAllowed(policy: OutboundPolicy, url: URL): Promise<PinnedAddress | null> {
  const host = url.hostname.replace(/^\[|\]$/gu, '').toLowerCase();
  if (allowed(policy, host, null)) return null;
  const literal = isIpLiteral(host);
  const addresses = literal ? [host] : await (policy.lookup ?? systemLookup)(host).catch(() => []);
  if (addresses.length === 0) throw new FolioError('invalid_input', `Cannot resolve ${host}.`);
  for (const address of addresses) {
    const refusal = addressRefusal(address);
    if (refusal !== null && !allowed(policy, host, address)) {
      throw new FolioError(
        'forbidden',
        `The team service does not connect to ${host}${host === address ? '' : ` (${address})`}: ${refusal}. The operator can allow it with --allow-network.`,
      );
    }
  }
  return literal ? null : { address: addresses[0], family: familyOf(addresses[0]) };
}

function requestUrl(input: Parameters<typeof fetch>[0]): URL {
  if (input instanceof URL) return input;
  return new URL(typeof input === 'string' ? input : input.url);
}

/**
 * fetch with the check before the request and before each redirect it follows (by hand, so every
 * hop is checked); a request whose caller asked not to follow redirects gets the 3xx as it is.
 */
async function checkedFetch(policy: OutboundPolicy, input: Parameters<typeof fetch>[0], init: RequestInit = {}): Promise<Response> {
  let url = requestUrl(input);
  const follow = (init.redirect ?? (input instanceof Request ? input.redirect : 'follow')) === 'follow';
  let request: Parameters<typeof fetch>[0] = input;
  let current: RequestInit = init;
  for (let hop = 0; ; hop += 1) {
    const vetted = await assertOutboundAllowed(policy, url);
    const once: RequestInit = { ...current, redirect: 'manual' };
    const response = vetted === null ? await fetch(request, once) : await pinnedFetch(request, once, vetted);
    const location = response.headers.get('location');
    if (!follow || response.status < 300 || response.status > 399 || location === null) return response;
    if (hop >= MAX_REDIRECTS) throw new FolioError('invalid_input', `More than ${MAX_REDIRECTS} redirects from ${requestUrl(input).host}.`);
    // As fetch does: 303 (and 301/302 after a POST) continue as a GET without a body.
    const method = (current.method ?? (request instanceof Request ? request.method : 'GET')).toUpperCase();
    const asGet = response.status === 303 || ((response.status === 301 || response.status === 302) && method === 'POST');
    if (!asGet && current.body !== undefined && current.body !== null && !(typeof current.body === 'string')) {
      return response; // a streamed body cannot be sent twice: the caller sees the redirect
    }
    url = new URL(location, url);
    request = url;
    current = asGet ? { ...current, method: 'GET', body: undefined } : current;
    await response.body?.cancel();
  }
}
