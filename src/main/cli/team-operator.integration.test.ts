// What an operator does to a tenant holds on every worker: a suspended tenant is refused (403,
// saying why) by both workers, and one tenant's request rate is one bucket shared by the workers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pgSkipReason } from '../../../testing/postgres/test-database';
import { TENANT_STATUS_TTL_MS } from '../tenancy/tenant-status';
import { tenantCommand } from './tenant-command';
import { startTeamServer, type TeamServer } from './team-server.test-support';

const skip = pgSkipReason();
if (skip !== null) console.warn(`team operator tests skipped: ${skip}`);

async function tenant(argv: string[]): Promise<{ code: number; out: string }> {
  const out: string[] = [];
  const code = await tenantCommand(argv, { env: {}, out: (l) => out.push(l), err: (l) => out.push(l) });
  return { code, out: out.join('\n') };
}

describe.skipIf(skip !== null)('team service: operating a tenant across two workers', () => {
  let s: TeamServer;
  let second: Awaited<ReturnType<TeamServer['addWorker']>>;

  beforeAll(async () => {
    s = await startTeamServer(['acme', 'globex', 'wayne']);
    second = await s.addWorker();
  }, 60_000);
  afterAll(async () => {
    await s?.close();
  });

  it('refuses every request of a suspended tenant on both workers with a 403 naming the reason, and serves it again once activated', async () => {
    for (const as of [s.as, second.as]) expect((await as('acme', 'alice', '/v1/tasks')).status).toBe(200);
    const suspended = await tenant(['suspend', '--database', s.databaseUrl, '--tenant', 'acme', '--reason', 'invoice overdue']);
    expect(suspended).toMatchObject({ code: 0 });
    expect(suspended.out).toContain('Tenant acme is suspended');
    await new Promise((resolve) => setTimeout(resolve, TENANT_STATUS_TTL_MS + 100));
    for (const as of [s.as, second.as]) {
      for (const [path, init] of [['/v1/tasks', {}], ['/v1/tasks', { method: 'POST', json: { mode: 'general', title: 'x' } }], ['/v1/usage', {}]] as const) {
        const res = await as('acme', 'alice', path, init);
        expect(res.status).toBe(403);
        expect(await res.json()).toEqual({ error: { name: 'TenantSuspendedError', code: 'forbidden', message: 'Tenant acme is suspended: invoice overdue. Its data is kept; ask the operator to reactivate it.' } });
      }
      // Other tenants are served as before.
      expect((await as('globex', 'gina', '/v1/tasks')).status).toBe(200);
    }
    expect((await tenant(['show', '--database', s.databaseUrl, '--tenant', 'acme'])).out).toContain('Tenant acme: suspended (invoice overdue), plan default');
    await tenant(['activate', '--database', s.databaseUrl, '--tenant', 'acme']);
    await new Promise((resolve) => setTimeout(resolve, TENANT_STATUS_TTL_MS + 100));
    for (const as of [s.as, second.as]) expect((await as('acme', 'alice', '/v1/tasks')).status).toBe(200);
  }, 30_000);

  it("shares one tenant's request rate between the workers: 10 per minute in all, not 10 each", async () => {
    await s.setQuotas('wayne', { requests_per_minute: 10 });
    const statuses: number[] = [];
    for (let i = 0; i < 16; i++) statuses.push((await (i % 2 === 0 ? s.as : second.as)('wayne', 'bruce', '/v1/tasks')).status);
    expect(statuses.filter((c) => c === 200)).toHaveLength(10);
    expect(statuses.filter((c) => c === 429)).toHaveLength(6);
    const refused = await second.as('wayne', 'bruce', '/v1/tasks');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(6);
  });
});
