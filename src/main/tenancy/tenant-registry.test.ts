import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, pgSkipReason } from '../../../testing/postgres/test-database';
import { TEAM_SCHEMA_SQL } from '../store/postgres/team-schema';
import { databaseAnswers } from './readiness';
import { createMemoryTenantRegistry, createPgTenantRegistry } from './tenant-registry';

describe('in-memory tenant registry', () => {
  it('remembers each scope once', async () => {
    const registry = createMemoryTenantRegistry();
    await registry.ensure({ tenant_id: 'a', user_id: 'u' });
    await registry.ensure({ tenant_id: 'a', user_id: 'u' });
    await registry.ensure({ tenant_id: 'a', user_id: 'v' });
    expect(registry.seen()).toEqual([{ tenant_id: 'a', user_id: 'u' }, { tenant_id: 'a', user_id: 'v' }]);
  });
});

const skip = pgSkipReason();
if (skip) console.warn(`skipping the PostgreSQL tenant registry tests: ${skip}`);

describe.skipIf(skip !== null)('PostgreSQL tenant registry', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let pool: pg.Pool;
  beforeAll(async () => {
    db = await createTestDatabase();
    pool = new pg.Pool({ connectionString: db.url, max: 4 });
    await pool.query(TEAM_SCHEMA_SQL);
  });
  afterAll(async () => {
    await pool?.end();
    await db?.drop();
  });

  it('creates tenants and users on first sight, once, and asks nothing for a known user', async () => {
    let queries = 0;
    const counting = { query: (sql: string, params?: unknown[]) => (queries++, pool.query(sql, params)) };
    const registry = createPgTenantRegistry(counting, { now: () => 1234 });
    await Promise.all([registry.ensure({ tenant_id: 'acme', user_id: 'alice' }), registry.ensure({ tenant_id: 'acme', user_id: 'alice' })]);
    expect(queries).toBe(2);
    await registry.ensure({ tenant_id: 'acme', user_id: 'alice' });
    expect(queries).toBe(2);
    await registry.ensure({ tenant_id: 'acme', user_id: 'bob' });
    // A second worker (its own cache) meets rows that already exist.
    await createPgTenantRegistry(pool).ensure({ tenant_id: 'acme', user_id: 'alice' });
    const tenants = await pool.query<{ id: string; created_at: string }>('SELECT id, created_at FROM tenants');
    const users = await pool.query<{ id: string }>("SELECT id FROM users WHERE tenant_id = 'acme' ORDER BY id");
    expect(tenants.rows).toEqual([{ id: 'acme', created_at: '1234' }]);
    expect(users.rows.map((r) => r.id)).toEqual(['alice', 'bob']);
  });

  it('reports the database ready while it answers, and not once it is gone', async () => {
    expect(await databaseAnswers(pool)()).toBe(true);
    const gone = new pg.Pool({ connectionString: db.url.replace(/:\d+\//, ':1/'), connectionTimeoutMillis: 1000 });
    try {
      expect(await databaseAnswers(gone)()).toBe(false);
    } finally {
      await gone.end();
    }
  });
});
