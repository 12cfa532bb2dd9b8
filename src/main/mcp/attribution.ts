// Whose work each request to an MCP server is, for the team service's audit rows. A connection is
// shared by every task's runs, so its requests are charged one by one: a call's POST to the run
// that made it (matched by its JSON-RPC id), everything else (handshake, listings, the event
// stream) to the work that started the connection.
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { outboundFetch } from '../net/outbound';
import type { OutboundAudit } from '../net/outbound-audit';

export interface McpAttribution {
  /** Who the connection's own traffic is charged to: the work that started it. */
  opener: OutboundAudit | null;
  /** Set only while a call hands its request to the SDK (synchronously): who that request is charged to. */
  sending: { audit: OutboundAudit | null } | null;
  /** Requests sent and not yet posted, by JSON-RPC id: who each is charged to. */
  byId: Map<string | number, OutboundAudit | null>;
}

/** The JSON-RPC id of a posted message (or of a batch's first request); null for notifications and streams. */
function messageId(body: RequestInit['body'] | undefined): string | number | null {
  if (typeof body !== 'string') return null;
  try {
    const parsed = JSON.parse(body) as unknown;
    const first = (Array.isArray(parsed) ? parsed.find((m) => m && typeof m === 'object' && 'id' in m) : parsed) as { id?: unknown } | undefined;
    return typeof first?.id === 'string' || typeof first?.id === 'number' ? first.id : null;
  } catch {
    return null;
  }
}

/** Runs `send` (a client call that hands its request to the transport synchronously, as the SDK's do) charged to `audit`. */
export function sentAs<T>(conn: McpAttribution | undefined, audit: OutboundAudit | null, send: () => Promise<T>): Promise<T> {
  if (!conn) return send();
  conn.sending = { audit };
  try {
    return send();
  } finally {
    conn.sending = null;
  }
}

/** An HTTP transport whose requests are charged as above: `make` builds it with the fetch to use. */
export function attributed<T extends Transport>(conn: McpAttribution, make: (fetch: typeof globalThis.fetch) => T): T {
  const transport = make((input, init) => {
    const id = messageId(init?.body);
    const audit = id !== null && conn.byId.has(id) ? (conn.byId.get(id) ?? null) : conn.opener;
    if (id !== null) conn.byId.delete(id);
    return outboundFetch('mcp', audit)(input, init);
  });
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    if (conn.sending !== null && 'id' in message && 'method' in message) conn.byId.set(message.id, conn.sending.audit);
    return send(message, options);
  };
  return transport;
}
