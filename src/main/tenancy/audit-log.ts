// Audit events for data leaving the service (§7.7: the core produces them, the platform ships them
// to its SIEM): one append-only `audit_events` row per outbound request, naming the tenant, user and
// task of the request that caused it, the kind, the destination host and the bytes each way.
// `GET /v1/audit` pages through them for the platform (platform key + a token with the admin claim).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { FolioError, ValidationError } from '../../shared/errors';
import type { OutboundEvent, OutboundOwner } from '../net/outbound-audit';
import type { Scope } from '../store/port';
import { isAdmin } from './auth';
import { isScopeId } from './scope-id';
import type { Queryable } from './tenant-registry';

export const AUDIT_PATH = '/v1/audit';
export const AUDIT_PAGE_MAX = 1000;

export interface AuditRow {
  id: number;
  tenant_id: string;
  user_id: string;
  task_id: string | null;
  run_id: string | null;
  kind: string;
  host: string;
  bytes_out: number;
  bytes_in: number;
  status: number | null;
  at: string;
}

/** The sink a worker's requests report to: writes the event with who caused it (never awaited by the request). */
export function auditWriter(db: Queryable, onError: (err: unknown) => void, now: () => number = Date.now): (event: OutboundEvent, owner: OutboundOwner | null) => void {
  return (event, owner) => {
    // Outside any tenant's work (a worker's own) the row names no tenant: '' is kept visible, not dropped.
    const params = [owner?.tenant_id ?? '', owner?.user_id ?? '', owner?.task_id ?? null, owner?.run_id ?? null, event.kind, event.host, event.bytesOut, event.bytesIn, event.status, now()];
    db.query(
      'INSERT INTO audit_events (tenant_id, user_id, task_id, run_id, kind, host, bytes_out, bytes_in, status, at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)',
      params,
    ).catch(onError);
  };
}

/** Who a request's own outbound calls (a settings test, a probe) are charged to: its scope and the task it names. */
export function requestOwner(facts: { scope?: Scope; params?: Record<string, string> }): OutboundOwner | null {
  if (!facts.scope) return null;
  return { tenant_id: facts.scope.tenant_id, user_id: facts.scope.user_id, task_id: facts.params?.task_id ?? null, run_id: facts.params?.run_id ?? null };
}

class AuditForbiddenError extends FolioError {
  constructor() {
    super('forbidden', 'GET /v1/audit is for the platform: the X-Folio-User token needs the claim folio_admin: true', { name: 'AuditForbiddenError' });
  }
}

function one(query: Record<string, string | string[]>, name: string): string | undefined {
  const v = query[name];
  if (Array.isArray(v)) throw new ValidationError(`${name}: give it once`);
  return v;
}

/** `GET /v1/audit?after=<id>&limit=<n>&tenant_id=<id>`: oldest first, `next_after` pages on. */
export function auditRoute(db: Queryable) {
  return async (req: IncomingMessage, res: ServerResponse, scope: Scope, pathname: string, query: Record<string, string | string[]>): Promise<boolean> => {
    if (pathname !== AUDIT_PATH) return false;
    if (req.method !== 'GET') throw new FolioError('unsupported', 'GET only', { name: 'MethodNotAllowedError' });
    if (!isAdmin(scope)) throw new AuditForbiddenError();
    for (const key of Object.keys(query)) if (!['after', 'limit', 'tenant_id'].includes(key)) throw new ValidationError(`${key}: unknown parameter (after, limit, tenant_id)`);
    const after = Number(one(query, 'after') ?? '0');
    const limit = Number(one(query, 'limit') ?? '100');
    const tenant = one(query, 'tenant_id');
    if (!Number.isSafeInteger(after) || after < 0) throw new ValidationError('after: an event id (a whole number ≥ 0)');
    if (!Number.isSafeInteger(limit) || limit < 1 || limit > AUDIT_PAGE_MAX) throw new ValidationError(`limit: 1 to ${AUDIT_PAGE_MAX}`);
    if (tenant !== undefined && !isScopeId(tenant)) throw new ValidationError('tenant_id: 1-64 of A-Z a-z 0-9 _ -');
    const { rows } = (await db.query(
      `SELECT id, tenant_id, user_id, task_id, run_id, kind, host, bytes_out, bytes_in, status, at FROM audit_events
       WHERE id > $1 AND ($2::text IS NULL OR tenant_id = $2) ORDER BY id LIMIT $3`,
      [after, tenant ?? null, limit],
    )) as { rows: (Omit<AuditRow, 'at' | 'id' | 'bytes_out' | 'bytes_in'> & { id: string | number; at: string | number; bytes_out: string | number; bytes_in: string | number })[] };
    const events: AuditRow[] = rows.map((r) => ({ ...r, id: Number(r.id), bytes_out: Number(r.bytes_out), bytes_in: Number(r.bytes_in), at: new Date(Number(r.at)).toISOString() }));
    const body = JSON.stringify({ events, next_after: events.length === limit ? events[events.length - 1].id : null });
    res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' }).end(body);
    return true;
  };
}
