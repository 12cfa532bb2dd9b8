// `folio quota get|set`: an operator sets a tenant's quotas in the team database and reads them
// back with their source (the tenant's own or the server's default) and the current use.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pgSkipReason } from '../../../testing/postgres/test-database';
import { findResourcesDir } from '../config/app-paths';
import { createPgQuotaTable } from '../quotas/limits';
import { createTeamTestDatabase, type TeamTestDatabase } from '../quotas/team-db.test-support';
import { quotaCommand } from './quota-command';

const skip = pgSkipReason();
if (skip) console.warn(`skipping the folio quota tests: ${skip}`);

async function run(argv: string[], env: Record<string, string | undefined> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await quotaCommand(argv, { env, out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/** The line of one quota in `get`'s table, its columns squeezed to single spaces. */
function line(out: string, option: string): string {
  return (out.split('\n').find((l) => l.trim().startsWith(`${option} `)) ?? '').trim().replace(/\s+/g, ' ');
}

describe.skipIf(skip !== null)('folio quota', () => {
  let db: TeamTestDatabase;
  beforeAll(async () => {
    db = await createTeamTestDatabase();
  });
  afterAll(async () => db?.close());

  it('sets a quota and shows it beside the defaults and the use', async () => {
    await db.pool.query(`INSERT INTO runs (id, tenant_id, status) VALUES ('r1', 'acme', 'running')`);
    await db.pool.query(`INSERT INTO usage_events (tenant_id, user_id, kind, prompt_tokens, completion_tokens, at) VALUES ('acme', 'alice', 'tokens', 1200, 34, $1)`, [Date.now()]);
    const env = { FOLIO_QUOTA_MAX_CONCURRENT_RUNS: '4' };

    const set = await run(['set', '--database', db.url, '--tenant', 'acme', '--tokens-per-month', '1000000', '--storage-bytes', 'unlimited'], env);
    expect(set.err).toBe('');
    expect(set.code).toBe(0);
    expect(line(set.out, 'tokens-per-month')).toBe('tokens-per-month 1,000,000 (tenant) used 1,234');
    expect(line(set.out, 'max-concurrent-runs')).toBe('max-concurrent-runs 4 (default) used 1');
    expect(line(set.out, 'storage-bytes')).toBe('storage-bytes unlimited (tenant) used 0');
    expect(line(set.out, 'upload-bytes')).toBe('upload-bytes unlimited (default)');
    expect(set.out).toMatch(/within 10 s/);
    expect(await createPgQuotaTable(db.pool).get('acme')).toEqual({ tokens_per_month: 1_000_000, storage_bytes: 'unlimited' });

    // The database from FOLIO_DATABASE_URL; "default" hands a quota back to the server.
    await run(['set', '--tenant', 'acme', '--tokens-per-month', 'default'], { ...env, FOLIO_DATABASE_URL: db.url });
    const get = await run(['get', '--tenant', 'acme'], { ...env, FOLIO_DATABASE_URL: db.url });
    expect(get.code).toBe(0);
    expect(line(get.out, 'tokens-per-month')).toBe('tokens-per-month unlimited (default) used 1,234');
    expect(line(get.out, 'storage-bytes')).toBe('storage-bytes unlimited (tenant) used 0');
    expect(get.out).toMatch(/^Quotas of tenant acme/);
  });

  it("shows the operator each user's use of the month, which no user of the tenant sees", async () => {
    const now = Date.now();
    await db.pool.query(
      `INSERT INTO usage_events (tenant_id, user_id, kind, prompt_tokens, completion_tokens, cost, bytes, at) VALUES
        ('umbrella', 'alice', 'tokens', 1000, 500, 0.25, 0, $1), ('umbrella', 'bob', 'tokens', 10, 2, 0.001, 0, $1),
        ('umbrella', 'bob', 'upload', 0, 0, 0, 4096, $1), ('hooli', 'gavin', 'tokens', 99, 1, 0, 0, $1)`,
      [now],
    );
    const get = await run(['get', '--database', db.url, '--tenant', 'umbrella']);
    expect(get.code).toBe(0);
    const users = get.out.split('\n').filter((l) => /^ {2}(alice|bob|gavin) /u.test(l)).map((l) => l.trim().replace(/\s+/g, ' '));
    expect(users).toEqual(['alice tokens 1,500 cost 0.2500 runs 0 uploaded 0 bytes', 'bob tokens 12 cost 0.0010 runs 0 uploaded 4,096 bytes']);
    expect((await run(['get', '--database', db.url, '--tenant', 'initech'])).out).toMatch(/No use by any user in \d{4}-\d{2}\./u);
  });

  it('shows the limits and the use the service enforces: its request-rate default, runs counted by live lease', async () => {
    await db.pool.query(`INSERT INTO runs (id, tenant_id, status) VALUES ('g1', 'initech', 'running'), ('g2', 'initech', 'running')`);
    // g2's worker died: its lease expired, so it no longer holds a slot in the service.
    await db.pool.query(
      `INSERT INTO run_leases (run_id, tenant_id, task_id, worker_id, heartbeat_at, expires_at) VALUES
        ('g1', 'initech', 't1', 'w1', 0, (extract(epoch from clock_timestamp()) * 1000)::bigint + 60000), ('g2', 'initech', 't1', 'w2', 0, 1)`,
    );
    const get = await run(['get', '--database', db.url, '--tenant', 'initech'], { FOLIO_REQUESTS_PER_MINUTE: '50', FOLIO_QUOTA_MAX_CONCURRENT_RUNS: '4' });
    expect(get.err).toBe('');
    expect(line(get.out, 'requests-per-minute')).toBe('requests-per-minute 50 (default)');
    expect(line(get.out, 'max-concurrent-runs')).toBe('max-concurrent-runs 4 (default) used 1');
  });

  it('refuses a bad value, a missing tenant or quota, and an unknown flag', async () => {
    await expect(run(['set', '--database', db.url, '--tenant', 'acme', '--upload-bytes', '5MB'])).rejects.toThrow(/--upload-bytes: expected a whole number/);
    await expect(run(['set', '--database', db.url, '--tenant', 'acme'])).rejects.toMatchObject({ key: 'quota.setNeedsOne' });
    expect((await run(['get', '--database', db.url])).code).toBe(1);
    expect((await run(['show', '--database', db.url, '--tenant', 'acme'])).code).toBe(1);
    const unknown = await run(['set', '--database', db.url, '--tenant', 'acme', '--tokens', '5']);
    expect(unknown.code).toBe(1);
    expect(unknown.err).toMatch(/Usage: folio quota/);
  });

  it('is a command of folio', () => {
    const root = findResourcesDir();
    const result = spawnSync(process.execPath, ['--import', 'tsx', join(root, 'src/main/cli/main.ts'), 'quota', 'set', '--database', db.url, '--tenant', 'globex', '--max-concurrent-runs', '2'], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, FOLIO_QUOTA_MAX_CONCURRENT_RUNS: '' },
      timeout: 60_000,
    });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(line(result.stdout, 'max-concurrent-runs')).toBe('max-concurrent-runs 2 (tenant) used 0');
  });
});
