// The concurrent-runs cap across workers: each worker checks the tenant's live runs and writes its
// new `running` row in one transaction under the tenant's lock in PostgreSQL. Here two workers are
// two pools and two copies of the run-manager module (its start queue is per process, so it cannot
// be what keeps them apart), and the quota check is slow, so starts on both overlap: without the
// database lock both would count the same free slot.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { FinishReason, RunEventBody } from '../../shared/contract';
import { createTestDatabase, pgSkipReason } from '../../../testing/postgres/test-database';
import { leasedRunCounter } from '../cluster/leases';
import { UNLIMITED } from '../quotas/limits';
import { createTeamQuotas } from '../quotas/team-quotas';
import { openPgStore, type PgBackend } from '../store/postgres';
import type { Scope } from '../store/port';
import type { RunDriverContext, RunManager as RunManagerClass } from './run-manager';

const skip = pgSkipReason();
if (skip !== null) console.warn(`concurrent-cap tests skipped: ${skip}`);

const scope: Scope = { tenant_id: 'tyrell', user_id: 'eldon' };

/** A run that waits until it is cancelled. */
async function* waitForCancel(ctx: RunDriverContext): AsyncGenerator<RunEventBody, FinishReason> {
  await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve(), { once: true }));
  return 'cancelled';
}

describe.skipIf(skip !== null)('concurrent-runs cap shared through PostgreSQL', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  const backends: PgBackend[] = [];
  const managers: RunManagerClass[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
    for (let i = 0; i < 2; i++) backends.push(await openPgStore(db.url, { poolSize: 4 }));
  }, 30_000);
  afterAll(async () => {
    for (const m of managers) await m.shutdown();
    for (const b of backends) await b.close();
    await db?.drop();
  });

  async function worker(backend: PgBackend): Promise<RunManagerClass> {
    vi.resetModules();
    const { RunManager } = await import('./run-manager');
    const quotas = createTeamQuotas({ db: backend.pool, defaults: { ...UNLIMITED, max_concurrent_runs: 3 }, liveRuns: leasedRunCounter(backend.pool) });
    const manager = new RunManager(backend.scope(scope), waitForCancel, {
      beforeStart: async () => {
        await quotas.guard.beforeRunStart(scope);
        // A slow check: the other worker's start comes while this one has counted and not yet written.
        await new Promise((resolve) => setTimeout(resolve, 150));
      },
    });
    managers.push(manager);
    return manager;
  }

  it('lets exactly three of eight runs started at once on two workers begin, and the rest fail naming the quota', async () => {
    const [a, b] = [await worker(backends[0]), await worker(backends[1])];
    const store = backends[0].scope(scope);
    const tasks: string[] = [];
    for (let i = 0; i < 8; i++) {
      tasks.push(`t_cap${i}`);
      await store.tasks.create({ id: `t_cap${i}`, mode: 'general', title: `cap ${i}`, description: '', model: null });
    }
    const results = await Promise.allSettled(tasks.map((id, i) => (i % 2 === 0 ? a : b).start(id, { userMessage: 'go', model: null, brought: null })));
    const started = results.filter((r) => r.status === 'fulfilled');
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(started).toHaveLength(3);
    for (const r of refused) expect(String((r.reason as Error).message)).toContain('Concurrent runs: 3 of 3 (tenant tyrell)');
    const { rows } = await backends[0].pool.query<{ n: string }>("SELECT count(*) AS n FROM runs WHERE tenant_id = $1 AND status = 'running'", [scope.tenant_id]);
    expect(Number(rows[0].n)).toBe(3);
  }, 30_000);
});
