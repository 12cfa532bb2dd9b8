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

  it('uses a tenant’s own figure when the quota source has one, re-read after its time to live', async () => {
    let t = 0;
    const figures = new Map<string, number | null>([['big', 5], ['none', null]]);
    let reads = 0;
    const limiter = createRateLimiter({
      defaultPerMinute: 2,
      now: () => t,
      overrideTtlMs: 60_000,
      overrides: { requestsPerMinute: (id) => (reads++, Promise.resolve(figures.get(id) ?? null)) },
    });
    for (let i = 0; i < 5; i++) await limiter.take('big');
    await refusal(limiter.take('big'));
    for (let i = 0; i < 2; i++) await limiter.take('none');
    await refusal(limiter.take('none'));
    const readsBefore = reads;
    await refusal(limiter.take('none'));
    expect(reads).toBe(readsBefore);
    figures.set('none', 100);
    t += 60_000;
    for (let i = 0; i < 50; i++) await limiter.take('none');
  });
});
