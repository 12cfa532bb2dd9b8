// Quota limits: the server's defaults from the environment and flags, a tenant's row over them
// (in PostgreSQL and in memory), and the brief cache every request goes through.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pgSkipReason } from '../../../testing/postgres/test-database';
import {
  createMemoryQuotaTable,
  createPgQuotaTable,
  createQuotaLimits,
  quotaDefaults,
  quotaEnvName,
  quotaServeFlags,
  resolveLimits,
  UNLIMITED,
  type QuotaOverrides,
  type QuotaTable,
} from './limits';
import { createTeamTestDatabase, type TeamTestDatabase } from './team-db.test-support';

const skip = pgSkipReason();
if (skip) console.warn(`skipping the PostgreSQL quota table tests: ${skip}`);

describe('server defaults', () => {
  it('are unlimited unless set, read FOLIO_QUOTA_* and let a --quota-* flag win', () => {
    expect(quotaDefaults({})).toEqual(UNLIMITED);
    expect(quotaEnvName('tokens_per_month')).toBe('FOLIO_QUOTA_TOKENS_PER_MONTH');
    expect(Object.keys(quotaServeFlags)).toContain('quota-tokens-per-month');
    const defaults = quotaDefaults(
      { FOLIO_QUOTA_TOKENS_PER_MONTH: '1000000', FOLIO_QUOTA_MAX_CONCURRENT_RUNS: '4', FOLIO_QUOTA_UPLOAD_BYTES: '' },
      { 'quota-max-concurrent-runs': '2', 'quota-storage-bytes': 'unlimited' },
    );
    expect(defaults).toEqual({ ...UNLIMITED, tokens_per_month: 1_000_000, max_concurrent_runs: 2 });
  });

  it('refuse a value that is not a whole number, naming where it came from', () => {
    expect(() => quotaDefaults({ FOLIO_QUOTA_STORAGE_BYTES: '10GB' })).toThrow(/FOLIO_QUOTA_STORAGE_BYTES: expected a whole number/);
    expect(() => quotaDefaults({}, { 'quota-requests-per-minute': '-1' })).toThrow(/--quota-requests-per-minute/);
  });

  it('take decimals for the money budget only', () => {
    expect(quotaDefaults({ FOLIO_QUOTA_COST_PER_MONTH: '12.50' })).toEqual({ ...UNLIMITED, cost_per_month: 12.5 });
    expect(() => quotaDefaults({ FOLIO_QUOTA_COST_PER_MONTH: '12,50' })).toThrow(/FOLIO_QUOTA_COST_PER_MONTH: expected an amount ≥ 0/);
    expect(() => quotaDefaults({ FOLIO_QUOTA_TOKENS_PER_MONTH: '12.5' })).toThrow(/expected a whole number/);
  });

  it('give way to a tenant override; "unlimited" lifts a default', () => {
    const defaults = { ...UNLIMITED, tokens_per_month: 1000, storage_bytes: 50 };
    expect(resolveLimits(defaults, { tokens_per_month: 5000, storage_bytes: 'unlimited', upload_bytes: 7 })).toEqual({
      ...UNLIMITED,
      tokens_per_month: 5000,
      storage_bytes: null,
      upload_bytes: 7,
    });
  });
});

describe('cached limits', () => {
  it('read the tenant row once per TTL, and again after invalidate', async () => {
    const table = createMemoryQuotaTable();
    let reads = 0;
    const counting: QuotaTable = {
      get: (id) => {
        reads += 1;
        return table.get(id);
      },
      set: (id, patch) => table.set(id, patch),
    };
    let clock = 0;
    const limits = createQuotaLimits({ defaults: { ...UNLIMITED, tokens_per_month: 100 }, table: counting, ttlMs: 1000, now: () => clock });
    await table.set('acme', { tokens_per_month: 200 });
    const [a, b] = await Promise.all([limits.limitsFor('acme'), limits.limitsFor('acme')]);
    expect(a.tokens_per_month).toBe(200);
    expect(b).toEqual(a);
    expect(reads).toBe(1);

    await table.set('acme', { tokens_per_month: 300 });
    clock = 999;
    expect((await limits.limitsFor('acme')).tokens_per_month).toBe(200);
    clock = 1000;
    expect((await limits.limitsFor('acme')).tokens_per_month).toBe(300);
    expect(reads).toBe(2);

    await table.set('acme', { tokens_per_month: null });
    limits.invalidate('acme');
    expect((await limits.limitsFor('acme')).tokens_per_month).toBe(100);
    expect(reads).toBe(3);
  });

  it('do not keep a failed read', async () => {
    let fail = true;
    const table: QuotaTable = {
      get: async () => {
        if (fail) throw new Error('connection reset');
        return {};
      },
      set: async () => {},
    };
    const limits = createQuotaLimits({ defaults: UNLIMITED, table, now: () => 0 });
    await expect(limits.limitsFor('acme')).rejects.toThrow('connection reset');
    fail = false;
    await expect(limits.limitsFor('acme')).resolves.toEqual(UNLIMITED);
  });
});

const tables: { name: string; skip: boolean; make: () => QuotaTable }[] = [
  { name: 'memory', skip: false, make: () => createMemoryQuotaTable() },
  { name: 'PostgreSQL', skip: skip !== null, make: () => createPgQuotaTable(pgDb!.pool) },
];
let pgDb: TeamTestDatabase | undefined;

beforeAll(async () => {
  if (skip === null) pgDb = await createTeamTestDatabase();
});
afterAll(async () => pgDb?.close());

for (const backend of tables) {
  describe.skipIf(backend.skip)(`tenant overrides (${backend.name})`, () => {
    it('set only the named quotas, keep the others, and go back to the default with null', async () => {
      const table = backend.make();
      const tenant = `acme_${backend.name}`;
      expect(await table.get(tenant)).toEqual({});
      await table.set(tenant, { tokens_per_month: 5000, max_concurrent_runs: 3 });
      await table.set(tenant, { storage_bytes: 'unlimited', max_concurrent_runs: 4 });
      expect(await table.get(tenant)).toEqual({ tokens_per_month: 5000, max_concurrent_runs: 4, storage_bytes: 'unlimited' } satisfies QuotaOverrides);
      await table.set(tenant, { tokens_per_month: null });
      expect(await table.get(tenant)).toEqual({ max_concurrent_runs: 4, storage_bytes: 'unlimited' });
      expect(await table.get(`other_${backend.name}`)).toEqual({});
    });
  });
}
