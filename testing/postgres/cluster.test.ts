import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { createTestDatabase, pgSkipReason } from './test-database';

const skip = pgSkipReason();
if (skip) console.warn(`skipping PostgreSQL tests: ${skip}`);

describe.skipIf(skip !== null)('throwaway PostgreSQL cluster', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => db?.drop());

  it('gives each test file an empty database it can write to', async () => {
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      await client.query('CREATE TABLE t (x int)');
      await client.query('INSERT INTO t VALUES (41), (1)');
      const { rows } = await client.query<{ s: string }>('SELECT sum(x) AS s FROM t');
      expect(Number(rows[0].s)).toBe(42);
      const { rows: v } = await client.query<{ server_version_num: string }>('SHOW server_version_num');
      expect(Number(v[0].server_version_num)).toBeGreaterThanOrEqual(150000);
    } finally {
      await client.end();
    }
  });
});
