// How the PostgreSQL repos reach the database: one small interface over a pool (each statement on
// any connection) or over one checked-out client inside a transaction, so every repo runs unchanged
// inside `transaction(fn)`.
import pg from 'pg';
import { FolioError, NotFoundError } from '../../../shared/errors';

export interface Sql {
  /** Inside a transaction (a checked-out client), where a failed statement aborts the whole unit. */
  readonly inTransaction: boolean;
  /** The rows of one parameterised statement. */
  rows<R>(text: string, values?: readonly unknown[]): Promise<R[]>;
  /** How many rows one parameterised statement touched. */
  run(text: string, values?: readonly unknown[]): Promise<number>;
  /**
   * fn as one unit: a transaction on the pool, a savepoint inside one. A savepoint also keeps an
   * expected failure (a conflict the caller catches) from aborting the enclosing transaction, as
   * SQLite's statement-level rollback does.
   */
  atomic<T>(fn: (sql: Sql) => Promise<T>): Promise<T>;
  /**
   * Runs `write` just before the outermost transaction commits, the last one given per key only;
   * outside a transaction, at once. For a row many statements of one transaction would update
   * again and again (a task touched by each of its appends): PostgreSQL keeps every version of a
   * row updated inside one transaction, and each later statement on that row steps over them all,
   * so n updates cost n² steps. A savepoint rolled back drops what was given inside it.
   */
  atCommit(key: string, write: (sql: Sql) => Promise<unknown>): Promise<void>;
}

/** Writes given to `atCommit` in one transaction, by key, in the order first given. */
type CommitWrites = Map<string, (sql: Sql) => Promise<unknown>>;

const INT8_OID = 20;

/**
 * BIGINT columns (ms times, token counts, sizes, count(*)) arrive as strings unless parsed; as JS
 * numbers they are exact up to 2^53, far beyond any time, token count or file size Folio stores.
 */
const parseInt8 = (value: string): number => Number(value);
const types: pg.CustomTypesConfig = {
  getTypeParser: (oid: number, format?: 'text' | 'binary'): unknown =>
    oid === INT8_OID && format !== 'binary' ? parseInt8 : (pg.types.getTypeParser(oid, format) as unknown),
};

export function createPool(url: string, poolSize?: number): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max: poolSize ?? 10, types });
  // An idle connection that breaks (the server restarted, a proxy cut it) is dropped by the pool; the
  // next query connects afresh or fails with its own error. Without a listener the event would crash
  // the process.
  pool.on('error', () => undefined);
  return pool;
}

export function poolSql(pool: pg.Pool): Sql {
  return {
    inTransaction: false,
    async rows<R>(text: string, values: readonly unknown[] = []) {
      return (await pool.query(text, values as unknown[])).rows as R[];
    },
    async run(text, values = []) {
      return (await pool.query(text, values as unknown[])).rowCount ?? 0;
    },
    async atCommit(_key, write) {
      await write(this);
    },
    // BEGIN … COMMIT on one checked-out client, ROLLBACK on any throw.
    async atomic(fn) {
      const client = await pool.connect();
      // A client whose ROLLBACK failed is in an unknown state: it is destroyed, not pooled again.
      let broken = false;
      try {
        await client.query('BEGIN');
        try {
          const writes: CommitWrites = new Map();
          const tx = clientSql(client, 1, writes);
          const result = await fn(tx);
          for (const write of writes.values()) await write(tx);
          await client.query('COMMIT');
          return result;
        } catch (err) {
          await client.query('ROLLBACK').catch(() => {
            broken = true;
          });
          throw err;
        }
      } finally {
        client.release(broken);
      }
    },
  };
}

function clientSql(client: pg.PoolClient, depth: number, writes: CommitWrites): Sql {
  return {
    inTransaction: true,
    async rows<R>(text: string, values: readonly unknown[] = []) {
      return (await client.query(text, values as unknown[])).rows as R[];
    },
    async run(text, values = []) {
      return (await client.query(text, values as unknown[])).rowCount ?? 0;
    },
    async atCommit(key, write) {
      // Given again, it moves to the end: it runs after what was given since.
      writes.delete(key);
      writes.set(key, write);
    },
    async atomic(fn) {
      const name = `folio_sp_${depth}`;
      const before = new Map(writes);
      await client.query(`SAVEPOINT ${name}`);
      try {
        const result = await fn(clientSql(client, depth + 1, writes));
        await client.query(`RELEASE SAVEPOINT ${name}`);
        return result;
      } catch (err) {
        await client.query(`ROLLBACK TO SAVEPOINT ${name}`);
        await client.query(`RELEASE SAVEPOINT ${name}`);
        writes.clear();
        for (const [key, write] of before) writes.set(key, write);
        throw err;
      }
    },
  };
}

/** The SQLSTATE of a PostgreSQL error, or undefined for anything else. */
export function pgCode(err: unknown): string | undefined {
  return err instanceof pg.DatabaseError ? err.code : undefined;
}

export const UNIQUE_VIOLATION = '23505';
export const FOREIGN_KEY_VIOLATION = '23503';

/** The PostgreSQL twin of sqlite-errors.ts: a missing task or a duplicate id becomes a typed error. */
export async function withTaskConstraints<T>(taskId: string, what: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    const code = pgCode(err);
    if (code === FOREIGN_KEY_VIOLATION) throw new NotFoundError(`Task ${taskId} not found.`);
    if (code === UNIQUE_VIOLATION) throw new FolioError('conflict', `${what} already exists.`, { cause: err });
    throw err;
  }
}
