// A per-tenant request rate limit: a token bucket per tenant holding up to a minute's allowance,
// refilled continuously, so a tenant may burst up to its per-minute figure and then gets one
// request every 60/limit seconds. These buckets live in the worker (SQLite: one worker); with a
// database every worker takes from one shared bucket instead (shared-rate-limit.ts).
import { FolioError } from '../../shared/errors';

export class RateLimitedError extends FolioError {
  /** Whole seconds until one request will be accepted again (the `Retry-After` header). */
  readonly retryAfterSeconds: number;
  constructor(retryAfterSeconds: number) {
    super('rate_limited', `Too many requests for this tenant; retry in ${retryAfterSeconds} s`, { name: 'RateLimitedError' });
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/**
 * A tenant's figure with the server's default already applied (the quotas' `limitsFor`: its
 * `quotas.requests_per_minute` row over `--requests-per-minute`); null means unlimited.
 */
export interface RequestQuotaSource {
  requestsPerMinute(tenantId: string): Promise<number | null>;
}

export interface RateLimiter {
  /** Takes one request from the tenant's bucket, or throws `RateLimitedError`. */
  take(tenantId: string): Promise<void>;
}

export interface RateLimiterOptions {
  /** Without a quota source, every tenant's figure; null: unlimited. */
  defaultPerMinute: number | null;
  overrides?: RequestQuotaSource;
  /** How long a tenant's figure is trusted before it is read again. */
  overrideTtlMs?: number;
  now?: () => number;
  maxTenants?: number;
}

interface Bucket {
  tokens: number;
  at: number;
  /** null: unlimited. */
  perMinute: number | null;
  perMinuteReadAt: number;
}

export function createRateLimiter(opts: RateLimiterOptions): RateLimiter {
  const now = opts.now ?? Date.now;
  const ttl = opts.overrideTtlMs ?? 60_000;
  const maxTenants = opts.maxTenants ?? 100_000;
  const buckets = new Map<string, Bucket>();

  async function perMinuteFor(tenantId: string, bucket: Bucket | undefined, t: number): Promise<number | null> {
    if (bucket && t - bucket.perMinuteReadAt < ttl) return bucket.perMinute;
    if (!opts.overrides) return opts.defaultPerMinute;
    return opts.overrides.requestsPerMinute(tenantId);
  }

  return {
    async take(tenantId) {
      let bucket = buckets.get(tenantId);
      const perMinute = await perMinuteFor(tenantId, bucket, now());
      const t = now();
      bucket = buckets.get(tenantId);
      if (!bucket) {
        if (buckets.size >= maxTenants) evictFull(buckets, t, maxTenants);
        bucket = { tokens: perMinute ?? 0, at: t, perMinute, perMinuteReadAt: t };
        buckets.set(tenantId, bucket);
      } else if (bucket.perMinute !== perMinute || t - bucket.perMinuteReadAt >= ttl) {
        bucket.perMinute = perMinute;
        bucket.perMinuteReadAt = t;
      }
      if (bucket.perMinute === null) return;
      // A figure of 0 admits nothing; a minute is as good a time to ask again as any.
      if (bucket.perMinute === 0) throw new RateLimitedError(60);
      const ratePerMs = bucket.perMinute / 60_000;
      bucket.tokens = Math.min(bucket.perMinute, bucket.tokens + (t - bucket.at) * ratePerMs);
      bucket.at = t;
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1;
        return;
      }
      throw new RateLimitedError(Math.max(1, Math.ceil((1 - bucket.tokens) / ratePerMs / 1000)));
    },
  };
}

/** Buckets that have refilled completely carry no state worth keeping; drop them first, else all. */
function evictFull(buckets: Map<string, Bucket>, t: number, maxTenants: number): void {
  for (const [id, b] of buckets) if (b.perMinute === null || b.tokens + ((t - b.at) * b.perMinute) / 60_000 >= b.perMinute) buckets.delete(id);
  if (buckets.size >= maxTenants) buckets.clear();
}
