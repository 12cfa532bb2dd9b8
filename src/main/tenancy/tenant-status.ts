// A tenant's standing: active or suspended (by the operator, `folio tenant suspend`), and its plan.
// Every worker reads it from the `tenants` row, trusting what it read for a few seconds only, so a
// suspension reaches every worker within that time and every request of the tenant gets a 403 that
// says why.
import { FolioError } from '../../shared/errors';
import type { Queryable } from './tenant-registry';

export const TENANT_STATUSES = ['active', 'suspended'] as const;
export type TenantStatus = (typeof TENANT_STATUSES)[number];

/** How long a worker trusts a tenant's status before reading it again. */
export const TENANT_STATUS_TTL_MS = 2000;

export class TenantSuspendedError extends FolioError {
  constructor(tenantId: string, reason: string | null) {
    super('forbidden', `Tenant ${tenantId} is suspended${reason ? `: ${reason}` : ''}. Its data is kept; ask the operator to reactivate it.`, { name: 'TenantSuspendedError' });
  }
}

export interface TenantGate {
  /** Throws TenantSuspendedError unless the tenant may be served. */
  check(tenantId: string): Promise<void>;
}

interface Row {
  status: TenantStatus;
  status_reason: string | null;
}

export function createPgTenantGate(db: Queryable, opts: { ttlMs?: number; now?: () => number } = {}): TenantGate {
  const ttl = opts.ttlMs ?? TENANT_STATUS_TTL_MS;
  const now = opts.now ?? Date.now;
  const cache = new Map<string, { row: Row | null; at: number }>();
  return {
    async check(tenantId) {
      let hit = cache.get(tenantId);
      if (!hit || now() - hit.at >= ttl) {
        const { rows } = (await db.query('SELECT status, status_reason FROM tenants WHERE id = $1', [tenantId])) as { rows: Row[] };
        hit = { row: rows[0] ?? null, at: now() };
        if (cache.size > 100_000) cache.clear();
        cache.set(tenantId, hit);
      }
      // A tenant not seen yet is created active on this request.
      if (hit.row?.status === 'suspended') throw new TenantSuspendedError(tenantId, hit.row.status_reason);
    },
  };
}
