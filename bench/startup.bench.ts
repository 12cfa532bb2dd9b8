// Start-up: how soon the built `folio serve` answers GET /v1/tasks, how long the built Electron main
// bundle's core takes to import, and the server's idle memory. Everything runs the BUILT app (out/,
// `npm run build` first), as people start it. Baselines: a bare Node HTTP server process doing the
// same (start → 200; its idle RSS), and a bare Node process for the import row.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { median } from './stats';
import { type Bench, type BenchRow } from './types';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const BIN = join(ROOT, 'bin', 'folio.js');
const MAIN_BUNDLE = join(ROOT, 'out', 'main', 'index.js');
const RUNS = 5;
const TOKEN = 'bench-token-0123456789abcdef';
/**
 * RSS is read at the first 200 (before the prewarmed extraction worker, which starts 1.5 s after the
 * core) and again after this long idle.
 */
const IDLE_AFTER_MS = 3000;

const BARE_SERVER = `require('http').createServer((q, s) => { s.setHeader('content-type', 'application/json'); s.end('{"tasks":[]}'); }).listen(Number(process.argv[1]), '127.0.0.1')`;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** RSS (kB) of a process and every descendant (worker threads share their process's RSS). */
function treeRssKb(pid: number): number {
  let total = 0;
  try {
    total = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      const children = readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').trim();
      for (const child of children ? children.split(/\s+/) : []) total += treeRssKb(Number(child));
    }
  } catch {
    // The process ended between the listing and the read: it counts as nothing.
  }
  return total;
}

const threads = (pid: number): number => Number(/Threads:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);

interface StartSample {
  firstOkMs: number;
  rssBeforeWorkerMb: number;
  threadsBeforeWorker: number;
  rssIdleMb: number;
  threadsIdle: number;
}

/** Spawns a server, polls GET /v1/tasks until 200, then samples its idle memory. */
async function timeStart(args: readonly string[], env: NodeJS.ProcessEnv, port: number): Promise<StartSample> {
  const started = performance.now();
  const child: ChildProcess = spawn(process.execPath, [...args], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  try {
    let firstOkMs = 0;
    while (firstOkMs === 0) {
      if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}): ${stderr.slice(0, 400)}`);
      if (performance.now() - started > 30_000) throw new Error('no 200 within 30 s');
      try {
        const response = await fetch(`http://127.0.0.1:${port}/v1/tasks`, { headers: { authorization: `Bearer ${TOKEN}` } });
        await response.arrayBuffer();
        if (response.status === 200) firstOkMs = performance.now() - started;
        else throw new Error(`GET /v1/tasks answered ${response.status}`);
      } catch (err) {
        if (err instanceof Error && err.message.startsWith('GET')) throw err;
        await sleep(2); // not listening yet
      }
    }
    const pid = child.pid!;
    const rssBeforeWorkerMb = treeRssKb(pid) / 1024;
    const threadsBeforeWorker = threads(pid);
    await sleep(IDLE_AFTER_MS);
    return { firstOkMs, rssBeforeWorkerMb, threadsBeforeWorker, rssIdleMb: treeRssKb(pid) / 1024, threadsIdle: threads(pid) };
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)));
  }
}

async function serveSamples(): Promise<StartSample[]> {
  const samples: StartSample[] = [];
  for (let i = 0; i < RUNS; i += 1) {
    const dataDir = mkdtempSync(join(tmpdir(), 'folio-startup-'));
    try {
      const port = await freePort();
      samples.push(await timeStart([BIN, 'serve', '--port', String(port)], { ...process.env, FOLIO_DATA_DIR: dataDir, FOLIO_TOKEN: TOKEN }, port));
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
  return samples;
}

async function bareSamples(): Promise<StartSample[]> {
  const samples: StartSample[] = [];
  for (let i = 0; i < RUNS; i += 1) {
    const port = await freePort();
    samples.push(await timeStart(['-e', BARE_SERVER, String(port)], process.env, port));
  }
  return samples;
}

/**
 * The Electron main bundle imports `electron` only in its composition root (out/main/index.js), which
 * plain Node cannot load; everything else it imports (the core, the store, the IPC bridge's
 * dispatch) is what the window waits for. So this imports each of index.js's static imports except
 * electron, in a fresh Node process, and reads the time since that process started.
 */
function mainImportMs(): number {
  const source = readFileSync(MAIN_BUNDLE, 'utf8');
  const specifiers = [...source.matchAll(/^import\s[^;]*?from\s+"([^"]+)";/gmu)].map((m) => m[1]).filter((s) => s !== 'electron');
  const urls = specifiers.map((s) => (s.startsWith('.') ? pathToFileURL(join(dirname(MAIN_BUNDLE), s)).href : s));
  const script = `for (const u of ${JSON.stringify(urls)}) await import(u); process.stdout.write(String(performance.now()));`;
  return Number(execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: dirname(MAIN_BUNDLE), encoding: 'utf8' }));
}

function bareNodeMs(): number {
  return Number(execFileSync(process.execPath, ['--input-type=module', '-e', 'process.stdout.write(String(performance.now()))'], { encoding: 'utf8' }));
}

const bench: Bench = {
  name: 'startup',
  async run(): Promise<BenchRow[]> {
    if (!existsSync(join(ROOT, 'out', 'main', 'cli.js'))) throw new Error('Folio is not built: run `npm run build` first');
    const folio = await serveSamples();
    const bare = await bareSamples();
    const pick = (samples: StartSample[], key: keyof StartSample) => median(samples.map((s) => s[key]));
    const importRuns = Array.from({ length: RUNS }, mainImportMs);
    const bareRuns = Array.from({ length: RUNS }, bareNodeMs);
    return [
      {
        name: 'serve: process start → first 200 on GET /v1/tasks',
        folio: pick(folio, 'firstOkMs'),
        baseline: pick(bare, 'firstOkMs'),
        unit: 'ms',
        target: '< 500 ms',
        note: `median of ${RUNS}, fresh data folder each; baseline: bare node http server`,
      },
      {
        name: 'Electron main bundle: core imports (no electron)',
        folio: median(importRuns),
        baseline: median(bareRuns),
        unit: 'ms',
        target: '< 500 ms',
        note: 'time since process start after importing out/main/index.js\'s imports but electron; baseline: bare node process',
      },
      {
        name: 'serve: RSS at the first 200 (before the extraction worker)',
        folio: pick(folio, 'rssBeforeWorkerMb'),
        baseline: pick(bare, 'rssBeforeWorkerMb'),
        unit: 'MB',
        target: '< 150 MB',
        note: `process tree RSS (${pick(folio, 'threadsBeforeWorker')} OS threads)`,
      },
      {
        name: `serve: idle RSS ${IDLE_AFTER_MS / 1000} s later, worker prewarmed`,
        folio: pick(folio, 'rssIdleMb'),
        baseline: pick(bare, 'rssIdleMb'),
        unit: 'MB',
        target: '< 150 MB',
        note: `process tree RSS incl. worker threads (${pick(folio, 'threadsIdle')} OS threads)`,
      },
    ];
  },
};

export default bench;
