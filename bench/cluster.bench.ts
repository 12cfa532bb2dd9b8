// Many workers, measured on the real pieces: a message append through the PostgreSQL
// store port against SQLite's store, both into a task of 10,000 messages; and the rate at which a
// run's text deltas reach an SSE client of worker B while worker A runs it (two `folio serve
// --multi-tenant` processes on one database), against the same stream and client on one
// single-user SQLite `folio serve`.
//
// FOLIO_CLUSTER_OLD=<checkout> also runs that checkout's servers and PostgreSQL store, taking turns
// with this tree's in the same process, so old and new are measured under the same load.
// FOLIO_CLUSTER_DELTAS and FOLIO_CLUSTER_ROUNDS change the stream's length and the rounds.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startFakeOpenAI } from '../testing/fake-openai/server';
import { startPgCluster, type PgCluster } from '../testing/postgres/cluster';
import { findResourcesDir } from '../src/main/config/app-paths';
import { openStore } from '../src/main/store';
import { sqlitePort } from '../src/main/store/sqlite-port';
import { APPENDS, pgStoreOf, seedInBulk, seedThroughPort, SEEDED, timeAppends, type AppendSide, type Percentiles } from './cluster-appends';
import { createDatabase, SCOPE, streamRounds, type MeasuredStream, type Tree, type TreeRuns } from './cluster-streams';
import { SseClientThread } from './sse-client-thread';
import type { StreamTiming } from './sse-client';
import { median } from './stats';
import { type Bench, type BenchRow } from './types';

const positive = (value: string | undefined, fallback: number): number => {
  const n = Number(value);
  return Number.isInteger(n) && n > 0 ? n : fallback;
};
// Most of a second per stream at this machine's rates: a stream of 10,000 deltas lasted ~0.2 s, short
// enough that one scheduling hiccup moved its rate by a fifth. Past ~43,000 deltas a stream's SSE
// frames outgrow the server's 8 MB send buffer, and a client that falls behind would be dropped.
const DELTAS = positive(process.env.FOLIO_CLUSTER_DELTAS, 40_000);
const ROUNDS = positive(process.env.FOLIO_CLUSTER_ROUNDS, 7);

const t0 = performance.now();
/** Stage lines on stderr: the bench takes a minute or two, and a stall should show where. */
const progress = (what: string) => process.stderr.write(`  cluster: ${((performance.now() - t0) / 1000).toFixed(1)} s ${what}\n`);

function treeOf(label: string, root: string): Tree {
  let commit = '';
  try {
    commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
  } catch {
    // not a git checkout: the label alone
  }
  return { label: commit ? `${label} ${commit}` : label, root };
}

const fixed = (values: readonly number[], digits: number) => values.map((v) => v.toFixed(digits)).join(' ');
const spread = (values: readonly number[], digits: number) => `${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)}`;

/** The stream rows of one tree: rates (medians), the paired ratio per round, first delta. */
function streamRows(runs: TreeRuns, shape: string, prefix: string): BenchRow[] {
  const rate = (t: readonly StreamTiming[]) => t.map((x) => x.rate);
  const ratios = runs.team.map((t, i) => t.rate / runs.single[i].rate);
  const k = (v: number) => (v / 1000).toFixed(1);
  const perThousand = (t: MeasuredStream[], name: string) => median(t.map((x) => (x.cpuMs[name] / DELTAS) * 1000));
  const inWindow = (t: MeasuredStream[], name: string) => median(t.map((x) => ((x.windowCpuMs?.[name] ?? Number.NaN) / (DELTAS - 1)) * 1000));
  const teamTotal = median(runs.team.map((x) => ((x.cpuMs.A + x.cpuMs.B + x.cpuMs.PostgreSQL) / DELTAS) * 1000));
  return [
    {
      name: `${prefix}events/s at an SSE client of worker B, run on worker A (vs one SQLite worker)`,
      folio: median(rate(runs.team)),
      baseline: median(rate(runs.single)),
      unit: 'ev/s',
      note: `${shape}. Team: two folio serve --multi-tenant workers on one PostgreSQL database (throwaway cluster, fsync off), POST on A, GET …/events on B (run_events + NOTIFY). Baseline: one single-user folio serve on SQLite, POST and SSE on it. Per round, k ev/s team ${rate(runs.team).map(k).join(' ')}; single ${rate(runs.single).map(k).join(' ')}`,
    },
    {
      name: `${prefix}team/single rate of the same round, median of ${ratios.length}`,
      folio: median(ratios),
      baseline: null,
      unit: '×',
      target: '≥ 0.8',
      note: `per round ${fixed(ratios, 2)}; spread ${spread(ratios, 2)}`,
    },
    {
      name: `${prefix}CPU ms per 1,000 deltas, worker A vs the single worker`,
      folio: perThousand(runs.team, 'A'),
      baseline: perThousand(runs.single, 'single'),
      unit: 'ms',
      note: `utime + stime from /proc while each stream ran (10 ms ticks), median per stream: less swayed by other work on the machine than the rates. Team: B ${perThousand(runs.team, 'B').toFixed(1)}, PostgreSQL ${perThousand(runs.team, 'PostgreSQL').toFixed(1)}, A + B + PostgreSQL ${teamTotal.toFixed(1)} ms; single ${perThousand(runs.single, 'single').toFixed(1)} ms (PostgreSQL meanwhile ${perThousand(runs.single, 'PostgreSQL').toFixed(1)})`,
    },
    {
      name: `${prefix}CPU ms per 1,000 deltas while they stream, worker A vs the single worker`,
      folio: inWindow(runs.team, 'A'),
      baseline: inWindow(runs.single, 'single'),
      unit: 'ms',
      target: '≤ 1.25 (A / single)',
      note: `the same, read by the SSE client at its first and its last delta (the window its rate is taken over), so a run's start and end are left out; median per stream. B ${inWindow(runs.team, 'B').toFixed(1)} ms. When A has a core to itself its rate follows its CPU per delta: at most 1.25x the single worker's keeps the rate ≥ 0.8x`,
    },
    {
      name: `${prefix}time to first delta at the SSE client (team vs one SQLite worker)`,
      folio: median(runs.team.map((t) => t.firstMs)),
      baseline: median(runs.single.map((t) => t.firstMs)),
      unit: 'ms',
      note: `from POST …/messages (on A / on the single worker) to the first text_delta on the client (of B / of the single worker); end-to-end to run_finished ${(median(runs.team.map((t) => t.totalMs)) / 1000).toFixed(2)} s vs ${(median(runs.single.map((t) => t.totalMs)) / 1000).toFixed(2)} s`,
    },
  ];
}

/** Each tree's PostgreSQL store and SQLite's, timed in turns on one cluster. */
async function appendRows(trees: readonly Tree[], cluster: PgCluster, what: string, targetNote: string): Promise<BenchRow[]> {
  const backends = [];
  const sqliteDir = mkdtempSync(join(tmpdir(), 'folio-bench-append-'));
  const sqlite = openStore(join(sqliteDir, 'folio.db'));
  try {
    const sides: AppendSide[] = [];
    for (const [i, tree] of trees.entries()) {
      const openPgStore = await pgStoreOf(tree);
      const backend = await openPgStore(await createDatabase(cluster, `appends_${i}`), { poolSize: 4 });
      backends.push(backend);
      sides.push({ label: `PostgreSQL (${tree.label})`, port: backend.scope(SCOPE), seed: seedInBulk(backend.pool) });
    }
    const port = sqlitePort(sqlite);
    sides.push({ label: 'SQLite', port, seed: seedThroughPort(port) });
    const timed = await timeAppends(sides, progress);
    const lite = timed.at(-1) as Percentiles;
    return trees.map((tree, i) => ({
      name: `${trees.length > 1 ? `${tree.label}: ` : ''}append a message, p99 (PostgreSQL store${what} vs SQLite)`,
      folio: timed[i].p99,
      baseline: lite.p99,
      unit: 'ms',
      target: '< 5 ms',
      note: `${APPENDS} appends (assistant answer / tool result, one at a time) into a task of ${SEEDED.toLocaleString('en-US')} messages (history's conversation; PostgreSQL seeded by one bulk INSERT of the rows append writes, SQLite through its store); the real pgMessagesRepo.append over a pool on loopback; ${targetNote}; p50 ${timed[i].p50.toFixed(3)} vs SQLite ${lite.p50.toFixed(3)} ms; every store timed in turns, blocks of 250. SQLite: openStore + sqlitePort, WAL with synchronous=NORMAL (no fsync per commit)`,
    }));
  } finally {
    for (const backend of backends) await backend.close();
    sqlite.close();
    rmSync(sqliteDir, { recursive: true, force: true });
  }
}

async function run(): Promise<BenchRow[]> {
  const here = treeOf('this tree', findResourcesDir());
  const old = process.env.FOLIO_CLUSTER_OLD ? treeOf('old', resolve(process.env.FOLIO_CLUSTER_OLD)) : null;
  const trees = old ? [here, old] : [here];
  const fast = await startPgCluster();
  const fake = await startFakeOpenAI();
  const client = new SseClientThread();
  let durable: PgCluster | null = null;
  try {
    const streams = await streamRounds(trees, fast, fake, client, { deltas: DELTAS, rounds: ROUNDS }, progress);
    const pgFast = await appendRows(trees, fast, '', 'throwaway cluster as tests start it: fsync, synchronous_commit and full_page_writes OFF (a commit waits for no disk)');
    await fast.stop();
    durable = await startPgCluster({ durable: true });
    const pgDurable = await appendRows(trees, durable, ', fsync on', "a second throwaway cluster with PostgreSQL's defaults (fsync, synchronous_commit, full_page_writes on: each commit waits for its WAL flush to disk)");
    const shape = `${DELTAS.toLocaleString('en-US')} deltas of 20 chars from the fake model per stream; median of ${ROUNDS} rounds after one warm-up, each round running every side once in an order that rotates${old ? ` (with ${old.label}'s servers taking turns)` : ''}; SSE client in a worker thread of the bench; workers run from source (node --import tsx src/main/cli/main.ts serve)`;
    return [...streams.flatMap((runs) => streamRows(runs, shape, old ? `${runs.tree.label}: ` : '')), ...pgFast, ...pgDurable];
  } finally {
    await client.close();
    await fake.close();
    await fast.stop();
    await durable?.stop();
  }
}

const bench: Bench = { name: 'cluster', run };
export default bench;
