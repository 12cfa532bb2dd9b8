import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { pgSkipReason } from '../../../testing/postgres/test-database';
import { createTeamTestDatabase, type TeamTestDatabase } from '../quotas/team-db.test-support';
import { DB_NOW_MS } from './host';
import { leasedRunCounter } from './leases';

const skip = pgSkipReason();
if (skip) console.warn(`skipping the leased run counter tests: ${skip}`);

describe.skipIf(skip !== null)('leasedRunCounter (the concurrent-runs quota in the team service)', () => {
  let db: TeamTestDatabase;
  beforeAll(async () => {
    db = await createTeamTestDatabase();
  });
  afterAll(async () => {
    vi.useRealTimers();
    await db?.close();
  });

  const lease = (runId: string, tenant: string, worker: string, expiresInMs: number) =>
    db.pool.query(
      `INSERT INTO run_leases (run_id, tenant_id, task_id, worker_id, heartbeat_at, expires_at) VALUES ($1, $2, 't1', $3, ${DB_NOW_MS}, ${DB_NOW_MS} + $4)`,
      [runId, tenant, worker, expiresInMs],
    );

  it("counts a tenant's running runs whose lease has not expired, and those not leased yet", async () => {
    await db.pool.query(
      `INSERT INTO runs (id, tenant_id, status) VALUES
        ('r1', 'acme', 'running'), ('r2', 'acme', 'running'), ('r3', 'globex', 'running'), ('r4', 'acme', 'running'), ('r5', 'acme', 'cancelled')`,
    );
    await lease('r1', 'acme', 'w1', 60_000);
    // w2 stopped renewing: its run no longer holds a slot, though no sweeper has marked it yet.
    await lease('r2', 'acme', 'w2', -1);
    await lease('r3', 'globex', 'w1', 60_000);
    // r4 has no lease yet (it was just created); r5 ended and its lease is about to be freed.
    await lease('r5', 'acme', 'w1', 60_000);
    const counter = leasedRunCounter(db.pool);
    expect(await counter.liveRuns('acme')).toBe(2);
    expect(await counter.liveRuns('globex')).toBe(1);
    expect(await counter.liveRuns('initech')).toBe(0);
  });

  it("judges expiry on PostgreSQL's clock, not on a worker's skewed one", async () => {
    await db.pool.query(`INSERT INTO runs (id, tenant_id, status) VALUES ('s1', 'skew', 'running'), ('s2', 'skew', 'running')`);
    await lease('s1', 'skew', 'w1', 60_000);
    await lease('s2', 'skew', 'w1', -1);
    const counter = leasedRunCounter(db.pool);
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      // This worker's clock is an hour ahead (then behind): the live lease still counts, the expired one does not.
      vi.setSystemTime(Date.now() + 3_600_000);
      expect(await counter.liveRuns('skew')).toBe(1);
      vi.setSystemTime(Date.now() - 7_200_000);
      expect(await counter.liveRuns('skew')).toBe(1);
    } finally {
      vi.useRealTimers();
    }
  });
});
