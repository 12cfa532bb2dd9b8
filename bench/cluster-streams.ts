// The cluster bench's stream rows: a run on worker A read by an SSE client of worker B (two `folio
// serve --multi-tenant` processes on one PostgreSQL database) against the same run and client on one
// single-user SQLite `folio serve`. Each tree (this checkout, and optionally an older one to compare)
// gets its own three servers; every round runs each side once, in an order that rotates, so a busy
// spell on this shared machine falls on all of them, and a round's team/single ratio is paired.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { SignJWT } from 'jose';
import pg from 'pg';
import { fakeProfileYaml, type FakeOpenAI } from '../testing/fake-openai/server';
import type { PgCluster } from '../testing/postgres/cluster';
import { makeDataDir, TEST_KEY } from '../src/main/service/core-test-kit';
import type { StreamTiming } from './sse-client';
import type { SseClientThread } from './sse-client-thread';
import { childrenCpuMs, childrenCpuSince, processCpuMs } from './process-cpu';

export const SCOPE = { tenant_id: 'bench', user_id: 'bench' };
const TOKEN = 'bench-token-0123456789abcdef';
const PLATFORM_KEY = 'platform-key-0123456789abcdef-0123456789';
const JWT_SECRET = 'jwt-secret-0123456789abcdef-0123456789';
const CHUNK_SIZE = 20;

/** A checkout whose `src/main/cli/main.ts` the servers run (from source, via tsx). */
export interface Tree {
  label: string;
  root: string;
}

export interface StreamShape {
  /** Text deltas per run (of CHUNK_SIZE characters each). */
  deltas: number;
  /** Measured rounds after one warm-up round. */
  rounds: number;
}

/** A stream as the client saw it, and the CPU ms each server process (and PostgreSQL) spent meanwhile. */
export interface MeasuredStream extends StreamTiming {
  cpuMs: Record<string, number>;
}

/** One tree's measured runs, index i of each list from round i. */
export interface TreeRuns {
  tree: Tree;
  team: MeasuredStream[];
  single: MeasuredStream[];
}

export type Progress = (what: string) => void;

export async function createDatabase(cluster: PgCluster, name: string): Promise<string> {
  const client = new pg.Client({ connectionString: cluster.url });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  return cluster.url.replace(/\/postgres$/, `/${name}`);
}

interface Server {
  url: string;
  child: ChildProcess;
  exited: Promise<unknown>;
}

/** `folio serve` from source (tsx), as an operator runs it; resolves once it prints where it listens. */
async function startServe(tree: Tree, args: string[], env: NodeJS.ProcessEnv): Promise<Server> {
  const profileDir = process.env.FOLIO_CLUSTER_PROFILE;
  const profile = profileDir ? ['--cpu-prof', '--cpu-prof-dir', join(profileDir, tree.label)] : [];
  const child = spawn(process.execPath, [...profile, '--import', 'tsx', join(tree.root, 'src/main/cli/main.ts'), 'serve', '--host', '127.0.0.1', '--port', '0', ...args], {
    cwd: tree.root,
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
    void exited.then((code) => reject(new Error(`folio serve (${tree.label}) exited (${String(code)}) before listening: ${stderr.join('')}`)));
  });
  return { url, child, exited };
}

async function stopServe(server: Server): Promise<void> {
  server.child.kill('SIGTERM');
  const timer = setTimeout(() => server.child.kill('SIGKILL'), 5_000);
  await server.exited;
  clearTimeout(timer);
}

type Stream = () => Promise<MeasuredStream>;

const pidsOf = (processes: Record<string, ChildProcess>): Record<string, number> =>
  Object.fromEntries(Object.entries(processes).flatMap(([name, child]) => (child.pid === undefined ? [] : [[name, child.pid]])));

/** Runs `stream`, reading the CPU time of the named processes and of PostgreSQL's before and after. */
async function withCpu(processes: Record<string, ChildProcess>, postmaster: number, stream: () => Promise<StreamTiming>): Promise<MeasuredStream> {
  const cpu = () => Object.fromEntries(Object.entries(processes).map(([name, child]) => [name, child.pid === undefined ? 0 : processCpuMs(child.pid)]));
  const before = cpu();
  const pgBefore = childrenCpuMs(postmaster);
  const timing = await stream();
  const after = cpu();
  const cpuMs: Record<string, number> = { PostgreSQL: childrenCpuSince(pgBefore, childrenCpuMs(postmaster)) };
  for (const name of Object.keys(processes)) cpuMs[name] = after[name] - before[name];
  return { ...timing, cpuMs };
}

/** A tree's two team workers and its single worker, started; `across` and `alone` run one stream each. */
async function startTree(tree: Tree, cluster: PgCluster, fake: FakeOpenAI, client: SseClientThread, deltas: number, keep: { servers: Server[]; scratch: string[] }) {
  const database = await createDatabase(cluster, `team_${tree.label.replace(/\W/g, '_')}`);
  const storage = mkdtempSync(join(tmpdir(), 'folio-bench-storage-'));
  keep.scratch.push(storage);
  mkdirSync(join(storage, 'tenants', SCOPE.tenant_id, 'models'), { recursive: true });
  writeFileSync(join(storage, 'tenants', SCOPE.tenant_id, 'models', 'fake.yaml'), fakeProfileYaml(fake.url));
  const started = async (server: Promise<Server>) => {
    const s = await server;
    keep.servers.push(s);
    return s;
  };
  const teamWorker = (name: string) => {
    const dataDir = mkdtempSync(join(tmpdir(), `folio-bench-worker-${name}-`));
    keep.scratch.push(dataDir);
    return started(
      startServe(tree, ['--multi-tenant', '--database', database, '--storage-root', storage, '--worker-id', name, '--allow-network', '127.0.0.1'], {
        FOLIO_DATA_DIR: dataDir,
        FOLIO_PLATFORM_KEY: PLATFORM_KEY,
        FOLIO_JWT_SECRET: JWT_SECRET,
        FOLIO_SHUTDOWN_GRACE_MS: '1000',
      }),
    );
  };
  const singleDir = makeDataDir(fake.url);
  keep.scratch.push(singleDir);
  // One at a time: tsx start-ups at once on a loaded machine only slow each other.
  const a = await teamWorker('a');
  const b = await teamWorker('b');
  const single = await started(startServe(tree, [], { FOLIO_DATA_DIR: singleDir, FOLIO_TOKEN: TOKEN, FAKE_API_KEY: TEST_KEY }));

  const jwt = await new SignJWT({ tenant_id: SCOPE.tenant_id }).setProtectedHeader({ alg: 'HS256' }).setSubject(SCOPE.user_id).setExpirationTime('2h').sign(new TextEncoder().encode(JWT_SECRET));
  const teamHeaders = { authorization: `Bearer ${PLATFORM_KEY}`, 'x-folio-user': jwt };
  const reply = () => ({ text: 'x'.repeat(deltas * CHUNK_SIZE), chunkSize: CHUNK_SIZE, usage: { prompt: 10, completion: (deltas * CHUNK_SIZE) / 4 } });
  const postmaster = cluster.pid();
  const across: Stream = () => {
    fake.script([reply()]);
    return withCpu({ A: a.child, B: b.child }, postmaster, () =>
      client.run({ kind: 'run', start: a.url, read: b.url, headers: teamHeaders, model: 'fake.main', expected: deltas, cpuPids: pidsOf({ A: a.child, B: b.child }) }),
    );
  };
  const alone: Stream = () => {
    fake.script([reply()]);
    return withCpu({ single: single.child }, postmaster, () =>
      client.run({ kind: 'run', start: single.url, read: single.url, headers: { authorization: `Bearer ${TOKEN}` }, model: 'fake.main', expected: deltas, cpuPids: pidsOf({ single: single.child }) }),
    );
  };
  return { across, alone };
}

/**
 * Every tree's servers, then one warm-up round and `rounds` measured rounds. A round runs each
 * tree's team stream and single stream once; the order rotates from round to round, so no side
 * always follows the same one.
 */
export async function streamRounds(trees: readonly Tree[], cluster: PgCluster, fake: FakeOpenAI, client: SseClientThread, shape: StreamShape, progress: Progress): Promise<TreeRuns[]> {
  const keep = { servers: [] as Server[], scratch: [] as string[] };
  try {
    const sides: { at: TreeRuns; kind: 'team' | 'single'; stream: Stream }[] = [];
    const results: TreeRuns[] = [];
    for (const tree of trees) {
      progress(`starting ${tree.label}'s workers`);
      const { across, alone } = await startTree(tree, cluster, fake, client, shape.deltas, keep);
      const at: TreeRuns = { tree, team: [], single: [] };
      results.push(at);
      sides.push({ at, kind: 'team', stream: across }, { at, kind: 'single', stream: alone });
    }
    progress('workers listening');
    // Warm-up: JIT in every process, pools, the first run's lazy set-up (profiles, the tenant's core).
    for (const side of sides) await side.stream();
    for (let round = 0; round < shape.rounds; round++) {
      const shift = round % sides.length;
      for (const side of [...sides.slice(shift), ...sides.slice(0, shift)]) side.at[side.kind].push(await side.stream());
      progress(`stream round ${round + 1} of ${shape.rounds} (load ${loadavg()[0].toFixed(1)})`);
    }
    return results;
  } finally {
    await Promise.all(keep.servers.map(stopServe));
    for (const dir of keep.scratch) rmSync(dir, { recursive: true, force: true });
  }
}
