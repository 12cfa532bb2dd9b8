// The part of a PostgreSQL connection the quota modules use: a `pg.Pool`, a `pg.Client` or a
// transaction's client all fit, so the integrator passes whichever the store already holds. The
// modules send one query at a time, as a single client requires.
import pg, { type QueryResult, type QueryResultRow } from 'pg';

export interface SqlClient {
  query<R extends QueryResultRow = QueryResultRow>(text: string, values?: unknown[]): Promise<QueryResult<R>>;
}

/** node-pg returns BIGINT and SUM() as strings (they may pass 2^53); usage numbers never do. */
export function toNumber(value: unknown): number {
  return value === null || value === undefined ? 0 : Number(value);
}

/**
 * Runs `fn` in one transaction: on a connection of its own when `db` is a pool (a pool's queries may
 * each go to another connection), else on `db` itself, which must then not be in a transaction.
 */
export async function inTransaction<T>(db: SqlClient, fn: (tx: SqlClient) => Promise<T>): Promise<T> {
  const pooled = db instanceof pg.Pool ? await db.connect() : null;
  const tx: SqlClient = pooled ?? db;
  let failed = false;
  try {
    await tx.query('BEGIN');
    const out = await fn(tx);
    await tx.query('COMMIT');
    return out;
  } catch (err) {
    failed = true;
    await tx.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    // A connection whose ROLLBACK may not have gone through is not handed to the next caller.
    pooled?.release(failed);
  }
}
