// Many workers (issue 16): the rate at which a run's events reach a subscriber on another worker
// through PostgreSQL (run_events + LISTEN/NOTIFY), against the rate the run emits them (what a
// subscriber in the same process gets, as the desktop's RunManager hands events over synchronously);
// and a message append's p99 on PostgreSQL against SQLite's store.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { startPgCluster } from '../testing/postgres/cluster';
import { CLUSTER_TEST_SCHEMA, StandInRunManager } from '../src/main/cluster/testing';
import { startClusterWorker } from '../src/main/cluster/worker';
import { openStore } from '../src/main/store';
import { newId } from '../src/main/runs/run-manager';
import { messageAt } from './history.bench';
import { median } from './stats';
import { type Bench, type BenchRow } from './types';

const DELTAS = 20_000;
const RUNS = 3;
const APPENDS = 2_000;
const SCOPE = { tenant_id: 'bench', user_id: 'bench' };

function p99(samples: number[]): { p99: number; median: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  return { p99: sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.99) - 1)], median: median(sorted) };
}

interface StreamTiming {
  emitRate: number;
  receiveRate: number;
  /** From the last delta emitted on A to the last one received on B. */
  tailMs: number;
}

async function streamAcross(url: string, pool: pg.Pool, i: number): Promise<StreamTiming> {
  const a = await startClusterWorker({ connectionString: url, workerId: `a${i}` });
  const b = await startClusterWorker({ connectionString: url, workerId: `b${i}` });
  try {
    const runs = new StandInRunManager(a, pool);
    const taskId = `t${i}`;
    const runId = `r${i}`;
    let firstEmit = 0;
    let lastEmit = 0;
    let firstSeen = 0;
    let lastSeen = 0;
    let seen = 0;
    let resolveEnd: () => void = () => {};
    const ended = new Promise<void>((resolve) => (resolveEnd = resolve));
    let started!: () => void;
    const subscribed = new Promise<void>((resolve) => (started = resolve));
    const { done } = await runs.start(SCOPE, taskId, runId, async (run) => {
      await subscribed;
      for (let k = 0; k < DELTAS; k++) {
        if (k === 0) firstEmit = performance.now();
        run.emit({ type: 'text_delta', delta: 'x'.repeat(20) });
        // A fast model's stream: a network read holds a burst of deltas.
        if (k % 50 === 49) await new Promise((resolve) => setImmediate(resolve));
      }
      lastEmit = performance.now();
      return 'done';
    });
    await b.hub.subscribe(SCOPE, taskId, runId, (event) => {
      if (event.type === 'text_delta') {
        seen += 1;
        if (seen === 1) firstSeen = performance.now();
        if (seen === DELTAS) lastSeen = performance.now();
      }
      if (event.type === 'run_finished') resolveEnd();
    });
    started();
    await done;
    await ended;
    if (seen !== DELTAS) throw new Error(`B saw ${seen} of ${DELTAS} deltas`);
    return {
      emitRate: DELTAS / ((lastEmit - firstEmit) / 1000),
      receiveRate: DELTAS / ((lastSeen - firstSeen) / 1000),
      tailMs: lastSeen - lastEmit,
    };
  } finally {
    await a.close();
    await b.close();
  }
}

const PG_MESSAGES = `
CREATE TABLE bench_tasks (id TEXT PRIMARY KEY, updated_at BIGINT NOT NULL);
CREATE TABLE bench_messages (
  id TEXT PRIMARY KEY, task_id TEXT NOT NULL REFERENCES bench_tasks (id) ON DELETE CASCADE, run_id TEXT,
  seq INTEGER NOT NULL, role TEXT NOT NULL, content TEXT NOT NULL, reasoning TEXT, tool_calls TEXT,
  tool_call_id TEXT, name TEXT, is_error BOOLEAN NOT NULL DEFAULT FALSE, created_at BIGINT NOT NULL,
  parent_id TEXT, active BOOLEAN NOT NULL DEFAULT TRUE, UNIQUE (task_id, seq));`;

// One statement, as SQLite's append transaction: next seq and parent from the active path, the row
// returned, the task touched.
const PG_APPEND = `
WITH touched AS (UPDATE bench_tasks SET updated_at = $9 WHERE id = $2)
INSERT INTO bench_messages (id, task_id, run_id, seq, role, content, tool_calls, tool_call_id, name, created_at, parent_id, active)
VALUES ($1, $2, $3, (SELECT COALESCE(MAX(seq), 0) + 1 FROM bench_messages WHERE task_id = $2), $4, $5, $6, $7, $8, $9,
  (SELECT id FROM bench_messages WHERE task_id = $2 AND active ORDER BY seq DESC LIMIT 1), TRUE)
RETURNING *`;

async function pgAppends(pool: pg.Pool): Promise<number[]> {
  await pool.query(PG_MESSAGES);
  await pool.query('INSERT INTO bench_tasks VALUES ($1, $2)', ['t', Date.now()]);
  const samples: number[] = [];
  for (let i = 0; i < APPENDS; i++) {
    const m = messageAt(i % 2 === 0 ? 4 : 2, 't', 'r');
    const started = performance.now();
    await pool.query(PG_APPEND, [m.id, 't', 'r', m.role, m.content, null, 'tool_call_id' in m ? m.tool_call_id : null, 'name' in m ? m.name : null, Date.now()]);
    samples.push(performance.now() - started);
  }
  return samples.slice(20);
}

function sqliteAppends(): number[] {
  const dir = mkdtempSync(join(tmpdir(), 'folio-bench-cluster-'));
  const store = openStore(join(dir, 'folio.db'));
  try {
    const task = store.tasks.create({ id: newId('t'), mode: 'general', title: 'append', description: '', model: null });
    const runId = newId('r');
    store.runs.create({ id: runId, task_id: task.id, model: 'fake.main' });
    const samples: number[] = [];
    for (let i = 0; i < APPENDS; i++) {
      const m = messageAt(i % 2 === 0 ? 4 : 2, task.id, runId);
      const started = performance.now();
      store.messages.append(m);
      samples.push(performance.now() - started);
    }
    return samples.slice(20);
  } finally {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function run(): Promise<BenchRow[]> {
  const cluster = await startPgCluster();
  const pool = new pg.Pool({ connectionString: cluster.url, max: 4 });
  try {
    await pool.query(CLUSTER_TEST_SCHEMA);
    const timings: StreamTiming[] = [];
    for (let i = 0; i < RUNS; i++) timings.push(await streamAcross(cluster.url, pool, i));
    const receive = median(timings.map((t) => t.receiveRate));
    const emit = median(timings.map((t) => t.emitRate));
    const tail = median(timings.map((t) => t.tailMs));
    const pgAppend = p99(await pgAppends(pool));
    const sqliteAppend = p99(sqliteAppends());
    return [
      {
        name: 'events/s reaching a subscriber on another worker',
        folio: Math.round(receive),
        baseline: Math.round(emit),
        unit: 'events/s',
        target: '≥ 0.8',
        note: `${DELTAS} text deltas emitted on worker A (bursts of 50), read on worker B from run_events after each NOTIFY; median of ${RUNS}; last delta reached B ${tail.toFixed(0)} ms after it was emitted; baseline: A's emit rate (an in-process subscriber's, as on one SQLite worker)`,
      },
      {
        name: 'append a message, p99 (PostgreSQL vs SQLite)',
        folio: pgAppend.p99,
        baseline: sqliteAppend.p99,
        unit: 'ms',
        target: '< 5 ms',
        note: `${APPENDS} appends (assistant / tool result); medians ${pgAppend.median.toFixed(3)} vs ${sqliteAppend.median.toFixed(3)} ms. PostgreSQL: a plain INSERT of the messages row shape (next seq and parent in the statement, task touched) over one loopback connection, not the pg store (not merged yet); throwaway cluster with fsync and synchronous_commit off. SQLite: openStore + messages.append`,
      },
    ];
  } finally {
    await pool.end();
    await cluster.stop();
  }
}

const bench: Bench = { name: 'cluster', run };
export default bench;
