// Many workers, measured on the real pieces: a message append through the PostgreSQL
// store port against SQLite's store, both into a task of 10,000 messages; and the rate at which a
// run's text deltas reach an SSE client of worker B while worker A runs it (two `folio serve
// --multi-tenant` processes on one database), against the same stream and client on one
// single-user SQLite `folio serve`.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { SignJWT } from 'jose';
import pg from 'pg';
import { fakeProfileYaml, startFakeOpenAI, type FakeOpenAI } from '../testing/fake-openai/server';
import { startPgCluster, type PgCluster } from '../testing/postgres/cluster';
import { findResourcesDir } from '../src/main/config/app-paths';
import { makeDataDir, TEST_KEY } from '../src/main/service/core-test-kit';
import { openStore } from '../src/main/store';
import { openPgStore } from '../src/main/store/postgres';
import type { StorePort } from '../src/main/store/port';
import { sqlitePort } from '../src/main/store/sqlite-port';
import { newId } from '../src/main/runs/run-manager';
import { messageAt } from './history.bench';
import type { StreamTiming } from './sse-client';
import { SseClientThread } from './sse-client-thread';
import { median } from './stats';
import { type Bench, type BenchRow } from './types';

const SEEDED = 10_000;
const APPENDS = 2_000;
// The stream of the sse bench: 10,000 deltas of 20 characters.
const TEXT_LENGTH = 200_000;
const CHUNK_SIZE = 20;
const DELTAS = TEXT_LENGTH / CHUNK_SIZE;
const RUNS = 5;
const SCOPE = { tenant_id: 'bench', user_id: 'bench' };
const TOKEN = 'bench-token-0123456789abcdef';
const PLATFORM_KEY = 'platform-key-0123456789abcdef-0123456789';
const JWT_SECRET = 'jwt-secret-0123456789abcdef-0123456789';

const root = findResourcesDir();
const t0 = performance.now();
/** Stage lines on stderr: the bench takes a minute or two, and a stall should show where. */
const progress = (what: string) => process.stderr.write(`  cluster: ${((performance.now() - t0) / 1000).toFixed(1)} s ${what}\n`);
const entry = join(root, 'src/main/cli/main.ts');
const reply = () => ({ text: 'x'.repeat(TEXT_LENGTH), chunkSize: CHUNK_SIZE, usage: { prompt: 10, completion: TEXT_LENGTH / 4 } });

interface Percentiles {
  p50: number;
  p99: number;
}

function percentiles(samples: number[]): Percentiles {
  const sorted = [...samples].sort((a, b) => a - b);
  return { p50: median(sorted), p99: sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.99) - 1)] };
}

type Seed = (taskId: string, runId: string) => Promise<void>;

/** SQLite: through the store, in one transaction, as the history bench seeds. */
const seedThroughPort =
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
const seedInBulk =
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

/** Seeds a task of SEEDED messages, then times APPENDS appends through the port, one at a time as a run makes them. */
async function timeAppends(port: StorePort, seed: Seed): Promise<{ timings: Percentiles; seedMs: number }> {
  const task = await port.tasks.create({ id: newId('t'), mode: 'general', title: 'append', description: '', model: null });
  const runId = newId('r');
  await port.runs.create({ id: runId, task_id: task.id, model: 'fake.main' });
  const seedStarted = performance.now();
  await seed(task.id, runId);
  const seedMs = performance.now() - seedStarted;
  progress(`${port.dialect}: seeded ${SEEDED} messages in ${(seedMs / 1000).toFixed(1)} s`);
  const [tail] = (await port.messages.list(task.id, { limit: 1 })).messages;
  if (tail?.seq !== SEEDED) throw new Error(`seeding left the task at seq ${String(tail?.seq)}, not ${SEEDED}`);
  const samples: number[] = [];
  for (let i = 0; i < APPENDS + 20; i++) {
    // An assistant answer, then a tool result: what a run appends.
    const m = messageAt(i % 2 === 0 ? 4 : 2, task.id, runId);
    const started = performance.now();
    await port.messages.append(m);
    samples.push(performance.now() - started);
  }
  return { timings: percentiles(samples.slice(20)), seedMs };
}

async function createDatabase(cluster: PgCluster, name: string): Promise<string> {
  const client = new pg.Client({ connectionString: cluster.url });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  return cluster.url.replace(/\/postgres$/, `/${name}`);
}

async function pgAppends(cluster: PgCluster): Promise<Percentiles & { seedMs: number }> {
  const backend = await openPgStore(await createDatabase(cluster, 'appends'), { poolSize: 4 });
  try {
    const { timings, seedMs } = await timeAppends(backend.scope(SCOPE), seedInBulk(backend.pool));
    return { ...timings, seedMs };
  } finally {
    await backend.close();
  }
}

async function sqliteAppends(): Promise<Percentiles> {
  const dir = mkdtempSync(join(tmpdir(), 'folio-bench-append-'));
  const store = openStore(join(dir, 'folio.db'));
  try {
    const port = sqlitePort(store);
    return (await timeAppends(port, seedThroughPort(port))).timings;
  } finally {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

interface Server {
  url: string;
  child: ChildProcess;
  exited: Promise<unknown>;
}

/** `folio serve` from source (tsx), as an operator runs it; resolves once it prints where it listens. */
async function startServe(args: string[], env: NodeJS.ProcessEnv): Promise<Server> {
  const profileDir = process.env.FOLIO_CLUSTER_PROFILE;
  const profile = profileDir ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : [];
  const child = spawn(process.execPath, [...profile, '--import', 'tsx', entry, 'serve', '--host', '127.0.0.1', '--port', '0', ...args], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise((resolve) => child.on('exit', resolve));
  const stderr: string[] = [];
  child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      // Team mode logs JSON with the port; single-user mode prints its web address.
      const web = /^Folio web mode: (http:\/\/[^/]+)\//.exec(line);
      if (web) return resolve(web[1]);
      try {
        const logged = JSON.parse(line) as { msg?: string; port?: number };
        if (logged.msg === 'folio service listening' && typeof logged.port === 'number') resolve(`http://127.0.0.1:${logged.port}`);
      } catch {
        // not a log line
      }
    });
    void exited.then((code) => reject(new Error(`folio serve exited (${String(code)}) before listening: ${stderr.join('')}`)));
  });
  return { url, child, exited };
}

async function stopServe(server: Server): Promise<void> {
  server.child.kill('SIGTERM');
  const timer = setTimeout(() => server.child.kill('SIGKILL'), 5_000);
  await server.exited;
  clearTimeout(timer);
}

interface StreamRuns {
  team: StreamTiming[];
  single: StreamTiming[];
  how: string;
}

/** Two team workers on one database and one single-user SQLite worker, the same client reading both, runs alternating. */
async function streams(cluster: PgCluster, fake: FakeOpenAI, client: SseClientThread): Promise<StreamRuns> {
  const database = await createDatabase(cluster, 'team');
  const scratch: string[] = [];
  const servers: Server[] = [];
  try {
    const storage = mkdtempSync(join(tmpdir(), 'folio-bench-storage-'));
    scratch.push(storage);
    mkdirSync(join(storage, 'tenants', SCOPE.tenant_id, 'models'), { recursive: true });
    writeFileSync(join(storage, 'tenants', SCOPE.tenant_id, 'models', 'fake.yaml'), fakeProfileYaml(fake.url));
    const teamWorker = (name: string) => {
      const dataDir = mkdtempSync(join(tmpdir(), `folio-bench-worker-${name}-`));
      scratch.push(dataDir);
      return startServe(['--multi-tenant', '--database', database, '--storage-root', storage, '--worker-id', name, '--allow-network', '127.0.0.1'], {
        FOLIO_DATA_DIR: dataDir,
        FOLIO_PLATFORM_KEY: PLATFORM_KEY,
        FOLIO_JWT_SECRET: JWT_SECRET,
        FOLIO_SHUTDOWN_GRACE_MS: '1000',
      });
    };
    const singleDir = makeDataDir(fake.url);
    scratch.push(singleDir);
    // One at a time: three tsx start-ups at once on a loaded machine only slow each other.
    progress('starting workers');
    const a = await teamWorker('a');
    servers.push(a);
    const b = await teamWorker('b');
    servers.push(b);
    const single = await startServe([], { FOLIO_DATA_DIR: singleDir, FOLIO_TOKEN: TOKEN, FAKE_API_KEY: TEST_KEY });
    servers.push(single);

    const jwt = await new SignJWT({ tenant_id: SCOPE.tenant_id }).setProtectedHeader({ alg: 'HS256' }).setSubject(SCOPE.user_id).setExpirationTime('30m').sign(new TextEncoder().encode(JWT_SECRET));
    const teamHeaders = { authorization: `Bearer ${PLATFORM_KEY}`, 'x-folio-user': jwt };
    const across = () => {
      fake.script([reply()]);
      return client.run({ kind: 'run', start: a.url, read: b.url, headers: teamHeaders, model: 'fake.main', expected: DELTAS });
    };
    const alone = () => {
      fake.script([reply()]);
      return client.run({ kind: 'run', start: single.url, read: single.url, headers: { authorization: `Bearer ${TOKEN}` }, model: 'fake.main', expected: DELTAS });
    };
    progress('workers listening');
    // Warm-up: JIT in every process, pools, the first run's lazy set-up (profiles, the tenant's core).
    await across();
    await alone();
    const team: StreamTiming[] = [];
    const solo: StreamTiming[] = [];
    for (let i = 0; i < RUNS; i++) {
      team.push(await across());
      solo.push(await alone());
      progress(`stream run ${i + 1} of ${RUNS}`);
    }
    return { team, single: solo, how: 'from source (node --import tsx src/main/cli/main.ts serve)' };
  } finally {
    await Promise.all(servers.map(stopServe));
    for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
  }
}

async function run(): Promise<BenchRow[]> {
  const fast = await startPgCluster();
  const fake = await startFakeOpenAI();
  const client = new SseClientThread();
  let durable: PgCluster | null = null;
  try {
    const stream = await streams(fast, fake, client);
    const pgFast = await pgAppends(fast);
    await fast.stop();
    durable = await startPgCluster({ durable: true });
    const pgDurable = await pgAppends(durable);
    const sqlite = await sqliteAppends();

    const rate = (timings: StreamTiming[]) => median(timings.map((t) => t.rate));
    const first = (timings: StreamTiming[]) => median(timings.map((t) => t.firstMs));
    const total = (timings: StreamTiming[]) => median(timings.map((t) => t.totalMs));
    const shape = `${DELTAS.toLocaleString('en-US')} deltas of ${CHUNK_SIZE} chars from the fake model (the sse bench's stream), median of ${RUNS} after one warm-up, team and single runs alternating; SSE client in a worker thread of the bench; workers run ${stream.how}`;
    const appendNote = (what: string, p: Percentiles & { seedMs: number }) =>
      `${APPENDS} appends (assistant answer / tool result, one at a time) into a task of ${SEEDED.toLocaleString('en-US')} messages (history's conversation; PostgreSQL seeded by one bulk INSERT of the rows append writes, SQLite through its store); the real pgMessagesRepo.append (task row locked, seq and parent computed, task touched) over a pool on loopback; ${what}; p50 ${p.p50.toFixed(3)} vs SQLite ${sqlite.p50.toFixed(3)} ms. SQLite: openStore + sqlitePort, WAL with synchronous=NORMAL (no fsync per commit)`;
    return [
      {
        name: 'events/s at an SSE client of worker B, run on worker A (vs one SQLite worker)',
        folio: rate(stream.team),
        baseline: rate(stream.single),
        unit: 'ev/s',
        target: '≥ 0.8',
        note: `${shape}. Team: two folio serve --multi-tenant workers on one PostgreSQL database (throwaway cluster, fsync off), POST on A, GET …/events on B (run_events + NOTIFY). Baseline: one single-user folio serve on SQLite, POST and SSE on it`,
      },
      {
        name: 'time to first delta at the SSE client (team vs one SQLite worker)',
        folio: first(stream.team),
        baseline: first(stream.single),
        unit: 'ms',
        note: `from POST …/messages (on A / on the single worker) to the first text_delta on the client (of B / of the single worker); end-to-end to run_finished ${(total(stream.team) / 1000).toFixed(2)} s vs ${(total(stream.single) / 1000).toFixed(2)} s`,
      },
      {
        name: 'append a message, p99 (PostgreSQL store vs SQLite)',
        folio: pgFast.p99,
        baseline: sqlite.p99,
        unit: 'ms',
        target: '< 5 ms',
        note: appendNote('throwaway cluster as tests start it: fsync, synchronous_commit and full_page_writes OFF (a commit waits for no disk)', pgFast),
      },
      {
        name: 'append a message, p99 (PostgreSQL store, fsync on, vs SQLite)',
        folio: pgDurable.p99,
        baseline: sqlite.p99,
        unit: 'ms',
        target: '< 5 ms',
        note: appendNote("a second throwaway cluster with PostgreSQL's defaults (fsync, synchronous_commit, full_page_writes on: each commit waits for its WAL flush to disk)", pgDurable),
      },
    ];
  } finally {
    await client.close();
    await fake.close();
    await fast.stop();
    await durable?.stop();
  }
}

const bench: Bench = { name: 'cluster', run };
export default bench;
