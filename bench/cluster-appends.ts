// The cluster bench's append rows: `messages.append` through a store port, one at a time as a run
// makes them, into a task of 10,000 messages. Several ports (this tree's PostgreSQL store, an older
// tree's, SQLite's) are timed in alternating blocks, so a busy spell on this shared machine falls on
// each of them alike.
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import type pg from 'pg';
import type { PgBackend, PgStoreOptions } from '../src/main/store/postgres';
import type { StorePort } from '../src/main/store/port';
import { newId } from '../src/main/runs/run-manager';
import { messageAt } from './history.bench';
import type { Tree } from './cluster-streams';
import { SCOPE } from './cluster-streams';
import { median } from './stats';

export const SEEDED = 10_000;
export const APPENDS = 2_000;
const BLOCK = 250;
const WARM_UP = 20;

export interface Percentiles {
  p50: number;
  p99: number;
}

export function percentiles(samples: number[]): Percentiles {
  const sorted = [...samples].sort((a, b) => a - b);
  return { p50: median(sorted), p99: sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.99) - 1)] };
}

type Seed = (taskId: string, runId: string) => Promise<void>;

/** SQLite: through the store, in one transaction, as the history bench seeds. */
export const seedThroughPort =
  (port: StorePort): Seed =>
  (taskId, runId) =>
    port.transaction(async (tx) => {
      for (let i = 0; i < SEEDED; i++) await tx.messages.append(messageAt(i, taskId, runId));
    });

/**
 * PostgreSQL: the rows the store's append writes (seq 1…n, each the parent of the next, all
 * active), inserted in bulk: faster than 10,000 appends through the port in one transaction
 * (about 10 s; see bench/README.md).
 */
export const seedInBulk =
  (pool: pg.Pool): Seed =>
  async (taskId, runId) => {
    const at = Date.now();
    let parent: string | null = null;
    const rows = Array.from({ length: SEEDED }, (_, i) => {
      const m = messageAt(i, taskId, runId);
      const row = [m.id, m.role, m.content, 'tool_calls' in m ? JSON.stringify(m.tool_calls) : null, 'tool_call_id' in m ? m.tool_call_id : null, 'name' in m ? m.name : null, i + 1, parent];
      parent = m.id;
      return row;
    });
    const column = (k: number) => rows.map((r) => r[k]);
    await pool.query(
      `INSERT INTO messages (tenant_id, user_id, task_id, run_id, created_at, is_error, active, id, role, content, tool_calls, tool_call_id, name, seq, parent_id)
       SELECT $1, $2, $3, $4, $5, 0, 1, * FROM unnest($6::text[], $7::text[], $8::text[], $9::text[], $10::text[], $11::text[], $12::int[], $13::text[])`,
      [SCOPE.tenant_id, SCOPE.user_id, taskId, runId, at, ...[0, 1, 2, 3, 4, 5, 6, 7].map(column)],
    );
    await pool.query('UPDATE tasks SET materialized = 1, updated_at = $1 WHERE id = $2', [at, taskId]);
    await pool.query('ANALYZE messages');
  };

/** A port to time: how to seed its task, and its name in the rows. */
export interface AppendSide {
  label: string;
  port: StorePort;
  seed: Seed;
}

/** Seeds a task of SEEDED messages; returns the append to time (an assistant answer, then a tool result). */
async function prepare(side: AppendSide, progress: (what: string) => void): Promise<(i: number) => Promise<number>> {
  const { port } = side;
  const task = await port.tasks.create({ id: newId('t'), mode: 'general', title: 'append', description: '', model: null });
  const runId = newId('r');
  await port.runs.create({ id: runId, task_id: task.id, model: 'fake.main' });
  const seedStarted = performance.now();
  await side.seed(task.id, runId);
  progress(`${side.label}: seeded ${SEEDED} messages in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s`);
  const [tail] = (await port.messages.list(task.id, { limit: 1 })).messages;
  if (tail?.seq !== SEEDED) throw new Error(`seeding left the task at seq ${String(tail?.seq)}, not ${SEEDED}`);
  return async (i) => {
    const m = messageAt(i % 2 === 0 ? 4 : 2, task.id, runId);
    const started = performance.now();
    await port.messages.append(m);
    return performance.now() - started;
  };
}

/** APPENDS timed appends per side (after WARM_UP untimed), in blocks of BLOCK taking turns
 * (the side that goes first rotates). */
export async function timeAppends(sides: readonly AppendSide[], progress: (what: string) => void): Promise<Percentiles[]> {
  const appends = [];
  for (const side of sides) appends.push(await prepare(side, progress));
  for (const append of appends) for (let i = 0; i < WARM_UP; i++) await append(i);
  const samples: number[][] = sides.map(() => []);
  for (let done = 0; done < APPENDS; done += BLOCK) {
    for (let k = 0; k < sides.length; k++) {
      const s = (k + done / BLOCK) % sides.length;
      for (let i = 0; i < BLOCK; i++) samples[s].push(await appends[s](done + i));
    }
  }
  return samples.map(percentiles);
}

type OpenPgStore = (url: string, options?: PgStoreOptions) => Promise<PgBackend>;

/** The PostgreSQL store of a tree: its own module, so an older checkout's append is its own. */
export async function pgStoreOf(tree: Tree): Promise<OpenPgStore> {
  const module = (await import(pathToFileURL(join(tree.root, 'src/main/store/postgres/index.ts')).href)) as { openPgStore: OpenPgStore };
  return module.openPgStore;
}
