// The writer without a database: what it does when every write fails.
import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../../shared/contract';
import { ROW_CHARS, RunEventWriter, rowsOf, type PendingRow } from './run-event-writer';

const scope = { tenant_id: 'acme', user_id: 'ann' };
const finished: RunEvent = { type: 'run_finished', reason: 'done', duration_ms: 1, run_id: 'r1', task_id: 't1', seq: 1, at: 0 };

function goneDatabase(): { pool: pg.Pool; attempts: () => number } {
  let attempts = 0;
  const pool = { query: () => (attempts++, Promise.reject(new Error('connect ECONNREFUSED'))) } as unknown as pg.Pool;
  return { pool, attempts: () => attempts };
}

/** Resolves with what `promise` resolved to, or 'still waiting' once `ms` passed. */
function within<T>(promise: Promise<T>, ms: number): Promise<T | 'still waiting'> {
  return Promise.race([promise, new Promise<'still waiting'>((resolve) => setTimeout(() => resolve('still waiting'), ms))]);
}

describe('RunEventWriter with the database gone', () => {
  it('closes after its grace instead of retrying forever, and says what it dropped', async () => {
    const db = goneDatabase();
    const errors: Error[] = [];
    const writer = new RunEventWriter(db.pool, { onError: (err) => errors.push(err) });
    writer.append(scope, finished);
    expect(await within(writer.close(100).then(() => 'closed'), 5_000)).toBe('closed');
    expect(db.attempts()).toBeGreaterThan(1);
    expect(errors.at(-1)?.message).toMatch(/1 run events were not stored/);
  });

  it("ends a run's flush once retries are stopped (a drain with the database gone)", async () => {
    const db = goneDatabase();
    const writer = new RunEventWriter(db.pool, {});
    writer.append(scope, finished);
    const flushed = writer.flush().then(() => 'flushed');
    expect(await within(flushed, 300)).toBe('still waiting');
    writer.stopRetryingAfter(50);
    expect(await within(flushed, 5_000)).toBe('flushed');
  });
});

describe('rowsOf', () => {
  const pending = (runId: string, seq: number, final = false): PendingRow => ({ runId, seq, tenantId: 'acme', taskId: `t-${runId}`, json: JSON.stringify({ run_id: runId, seq }), final });

  it('stores one row per run per write, its events as one array in order', () => {
    const rows = rowsOf([pending('r1', 1), pending('r2', 7), pending('r1', 2), pending('r2', 8, true), pending('r1', 3)]);
    expect(rows.map(({ run_id, seq, last_seq, task_id, ended }) => ({ run_id, seq, last_seq, task_id, ended }))).toEqual([
      { run_id: 'r1', seq: 1, last_seq: 3, task_id: 't-r1', ended: false },
      { run_id: 'r2', seq: 7, last_seq: 8, task_id: 't-r2', ended: true },
    ]);
    expect((JSON.parse(rows[0].events) as { seq: number }[]).map((e) => e.seq)).toEqual([1, 2, 3]);
  });

  it('starts a new row where a run\'s seqs break, so a row never claims a seq it does not hold', () => {
    const rows = rowsOf([pending('r1', 4), pending('r1', 5), pending('r1', 9), pending('r1', 10)]);
    expect(rows.map((r) => [r.seq, r.last_seq])).toEqual([
      [4, 5],
      [9, 10],
    ]);
  });

  it('splits a long unbroken batch into rows of at most ROW_CHARS, seq after seq', () => {
    const delta = (seq: number): PendingRow => ({ ...pending('r1', seq), json: JSON.stringify({ type: 'text_delta', delta: 'x'.repeat(20), seq, at: 0 }) });
    const rows = rowsOf(Array.from({ length: 5_000 }, (_, i) => delta(i + 1)));
    expect(rows.length).toBeGreaterThan(1);
    for (const row of rows) expect(row.events.length).toBeLessThanOrEqual(ROW_CHARS);
    expect(rows.map((r) => [r.seq, r.last_seq]).flat()).toEqual(rows.flatMap((r, i) => [i === 0 ? 1 : rows[i - 1].last_seq + 1, r.last_seq]));
    expect(rows.at(-1)?.last_seq).toBe(5_000);
    expect(rows.flatMap((r) => (JSON.parse(r.events) as { seq: number }[]).map((e) => e.seq))).toEqual(Array.from({ length: 5_000 }, (_, i) => i + 1));
  });
});
