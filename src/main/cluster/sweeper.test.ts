// The sweeper's transaction handling without a database: a client it cannot roll back is not reused.
import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { Sweeper } from './leases';

describe('Sweeper', () => {
  it('destroys a client whose ROLLBACK failed instead of returning it to the pool mid-transaction', async () => {
    const released: unknown[] = [];
    const client = {
      query: (sql: string) => {
        if (sql === 'BEGIN') return Promise.resolve({ rows: [] });
        if (sql === 'ROLLBACK') return Promise.reject(new Error('rollback failed'));
        return Promise.reject(new Error('the take failed'));
      },
      release: (err?: unknown) => released.push(err),
    };
    const pool = { connect: () => Promise.resolve(client), query: () => Promise.resolve({ rows: [] }) } as unknown as pg.Pool;
    await expect(new Sweeper(pool).sweep()).rejects.toThrow('the take failed');
    expect(released).toHaveLength(1);
    expect(released[0]).toBeInstanceOf(Error);
  });
});
