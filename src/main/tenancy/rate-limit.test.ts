import { describe, expect, it } from 'vitest';
import { RateLimitedError, createRateLimiter } from './rate-limit';

async function refusal(p: Promise<void>): Promise<RateLimitedError> {
  const error = await p.then(
    () => null,
    (err: unknown) => err,
  );
  expect(error).toBeInstanceOf(RateLimitedError);
  return error as RateLimitedError;
}

describe('per-tenant request rate limit', () => {
  it('lets a minute’s allowance through, then refuses with the seconds until the next request', async () => {
    let t = 0;
    const limiter = createRateLimiter({ defaultPerMinute: 3, now: () => t });
    for (let i = 0; i < 3; i++) await limiter.take('acme');
    const error = await refusal(limiter.take('acme'));
    expect(error.code).toBe('rate_limited');
    expect(error.retryAfterSeconds).toBe(20);
    t += 19_000;
    await refusal(limiter.take('acme'));
    t += 1_000;
    await limiter.take('acme');
  });

  it('keeps tenants independent', async () => {
    const limiter = createRateLimiter({ defaultPerMinute: 1, now: () => 0 });
    await limiter.take('a');
    await refusal(limiter.take('a'));
    await limiter.take('b');
  });

  it('uses a tenant’s own figure from the quota source, re-read after its time to live; null there is unlimited', async () => {
    let t = 0;
    // The source answers with the tenant's figure, defaults already applied (quotas' limitsFor).
    const figures = new Map<string, number | null>([['big', 5], ['small', 2], ['free', null]]);
    let reads = 0;
    const limiter = createRateLimiter({
      defaultPerMinute: 2,
      now: () => t,
      overrideTtlMs: 60_000,
      overrides: { requestsPerMinute: (id) => (reads++, Promise.resolve(figures.has(id) ? figures.get(id)! : 2)) },
    });
    for (let i = 0; i < 5; i++) await limiter.take('big');
    await refusal(limiter.take('big'));
    for (let i = 0; i < 2; i++) await limiter.take('small');
    await refusal(limiter.take('small'));
    const readsBefore = reads;
    await refusal(limiter.take('small'));
    expect(reads).toBe(readsBefore);
    figures.set('small', 100);
    t += 60_000;
    for (let i = 0; i < 50; i++) await limiter.take('small');
    // `folio quota set --requests-per-minute unlimited`: the tenant is not limited at all.
    for (let i = 0; i < 500; i++) await limiter.take('free');
  });

  it('limits nobody when the server default is unlimited, and refuses everything at 0', async () => {
    const open = createRateLimiter({ defaultPerMinute: null, now: () => 0 });
    for (let i = 0; i < 500; i++) await open.take('acme');
    const closed = createRateLimiter({ defaultPerMinute: 0, now: () => 0 });
    expect((await refusal(closed.take('acme'))).retryAfterSeconds).toBe(60);
  });
});
