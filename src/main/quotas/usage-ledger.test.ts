// The usage ledger, the same tests against PostgreSQL (`usage_events`) and memory: per-user and
// per-task totals for a month in UTC, storage as a level, tenants kept apart, rows only appended.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { pgSkipReason } from '../../../testing/postgres/test-database';
import type { Scope } from '../store/port';
import { createTeamTestDatabase, type TeamTestDatabase } from './team-db.test-support';
import { createMemoryUsageLedger, createPgUsageLedger, type UsageLedger } from './usage-ledger';
import { monthOf } from './usage-period';

const skip = pgSkipReason();
if (skip) console.warn(`skipping the PostgreSQL usage ledger tests: ${skip}`);

const alice: Scope = { tenant_id: 'acme', user_id: 'alice' };
const bob: Scope = { tenant_id: 'acme', user_id: 'bob' };
const globexAlice: Scope = { tenant_id: 'globex', user_id: 'alice' };

const DEC_1 = Date.UTC(2026, 11, 1);
const tokens = (prompt: number, completion: number, cost: number, task_id = 't_report') =>
  ({ kind: 'tokens', task_id, run_id: 'r_1', prompt_tokens: prompt, completion_tokens: completion, cost }) as const;

interface Backend {
  name: string;
  skip: boolean;
  setUp?: () => Promise<void>;
  tearDown?: () => Promise<void>;
  /** A ledger over an empty table, reading the given clock. */
  fresh: (now: () => number) => Promise<UsageLedger>;
}

let pgDb: TeamTestDatabase | undefined;
const backends: Backend[] = [
  { name: 'memory', skip: false, fresh: async (now) => createMemoryUsageLedger({ now }) },
  {
    name: 'PostgreSQL',
    skip: skip !== null,
    setUp: async () => {
      pgDb = await createTeamTestDatabase();
    },
    tearDown: async () => pgDb?.close(),
    fresh: async (now) => {
      // Test set-up only: the ledger itself has no way to remove rows.
      await pgDb!.pool.query('TRUNCATE usage_events');
      return createPgUsageLedger(pgDb!.pool, { now });
    },
  },
];

for (const backend of backends) {
  describe.skipIf(backend.skip)(`usage ledger (${backend.name})`, () => {
    let clock = DEC_1;
    let ledger: UsageLedger;
    beforeAll(async () => backend.setUp?.());
    afterAll(async () => backend.tearDown?.());
    beforeEach(async () => {
      clock = DEC_1 + 3_600_000;
      ledger = await backend.fresh(() => clock);
    });

    it('reports the tenant totals, each user and each task for this month, most expensive first', async () => {
      await ledger.record(alice, tokens(1000, 200, 0.01, 't_a'));
      await ledger.record(bob, tokens(5000, 1000, 0.05, 't_b'));
      await ledger.record(alice, tokens(300, 100, 0.004, 't_b'));
      await ledger.record(alice, { kind: 'upload', task_id: 't_a', bytes: 4096 });
      await ledger.record(bob, { kind: 'run', task_id: 't_b', run_id: 'r_2' });
      await ledger.record(bob, { kind: 'run', task_id: 't_b', run_id: 'r_3' });

      const report = await ledger.report(alice);
      expect(report.tenant_id).toBe('acme');
      expect(report.period).toEqual({ label: '2026-12', since: DEC_1, until: Date.UTC(2027, 0, 1) });
      expect(report.total).toMatchObject({ prompt_tokens: 6300, completion_tokens: 1300, upload_bytes: 4096, runs: 2 });
      expect(report.total.cost).toBeCloseTo(0.064, 10);
      expect(report.users.map((u) => u.user_id)).toEqual(['bob', 'alice']);
      expect(report.users[1]).toMatchObject({ user_id: 'alice', prompt_tokens: 1300, completion_tokens: 300, upload_bytes: 4096, runs: 0 });
      expect(report.users[1].cost).toBeCloseTo(0.014, 10);
      expect(report.users[0]).toMatchObject({ user_id: 'bob', prompt_tokens: 5000, completion_tokens: 1000, runs: 2 });
      expect(report.tasks.map((t) => [t.task_id, t.prompt_tokens, t.completion_tokens])).toEqual([
        ['t_b', 5300, 1100],
        ['t_a', 1000, 200],
      ]);
    });

    it('closes the month at midnight UTC: the last millisecond of November is not December', async () => {
      clock = DEC_1 - 1;
      await ledger.record(alice, tokens(700, 0, 0));
      clock = DEC_1;
      await ledger.record(alice, tokens(40, 2, 0));

      const december = await ledger.report(alice);
      expect(december.period.label).toBe('2026-12');
      expect(december.total.prompt_tokens).toBe(40);
      const november = await ledger.report(alice, { month: '2026-11' });
      expect(november.period).toEqual({ label: '2026-11', since: Date.UTC(2026, 10, 1), until: DEC_1 });
      expect(november.total.prompt_tokens).toBe(700);
      expect(await ledger.tokensUsed('acme', monthOf(clock))).toBe(42);
      expect(await ledger.tokensUsed('acme', monthOf(DEC_1 - 1))).toBe(700);
      // A range in ms covers both sides of the boundary.
      const range = await ledger.report(alice, { since: DEC_1 - 10, until: DEC_1 + 10 });
      expect(range.total.prompt_tokens).toBe(740);
    });

    it("reports one user's own rows alone when asked, with the tenant's stored bytes", async () => {
      await ledger.record(alice, tokens(1000, 200, 0.01, 't_a'));
      await ledger.record(bob, tokens(5000, 1000, 0.05, 't_b'));
      await ledger.record(bob, { kind: 'upload', task_id: 't_b', bytes: 4096 });
      await ledger.record(bob, { kind: 'storage', task_id: 't_b', bytes: 4096 });
      await ledger.record(alice, { kind: 'run', task_id: 't_a', run_id: 'r_2' });

      const own = await ledger.report(alice, undefined, { onlyUser: true });
      expect(own.users).toEqual([{ user_id: 'alice', prompt_tokens: 1000, completion_tokens: 200, cost: 0.01, upload_bytes: 0, runs: 1 }]);
      expect(own.tasks.map((t) => t.task_id)).toEqual(['t_a']);
      expect(own.total).toEqual({ prompt_tokens: 1000, completion_tokens: 200, cost: 0.01, upload_bytes: 0, runs: 1 });
      expect(own.storage_bytes).toBe(4096);
      expect((await ledger.report(alice)).users.map((u) => u.user_id)).toEqual(['bob', 'alice']);
    });

    it('keeps two tenants apart, even with a user id they share', async () => {
      await ledger.record(alice, tokens(100, 10, 0.1));
      await ledger.record(globexAlice, tokens(9000, 900, 9));
      await ledger.record(globexAlice, { kind: 'storage', bytes: 5000 });
      await ledger.record(alice, { kind: 'storage', bytes: 70 });

      const acme = await ledger.report(alice);
      const globex = await ledger.report(globexAlice);
      expect(acme.users).toEqual([{ user_id: 'alice', prompt_tokens: 100, completion_tokens: 10, cost: 0.1, upload_bytes: 0, runs: 0 }]);
      expect(globex.users).toEqual([{ user_id: 'alice', prompt_tokens: 9000, completion_tokens: 900, cost: 9, upload_bytes: 0, runs: 0 }]);
      expect(acme.storage_bytes).toBe(70);
      expect(globex.storage_bytes).toBe(5000);
      expect(await ledger.report({ tenant_id: 'initech', user_id: 'alice' })).toMatchObject({ users: [], tasks: [], storage_bytes: 0, total: { prompt_tokens: 0, cost: 0 } });
    });

    it('counts storage as a level: bytes added and freed in any month sum to what is stored now', async () => {
      clock = Date.UTC(2026, 9, 15);
      await ledger.record(alice, { kind: 'storage', task_id: 't_a', bytes: 1000 });
      clock = DEC_1 + 5;
      await ledger.record(bob, { kind: 'storage', task_id: 't_b', bytes: 500 });
      await ledger.record(alice, { kind: 'storage', task_id: 't_a', bytes: -300 });

      const report = await ledger.report(alice);
      expect(report.storage_bytes).toBe(1200);
      // Storage rows are not usage of a user in the period: nobody appears for them alone.
      expect(report.users).toEqual([]);
      expect(await ledger.storedBytes('acme')).toBe(1200);
      expect(await ledger.tokensUsed('acme', monthOf(clock))).toBe(0);
    });

    it('refuses a malformed event and records nothing for it', async () => {
      await expect(ledger.record(alice, tokens(-1, 0, 0))).rejects.toMatchObject({ code: 'invalid_input' });
      await expect(ledger.record(alice, tokens(1.5, 0, 0))).rejects.toMatchObject({ code: 'invalid_input' });
      await expect(ledger.record(alice, tokens(1, 0, Number.NaN))).rejects.toMatchObject({ code: 'invalid_input' });
      await expect(ledger.record(alice, { kind: 'upload', bytes: -5 })).rejects.toMatchObject({ code: 'invalid_input' });
      expect((await ledger.report(alice)).users).toEqual([]);
    });

    it('charges storage only within the limit, and of many charges at once lets only those that fit', async () => {
      await ledger.record(alice, { kind: 'storage', bytes: 400 });
      expect(await ledger.chargeStorage(alice, { task_id: 't_a', bytes: 700 }, 1000)).toEqual({ charged: false, stored: 400 });
      expect(await ledger.chargeStorage(alice, { task_id: 't_a', bytes: 600 }, 1000)).toEqual({ charged: true });
      expect(await ledger.storedBytes('acme')).toBe(1000);
      expect(await ledger.chargeStorage(bob, { bytes: 5000 }, null)).toEqual({ charged: true });
      expect(await ledger.chargeStorage(globexAlice, { bytes: 1000 }, 1000)).toEqual({ charged: true });

      // Ten uploads of 300 at once on 1,000 free bytes: three fit, whichever they are.
      const results = await Promise.all(Array.from({ length: 10 }, () => ledger.chargeStorage(bob, { bytes: 300 }, 7000)));
      expect(results.filter((r) => r.charged)).toHaveLength(3);
      expect(await ledger.storedBytes('acme')).toBe(6900);
    });

    it('only appends: the ledger has no method that changes or removes a row', () => {
      expect(Object.keys(ledger).sort()).toEqual(['chargeStorage', 'platformCost', 'record', 'report', 'storedBytes', 'taskStoredBytes', 'tokensUsed']);
    });
  });
}

describe.skipIf(skip !== null)('usage ledger in usage_events', () => {
  let db: TeamTestDatabase;
  beforeAll(async () => {
    db = await createTeamTestDatabase();
  });
  afterAll(async () => db?.close());

  it('writes one new row per event and leaves earlier rows as they were', async () => {
    let clock = DEC_1;
    const ledger = createPgUsageLedger(db.pool, { now: () => clock });
    await ledger.record(alice, tokens(10, 1, 0.5, 't_a'));
    const { rows: before } = await db.pool.query('SELECT * FROM usage_events ORDER BY id');
    clock += 1000;
    await ledger.record(alice, tokens(20, 2, 0.25, 't_a'));
    await ledger.record(globexAlice, { kind: 'run', task_id: 't_g', run_id: 'r_g' });
    const { rows: after } = await db.pool.query('SELECT * FROM usage_events ORDER BY id');
    expect(after).toHaveLength(3);
    expect(after[0]).toEqual(before[0]);
    expect(after.map((r: { tenant_id: string; kind: string }) => [r.tenant_id, r.kind])).toEqual([
      ['acme', 'tokens'],
      ['acme', 'tokens'],
      ['globex', 'run'],
    ]);
  });

  it('has no SQL that updates or deletes a usage row', () => {
    const source = readFileSync(new URL('./usage-ledger.ts', import.meta.url), 'utf8');
    expect(source).not.toMatch(/\b(UPDATE|DELETE|TRUNCATE)\b/);
  });
});
