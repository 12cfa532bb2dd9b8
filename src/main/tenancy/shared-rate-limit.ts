// The per-tenant request rate shared by every worker: the same token bucket as rate-limit.ts, kept
// in PostgreSQL (`rate_buckets`) and taken in one statement on the database's clock, so N workers
// together admit a tenant's figure, not N times it.
import { RateLimitedError, type RateLimiter, type RequestQuotaSource } from './rate-limit';
import type { Queryable } from './tenant-registry';

export interface SharedRateLimiterOptions {
  db: Queryable;
  /** Without a quota source, every tenant's figure; null: unlimited. */
  defaultPerMinute: number | null;
  overrides?: RequestQuotaSource;
}

const NOW_MS = '(extract(epoch from clock_timestamp()) * 1000)::bigint';
// The bucket refilled up to now ($2: the tenant's figure per minute), never above a minute's worth.
const REFILLED = `LEAST($2::float8, b.tokens + GREATEST(0, ${NOW_MS} - b.refilled_at) * $2::float8 / 60000.0)`;

export function createSharedRateLimiter(opts: SharedRateLimiterOptions): RateLimiter {
  return {
    async take(tenantId) {
      const perMinute = opts.overrides ? await opts.overrides.requestsPerMinute(tenantId) : opts.defaultPerMinute;
      if (perMinute === null) return;
      if (perMinute === 0) throw new RateLimitedError(60);
      // The update only happens when a whole request is in the bucket: no row back means refused.
      const taken = (await opts.db.query(
        `INSERT INTO rate_buckets AS b (tenant_id, tokens, refilled_at) VALUES ($1, $2::float8 - 1, ${NOW_MS})
         ON CONFLICT (tenant_id) DO UPDATE SET tokens = ${REFILLED} - 1, refilled_at = ${NOW_MS}
         WHERE ${REFILLED} >= 1
         RETURNING tokens`,
        [tenantId, perMinute],
      )) as { rows: unknown[] };
      if (taken.rows.length > 0) return;
      const { rows } = (await opts.db.query(`SELECT ${REFILLED} AS tokens FROM rate_buckets b WHERE tenant_id = $1`, [tenantId, perMinute])) as { rows: { tokens: number }[] };
      const missing = 1 - (rows[0]?.tokens ?? 0);
      throw new RateLimitedError(Math.max(1, Math.ceil((missing * 60) / perMinute)));
    },
  };
}
