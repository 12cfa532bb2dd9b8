// The part of a PostgreSQL connection the quota modules use: a `pg.Pool`, a `pg.Client` or a
// transaction's client all fit, so the integrator passes whichever the store already holds. The
// modules send one query at a time, as a single client requires.
import type { QueryResult, QueryResultRow } from 'pg';

export interface SqlClient {
  query<R extends QueryResultRow = QueryResultRow>(text: string, values?: unknown[]): Promise<QueryResult<R>>;
}

/** node-pg returns BIGINT and SUM() as strings (they may pass 2^53); usage numbers never do. */
export function toNumber(value: unknown): number {
  return value === null || value === undefined ? 0 : Number(value);
}
