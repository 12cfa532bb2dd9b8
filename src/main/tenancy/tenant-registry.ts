// "Tenants and users are created on first sight of a valid token": the platform owns who exists,
// Folio only records whom it has seen (for foreign keys, usage and quotas). A scope seen once by
// this process costs no further query.
import type { Scope } from '../store/port';

export interface TenantRegistry {
  ensure(scope: Scope): Promise<void>;
}

/** What the PostgreSQL registry needs of a pool: `pg.Pool` and `pg.Client` both fit. */
export interface Queryable {
  query(sql: string, params?: unknown[]): Promise<unknown>;
}

/** A bound on remembered scopes, so a flood of distinct valid tokens cannot grow memory forever. */
const MAX_CACHED_SCOPES = 100_000;

const keyOf = (scope: Scope) => `${scope.tenant_id}\u0000${scope.user_id}`;

export function createPgTenantRegistry(db: Queryable, opts: { now?: () => number; maxCached?: number } = {}): TenantRegistry {
  const now = opts.now ?? Date.now;
  const maxCached = opts.maxCached ?? MAX_CACHED_SCOPES;
  const known = new Set<string>();
  // Concurrent first requests of one person share one round of inserts.
  const pending = new Map<string, Promise<void>>();
  return {
    ensure(scope) {
      const key = keyOf(scope);
      if (known.has(key)) return Promise.resolve();
      const inFlight = pending.get(key);
      if (inFlight) return inFlight;
      const created = (async () => {
        const at = now();
        await db.query('INSERT INTO tenants (id, created_at) VALUES ($1, $2) ON CONFLICT DO NOTHING', [scope.tenant_id, at]);
        await db.query('INSERT INTO users (tenant_id, id, created_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING', [scope.tenant_id, scope.user_id, at]);
        if (known.size >= maxCached) known.clear();
        known.add(key);
      })().finally(() => pending.delete(key));
      pending.set(key, created);
      return created;
    },
  };
}

/** SQLite / desktop: nothing to create (the one tenant and user are `local`), but the seen set is kept for tests and logs. */
export function createMemoryTenantRegistry(): TenantRegistry & { seen(): Scope[] } {
  const seen = new Map<string, Scope>();
  return {
    ensure(scope) {
      seen.set(keyOf(scope), { ...scope });
      return Promise.resolve();
    },
    seen: () => [...seen.values()],
  };
}
