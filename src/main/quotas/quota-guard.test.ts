// Each quota hit and reported: a 429 `quota_exceeded` whose message names the quota, the limit,
// the use and the tenant; defaults against a tenant's override; the month's reset in UTC.
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { httpStatusForCode } from '../../shared/errors';
import { FolioError } from '../../shared/folio-error';
import { contract } from '../../shared/contract';
import { pgSkipReason } from '../../../testing/postgres/test-database';
import type { Scope } from '../store/port';
import { createMemoryQuotaTable, createPgQuotaTable, createQuotaLimits, UNLIMITED, type QuotaLimits, type QuotaTable } from './limits';
import { createPgLiveRunCounter, createQuotaGuard, formatCount, type QuotaGuard } from './quota-guard';
import { createTeamTestDatabase, type TeamTestDatabase } from './team-db.test-support';
import { tenantUsageAnswer } from './usage-answer';
import { createMemoryUsageLedger, createPgUsageLedger, type UsageLedger } from './usage-ledger';

const skip = pgSkipReason();
if (skip) console.warn(`skipping the PostgreSQL quota guard tests: ${skip}`);

const acme: Scope = { tenant_id: 'acme', user_id: 'alice' };
const globex: Scope = { tenant_id: 'globex', user_id: 'gina' };
const DEC_15 = Date.UTC(2026, 11, 15, 12);
const spend = (ledger: UsageLedger, scope: Scope, total: number) =>
  ledger.record(scope, { kind: 'tokens', task_id: 't_1', run_id: 'r_1', prompt_tokens: total - Math.floor(total / 4), completion_tokens: Math.floor(total / 4), cost: 0 });

async function refusal(check: Promise<unknown>): Promise<FolioError> {
  const error = await check.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(FolioError);
  expect((error as FolioError).code).toBe('quota_exceeded');
  expect(httpStatusForCode[(error as FolioError).code]).toBe(429);
  return error as FolioError;
}

interface World {
  guard: QuotaGuard;
  ledger: UsageLedger;
  table: QuotaTable;
  live: Map<string, number>;
  setClock(at: number): void;
}

function world(defaults: Partial<QuotaLimits>): World {
  let clock = DEC_15;
  const now = () => clock;
  const ledger = createMemoryUsageLedger({ now });
  const table = createMemoryQuotaTable();
  const live = new Map<string, number>();
  // TTL 0: every check sees the table as the test left it.
  const limits = createQuotaLimits({ defaults: { ...UNLIMITED, ...defaults }, table, ttlMs: 0, now });
  const guard = createQuotaGuard({ limits, ledger, liveRuns: { liveRuns: async (id) => live.get(id) ?? 0 }, now });
  return { guard, ledger, table, live, setClock: (at) => (clock = at) };
}

describe('quota guard', () => {
  it('formats counts the same on every machine', () => {
    expect(formatCount(1204331)).toBe('1,204,331');
    expect(formatCount(999)).toBe('999');
    expect(formatCount(1000)).toBe('1,000');
  });

  it("refuses a model call once the month's tokens reach the limit, saying when it resets", async () => {
    const w = world({ tokens_per_month: 1_000_000 });
    await spend(w.ledger, acme, 999_999);
    await expect(w.guard.beforeModelCall(acme)).resolves.toBeUndefined();
    await spend(w.ledger, acme, 204_332);
    const error = await refusal(w.guard.beforeModelCall(acme));
    expect(error.message).toBe('Tokens this month: 1,204,331 of 1,000,000 (tenant acme). The quota resets on 2027-01-01.');
    // A new run is refused up front rather than failing at its first model call.
    expect((await refusal(w.guard.beforeRunStart(acme))).message).toMatch(/^Tokens this month: 1,204,331 of 1,000,000/);
  });

  it('lets the model call that crosses the limit finish and stops the run before the next one', async () => {
    const w = world({ tokens_per_month: 1000 });
    const calls: string[] = [];
    let runError: FolioError | null = null;
    // A run's turns as the run manager drives them: check, call the model, record its usage.
    for (const used of [600, 600, 600]) {
      try {
        await w.guard.beforeModelCall(acme);
      } catch (e) {
        runError = e as FolioError;
        break;
      }
      calls.push(`call using ${used}`);
      await spend(w.ledger, acme, used);
    }
    expect(calls).toEqual(['call using 600', 'call using 600']);
    expect(runError?.code).toBe('quota_exceeded');
    expect(runError?.message).toBe('Tokens this month: 1,200 of 1,000 (tenant acme). The quota resets on 2027-01-01.');
  });

  it('starts counting again at midnight UTC on the first of the month', async () => {
    const w = world({ tokens_per_month: 100 });
    w.setClock(Date.UTC(2026, 10, 30, 23, 59, 59, 999));
    await spend(w.ledger, acme, 150);
    expect((await refusal(w.guard.beforeModelCall(acme))).message).toBe('Tokens this month: 150 of 100 (tenant acme). The quota resets on 2026-12-01.');
    w.setClock(Date.UTC(2026, 11, 1));
    await expect(w.guard.beforeModelCall(acme)).resolves.toBeUndefined();
  });

  it('applies the server default to every tenant and a tenant override over it', async () => {
    const w = world({ tokens_per_month: 1000 });
    await spend(w.ledger, acme, 2000);
    await spend(w.ledger, globex, 2000);
    await w.table.set('acme', { tokens_per_month: 5000 });
    await expect(w.guard.beforeModelCall(acme)).resolves.toBeUndefined();
    expect((await refusal(w.guard.beforeModelCall(globex))).message).toMatch(/^Tokens this month: 2,000 of 1,000 \(tenant globex\)/);

    await w.table.set('globex', { tokens_per_month: 'unlimited' });
    await expect(w.guard.beforeModelCall(globex)).resolves.toBeUndefined();
    await w.table.set('acme', { tokens_per_month: null });
    expect((await refusal(w.guard.beforeModelCall(acme))).message).toMatch(/^Tokens this month: 2,000 of 1,000 \(tenant acme\)/);
  });

  it('refuses a run beyond the concurrent runs of the tenant', async () => {
    const w = world({ max_concurrent_runs: 2 });
    w.live.set('acme', 1);
    w.live.set('globex', 5);
    await expect(w.guard.beforeRunStart(acme)).resolves.toBeUndefined();
    w.live.set('acme', 2);
    expect((await refusal(w.guard.beforeRunStart(acme))).message).toBe(
      'Concurrent runs: 2 of 2 (tenant acme). A new run can start when one of them finishes or is cancelled.',
    );
    await w.table.set('globex', { max_concurrent_runs: 10 });
    await expect(w.guard.beforeRunStart(globex)).resolves.toBeUndefined();
  });

  it('refuses an upload over the size limit, and one that would pass the storage limit', async () => {
    const w = world({ upload_bytes: 1_048_576, storage_bytes: 10_000 });
    expect((await refusal(w.guard.beforeUpload(acme, 2_097_152))).message).toBe(
      'Upload size: 2,097,152 bytes, over the limit of 1,048,576 bytes per upload (tenant acme).',
    );
    await w.ledger.record(acme, { kind: 'storage', bytes: 9_500 });
    await expect(w.guard.beforeUpload(acme, 500)).resolves.toBeUndefined();
    expect((await refusal(w.guard.beforeUpload(acme, 501))).message).toBe(
      'Storage: 9,500 of 10,000 bytes used (tenant acme); this upload of 501 bytes would pass the limit. Delete files to free space.',
    );
    expect(await w.guard.uploadAllowance(acme)).toBe(500);
    await w.ledger.record(acme, { kind: 'storage', bytes: -4_000 });
    await expect(w.guard.beforeUpload(acme, 501)).resolves.toBeUndefined();
    expect(await w.guard.uploadAllowance(acme)).toBe(4_500);
    expect(await w.guard.uploadAllowance(globex)).toBe(10_000);
    await w.table.set('globex', { storage_bytes: 'unlimited' });
    expect(await w.guard.uploadAllowance(globex)).toBe(1_048_576);
    await w.table.set('globex', { upload_bytes: 'unlimited' });
    expect(await w.guard.uploadAllowance(globex)).toBeNull();
    // Another tenant's storage is its own.
    await expect(w.guard.beforeUpload(globex, 9_999)).resolves.toBeUndefined();
  });

  it('charges an upload in the same step as its check, and gives back what was not stored', async () => {
    const w = world({ upload_bytes: 1000, storage_bytes: 1500 });
    expect((await refusal(w.guard.reserveUpload(acme, 1001))).message).toBe('Upload size: 1,001 bytes, over the limit of 1,000 bytes per upload (tenant acme).');
    const first = await w.guard.reserveUpload(acme, 900, 't_1');
    // Charged before a byte is written: a second upload meanwhile sees the space as taken.
    expect(await w.ledger.storedBytes('acme')).toBe(900);
    expect((await refusal(w.guard.reserveUpload(acme, 700))).message).toBe(
      'Storage: 900 of 1,500 bytes used (tenant acme); this upload of 700 bytes would pass the limit. Delete files to free space.',
    );
    await first.settle(0);
    expect(await w.ledger.storedBytes('acme')).toBe(0);
    await first.settle(0);
    expect(await w.ledger.storedBytes('acme')).toBe(0);
    const second = await w.guard.reserveUpload(acme, 700);
    await second.settle(400);
    expect(await w.ledger.storedBytes('acme')).toBe(400);
    const third = await w.guard.reserveUpload(acme, 1000);
    await third.settle(1000);
    expect(await w.ledger.storedBytes('acme')).toBe(1400);
  });

  it("gives the rate limiter each tenant's requests per minute, null when unlimited", async () => {
    const w = world({ requests_per_minute: 120 });
    await w.table.set('globex', { requests_per_minute: 10 });
    // The rate limiter takes the lookup as a bare function.
    const lookup: (tenantId: string) => Promise<number | null> = w.guard.requestsPerMinute;
    expect(await lookup('acme')).toBe(120);
    expect(await w.guard.requestsPerMinute('globex')).toBe(10);
    await w.table.set('globex', { requests_per_minute: 'unlimited' });
    expect(await w.guard.requestsPerMinute('globex')).toBeNull();
  });

  it("holds calls to the operator's models to the money budget, and no other call", async () => {
    const w = world({ cost_per_month: 0.05 });
    const platformCall = (cost: number) => w.ledger.record(acme, { kind: 'tokens', task_id: 't_1', run_id: 'r_1', prompt_tokens: 0, completion_tokens: 0, cost: 0, platform_cost: cost });
    await platformCall(0.03);
    await expect(w.guard.beforeModelCall(acme, { platform: true, currency: 'EUR' })).resolves.toBeUndefined();
    await platformCall(0.02);
    const error = await refusal(w.guard.beforeModelCall(acme, { platform: true, currency: 'EUR' }));
    expect(error.name).toBe('BudgetExceededError');
    expect(error.message).toBe(
      'Model budget this month: 0.05 of 0.05 EUR spent on the models the service provides (tenant acme). It resets on 2027-01-01; until then use a model with your own key, or ask the operator to raise cost_per_month.',
    );
    // The tenant's own model, and another tenant's calls, are not held to it.
    await expect(w.guard.beforeModelCall(acme, { platform: false })).resolves.toBeUndefined();
    await expect(w.guard.beforeModelCall(globex, { platform: true })).resolves.toBeUndefined();
    // A new month, a new budget.
    w.setClock(Date.UTC(2027, 0, 1));
    await expect(w.guard.beforeModelCall(acme, { platform: true })).resolves.toBeUndefined();
  });

  it('lists every quota with its limit and current use', async () => {
    const w = world({ tokens_per_month: 1000, upload_bytes: 50 });
    w.live.set('acme', 1);
    await spend(w.ledger, acme, 300);
    await w.ledger.record(acme, { kind: 'storage', bytes: 42 });
    expect(await w.guard.status('acme')).toEqual([
      { name: 'max_concurrent_runs', limit: null, used: 1 },
      { name: 'tokens_per_month', limit: 1000, used: 300 },
      { name: 'cost_per_month', limit: null, used: 0 },
      { name: 'storage_bytes', limit: null, used: 42 },
      { name: 'upload_bytes', limit: 50, used: null },
      { name: 'requests_per_minute', limit: null, used: null },
    ]);
  });
});

describe('GET /v1/usage in the team service', () => {
  it("answers the asking user's month with the tenant's quotas, in the contract's shape", async () => {
    const w = world({ tokens_per_month: 10_000 });
    await spend(w.ledger, acme, 400);
    await w.ledger.record({ tenant_id: 'acme', user_id: 'bob' }, { kind: 'tokens', task_id: 't_bob', run_id: 'r_b', prompt_tokens: 600, completion_tokens: 200, cost: 0.5 });
    await spend(w.ledger, globex, 5000);
    const input = contract.getUsage.input.parse({ period: '2026-12' });
    const answer = contract.getUsage.output.parse(
      await tenantUsageAnswer(acme, input, { ledger: w.ledger, guard: w.guard, taskTitles: async () => new Map([['t_1', 'Quarterly report']]) }),
    );
    expect(answer.tenant_id).toBe('acme');
    expect(answer.period?.label).toBe('2026-12');
    expect(answer.total).toEqual({ prompt_tokens: 300, completion_tokens: 100, cost: 0 });
    expect(answer.users?.map((u) => [u.user_id, u.prompt_tokens + u.completion_tokens])).toEqual([['alice', 400]]);
    expect(answer.tasks).toEqual([{ task_id: 't_1', title: 'Quarterly report', prompt_tokens: 300, completion_tokens: 100, cost: 0 }]);
    // Bob's id, task and spending appear nowhere; the tenant's total shows only as the quota's use.
    expect(JSON.stringify(answer)).not.toMatch(/bob|t_bob/);
    expect(answer.quotas?.find((q) => q.name === 'tokens_per_month')).toEqual({ name: 'tokens_per_month', limit: 10_000, used: 1200 });

    const november = await tenantUsageAnswer(acme, contract.getUsage.input.parse({ period: '2026-11' }), { ledger: w.ledger, guard: w.guard });
    expect(november.users).toEqual([]);
  });

  it('takes only a YYYY-MM period and keeps the desktop answer valid', () => {
    expect(contract.getUsage.input.safeParse({}).success).toBe(true);
    expect(contract.getUsage.input.safeParse({ period: '2026-13' }).success).toBe(false);
    expect(contract.getUsage.input.safeParse({ period: '2026-1' }).success).toBe(false);
    expect(contract.getUsage.input.safeParse({ month: '2026-11' }).success).toBe(false);
    expect(contract.getUsage.output.safeParse({ total: { prompt_tokens: 0, completion_tokens: 0, cost: 0 }, tasks: [] }).success).toBe(true);
  });
});

describe.skipIf(skip !== null)('quota guard on PostgreSQL', () => {
  let db: TeamTestDatabase;
  beforeAll(async () => {
    db = await createTeamTestDatabase();
  });
  afterAll(async () => db?.close());
  beforeEach(async () => {
    await db.pool.query('TRUNCATE runs, run_leases, usage_events, quotas');
  });

  it("counts a tenant's running runs only", async () => {
    await db.pool.query(
      `INSERT INTO runs (id, tenant_id, status) VALUES
        ('r1', 'acme', 'running'), ('r2', 'acme', 'running'), ('r3', 'acme', 'done'),
        ('r4', 'acme', 'interrupted'), ('r5', 'globex', 'running')`,
    );
    const counter = createPgLiveRunCounter(db.pool);
    expect(await counter.liveRuns('acme')).toBe(2);
    expect(await counter.liveRuns('globex')).toBe(1);
    expect(await counter.liveRuns('initech')).toBe(0);
  });

  it('refuses over quota from the quotas and usage_events tables', async () => {
    const now = () => DEC_15;
    const table = createPgQuotaTable(db.pool, now);
    const ledger = createPgUsageLedger(db.pool, { now });
    const guard = createQuotaGuard({
      limits: createQuotaLimits({ defaults: { ...UNLIMITED, max_concurrent_runs: 5 }, table, ttlMs: 0, now }),
      ledger,
      liveRuns: createPgLiveRunCounter(db.pool),
      now,
    });
    await table.set('acme', { tokens_per_month: 1000, max_concurrent_runs: 1 });
    await db.pool.query(`INSERT INTO runs (id, tenant_id, status) VALUES ('r1', 'acme', 'running'), ('r2', 'globex', 'running')`);
    expect((await refusal(guard.beforeRunStart(acme))).message).toMatch(/^Concurrent runs: 1 of 1 \(tenant acme\)/);
    await expect(guard.beforeRunStart(globex)).resolves.toBeUndefined();
    await spend(ledger, acme, 1000);
    expect((await refusal(guard.beforeModelCall(acme))).message).toBe('Tokens this month: 1,000 of 1,000 (tenant acme). The quota resets on 2027-01-01.');
    await expect(guard.beforeModelCall(globex)).resolves.toBeUndefined();
  });

  it('lets only one of two uploads at once take the last free storage, on two workers', async () => {
    const now = () => DEC_15;
    const table = createPgQuotaTable(db.pool, now);
    await table.set('acme', { storage_bytes: 1000 });
    // Two workers: each its own pool, limits and ledger over the one database.
    const pools = [new pg.Pool({ connectionString: db.url, max: 2 }), new pg.Pool({ connectionString: db.url, max: 2 })];
    try {
      const guards = pools.map((pool) =>
        createQuotaGuard({
          limits: createQuotaLimits({ defaults: UNLIMITED, table: createPgQuotaTable(pool, now), ttlMs: 0, now }),
          ledger: createPgUsageLedger(pool, { now }),
          liveRuns: createPgLiveRunCounter(pool),
          now,
        }),
      );
      for (let round = 0; round < 5; round++) {
        await db.pool.query('TRUNCATE usage_events');
        const outcomes = await Promise.allSettled(guards.map((guard) => guard.reserveUpload(acme, 600)));
        expect(outcomes.map((o) => o.status).sort()).toEqual(['fulfilled', 'rejected']);
        expect(await createPgUsageLedger(db.pool).storedBytes('acme')).toBe(600);
      }
    } finally {
      await Promise.all(pools.map((pool) => pool.end()));
    }
  });
});
