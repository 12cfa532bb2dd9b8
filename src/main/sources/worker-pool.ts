// The extraction workers: at most MAX_WORKERS busy at once (a PDF split in two holds two slots),
// kept warm between files so pdfjs is loaded and JIT-compiled once, and recycled so their memory
// stays bounded: after RECYCLE_AFTER_PAGES pages, when their heap stays above RECYCLE_HEAP_BYTES
// after a job, after IDLE_MS without work, or at once after any failure. The app also keeps a
// spare (see prewarm): one fresh thread with pdfjs loaded, so the first file after start, or after
// a quiet spell, does not wait for a thread and 4 MB of JavaScript.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { tsxEsmApiUrl, type WorkerEntry, withoutLoaders } from '../workers/entry';
import { type WorkerMessage, type WorkerRequest } from './extract-worker';
import { pdfjsWorkerPath } from './formats/pdfjs-load';
import { patchWorkerSource } from './formats/pdfjs-patches';

/** The machine is shared with the UI and the agent; two extraction threads at once is plenty. */
export const MAX_WORKERS = 2;
const RECYCLE_AFTER_PAGES = 5000;
const RECYCLE_HEAP_BYTES = 256 * 1024 * 1024;
const IDLE_MS = 30_000;

export { withoutLoaders, type WorkerEntry };

let scriptOverride: string | null = null;
let codeCacheDir: string | null = null;

/**
 * Where the built workers keep V8's code cache of pdfjs (formats/pdfjs-code-cache.ts); null: none,
 * each thread compiles pdfjs anew. Threads started from now on use it.
 */
export function useCodeCacheDir(dir: string | null): void {
  codeCacheDir = dir;
}

function builtEntry(script: URL): WorkerEntry {
  return { script, execArgv: withoutLoaders(process.execArgv), ...(codeCacheDir === null ? {} : { workerData: { codeCacheDir } }) };
}

/**
 * Runs the workers from this built worker script (e.g. `out/main/extract-worker.js`) instead of
 * the one found next to this module; null goes back to that. Idle workers of the old script are
 * retired, and so is one still loading pdfjs that no job has taken (a spare, or a split's future
 * helper), which would otherwise join the pool later with the old script. The benchmark uses it
 * to measure the code users run, not sources transpiled by tsx, and to start from an empty pool.
 */
export function useWorkerScript(file: string | null): void {
  scriptOverride = file;
  if (warming) retire(warming);
  for (const worker of [...idle]) retire(worker);
}

/**
 * Where the worker's code is. From source (vitest, tsx) the worker is the .ts file, loaded through
 * tsx; in the built app it is the `extract-worker` entry that electron-vite emits next to (or one
 * folder above, when this code lands in a chunk) the bundle that contains this module.
 */
export function workerEntry(): WorkerEntry | null {
  if (scriptOverride) return existsSync(scriptOverride) ? builtEntry(pathToFileURL(scriptOverride)) : null;
  const here = import.meta.url;
  if (here.endsWith('.ts')) {
    // Node 20 does not carry `--import` hooks into workers, so the worker registers tsx itself.
    const tsxApi = tsxEsmApiUrl();
    if (!tsxApi) return null;
    const worker = new URL('./extract-worker.ts', here).href;
    // pdfjs is loaded before tsx's hooks exist: through them its 4 MB of JavaScript takes seconds.
    // It is loaded as formats/pdfjs-load.ts loads it in the built app (patched, and with the native
    // Array.prototype.push put back afterwards); the patched source comes from here, made once.
    const require = createRequire(here);
    const pdfjs = pathToFileURL(require.resolve('pdfjs-dist/legacy/build/pdf.mjs')).href;
    const bootstrap =
      `const push = Array.prototype.push;` +
      `import(require('node:worker_threads').workerData.pdfjsWorkerUrl)` +
      `.then((pdfWorker) => { globalThis.pdfjsWorker = pdfWorker; return import(${JSON.stringify(pdfjs)}); })` +
      `.then(() => { Array.prototype.push = push; return import(${JSON.stringify(tsxApi)}); })` +
      `.then((tsx) => { tsx.register(); return import(${JSON.stringify(worker)}); });`;
    return { script: bootstrap, eval: true, workerData: { pdfjsWorkerUrl: patchedPdfjsWorkerUrl() } };
  }
  for (const candidate of ['./extract-worker.js', './extract-worker.mjs', '../extract-worker.js', '../extract-worker.mjs']) {
    const url = new URL(candidate, here);
    if (existsSync(fileURLToPath(url))) return builtEntry(url);
  }
  return null;
}

let pdfjsWorkerUrl: string | null = null;

/** pdfjs's worker module, patched (see formats/pdfjs-load.ts), as a data: URL; as is if it cannot be. */
function patchedPdfjsWorkerUrl(): string {
  if (!pdfjsWorkerUrl) {
    const file = pdfjsWorkerPath();
    const patched = patchWorkerSource(readFileSync(file, 'utf8'));
    pdfjsWorkerUrl = patched === null ? pathToFileURL(file).href : `data:text/javascript;base64,${Buffer.from(patched).toString('base64')}`;
  }
  return pdfjsWorkerUrl;
}

// --- slots -------------------------------------------------------------------------------------

let busySlots = 0;
const waiting: (() => void)[] = [];

/** Waits for a free worker slot; false when the signal aborts first. */
export function acquireSlot(signal: AbortSignal | undefined): Promise<boolean> {
  if (busySlots < MAX_WORKERS && waiting.length === 0) {
    busySlots += 1;
    return Promise.resolve(true);
  }
  return new Promise<boolean>((resolve) => {
    const onAbort = () => {
      const index = waiting.indexOf(grant);
      if (index >= 0) waiting.splice(index, 1);
      resolve(false);
    };
    const grant = () => {
      signal?.removeEventListener('abort', onAbort);
      busySlots += 1;
      resolve(true);
    };
    waiting.push(grant);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** A second slot for a split PDF, only if one is free now and no other file is waiting for it. */
export function tryAcquireSlot(): boolean {
  if (busySlots >= MAX_WORKERS || waiting.length > 0) return false;
  busySlots += 1;
  return true;
}

export function releaseSlot(): void {
  busySlots -= 1;
  waiting.shift()?.();
}

// --- workers -----------------------------------------------------------------------------------

export interface JobHandlers {
  onMessage: (message: WorkerMessage) => void;
  /** The thread died (crash, out of memory, exit) while this job had it. */
  onFailure: (message: string) => void;
}

export class ExtractWorker {
  pagesDone = 0;
  /** Jobs it was given. */
  jobs = 0;
  /** Started as the spare (see prewarm): kept without an idle timer until its first job. */
  spare = false;
  private handlers: JobHandlers | null = null;
  private onWarm: ((ok: boolean) => void) | null = null;
  private idleTimer: NodeJS.Timeout | null = null;
  alive = true;

  constructor(
    readonly thread: Worker,
    readonly heapMb: number,
  ) {
    thread.on('message', (message: WorkerMessage) => {
      if (message.type === 'warm') this.endWarm(true);
      else this.handlers?.onMessage(message);
    });
    thread.on('error', (err: Error) => {
      const code = 'code' in err ? err.code : undefined;
      this.die(code === 'ERR_WORKER_OUT_OF_MEMORY' ? 'ran out of memory while extracting (the file is too large or too complex)' : `extraction failed: ${err.message}`);
    });
    thread.on('exit', (code) => this.die(`extraction worker stopped unexpectedly (exit code ${code})`));
  }

  send(request: WorkerRequest): void {
    this.thread.postMessage(request);
  }

  attach(handlers: JobHandlers): void {
    this.handlers = handlers;
    this.jobs += 1;
    this.stopIdleTimer();
    this.thread.ref();
  }

  /**
   * Loads pdfjs in the thread; true once it has, false if the thread ends first. The thread keeps
   * the process alive until then (someone may be waiting for it), as a busy worker does. A job may
   * take the worker before it is done: the thread reads its requests in order, so the job's come after.
   */
  warm(): Promise<boolean> {
    return new Promise((resolve) => {
      this.onWarm = resolve;
      this.send({ type: 'warm', job: 0 });
    });
  }

  endWarm(ok: boolean): void {
    const settle = this.onWarm;
    this.onWarm = null;
    settle?.(ok);
  }

  detach(): void {
    this.handlers = null;
  }

  /** Idle: does not keep the process alive, and ends itself after IDLE_MS (unless it is the fresh spare). */
  park(): void {
    this.thread.unref();
    if (spareHeapMb !== null && this.spare && this.jobs === 0) return;
    this.idleTimer = setTimeout(() => retire(this), IDLE_MS);
    this.idleTimer.unref();
  }

  stopIdleTimer(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
  }

  private die(message: string): void {
    if (!this.alive) return;
    const handlers = this.handlers;
    retire(this);
    handlers?.onFailure(message);
  }
}

const live = new Set<ExtractWorker>();
const idle: ExtractWorker[] = [];
let started = 0;

/** How many worker threads this process has started (diagnostics; tests check reuse with it). */
export function workersStartedCount(): number {
  return started;
}

/** Worker threads ready and waiting for a job (pdfjs loaded). */
export function idleWorkerCount(): number {
  return idle.length;
}

/** Worker threads alive now, busy or idle. */
export function liveWorkerCount(): number {
  return live.size;
}

/** Ends a worker for good (terminate is asynchronous; it is forgotten at once). */
export function retire(worker: ExtractWorker): void {
  worker.stopIdleTimer();
  worker.detach();
  worker.endWarm(false);
  if (warming === worker) warming = null;
  const index = idle.indexOf(worker);
  if (index >= 0) idle.splice(index, 1);
  live.delete(worker);
  if (live.size === 0) scheduleSpare();
  if (!worker.alive) return;
  worker.alive = false;
  void worker.thread.terminate();
}

/** A worker for a job that holds a slot: a warm idle one when there is one, else a new thread. */
export function checkout(entry: WorkerEntry, heapMb: number, handlers: JobHandlers): ExtractWorker {
  // The idle worker that has read the most pages: its JIT has optimised the most of pdfjs, and the
  // other one, left idle, is retired sooner (taking turns kept both half-warm: a warm 36-page file
  // took 0.14 s on alternating workers against 0.12 s on one).
  let index = -1;
  idle.forEach((w, i) => {
    if (w.heapMb === heapMb && (index < 0 || w.pagesDone > (idle[index]?.pagesDone ?? 0))) index = i;
  });
  let worker: ExtractWorker;
  if (index >= 0) {
    worker = idle.splice(index, 1)[0];
  } else if (warming?.heapMb === heapMb) {
    // The spare, still loading pdfjs: sooner ready than a new thread.
    worker = warming;
    warming = null;
  } else {
    // Slots bound the busy workers; an idle one with other limits makes room for the new one.
    while (live.size >= MAX_WORKERS && idle.length > 0) retire(idle[0]);
    worker = startWorker(entry, heapMb);
  }
  worker.attach(handlers);
  return worker;
}

function startWorker(entry: WorkerEntry, heapMb: number): ExtractWorker {
  started += 1;
  const thread = new Worker(entry.script, { eval: entry.eval ?? false, workerData: entry.workerData, execArgv: entry.execArgv, resourceLimits: { maxOldGenerationSizeMb: heapMb } });
  const worker = new ExtractWorker(thread, heapMb);
  live.add(worker);
  return worker;
}

// --- the spare -----------------------------------------------------------------------------------

/** The heap cap of the spare while one is wanted (prewarm), else null. */
let spareHeapMb: number | null = null;
let spareTimer: NodeJS.Timeout | null = null;
let spareReady: Promise<boolean> | null = null;
/** A worker loading pdfjs before any job (the spare, or a split's future helper): live, not yet idle. */
let warming: ExtractWorker | null = null;

/**
 * From now on keeps one worker ready: started, pdfjs loaded, only the warm-up PDF read (see
 * formats/pdf-warm-up.ts). Resolves true
 * once a worker is ready (a live one counts). When the pool empties (idle workers retired, a crash)
 * a new spare replaces it; a used worker is retired after IDLE_MS as before, so what stays is a fresh
 * thread's memory, not the last document's. About 40 MB of RSS buys the first file its start-up.
 */
export function prewarm(heapMb: number): Promise<boolean> {
  spareHeapMb = heapMb;
  return ensureSpare();
}

/** No more spare: the idle spare ends (the app is closing, or a test is done). */
export function stopPrewarm(): void {
  spareHeapMb = null;
  if (spareTimer) clearTimeout(spareTimer);
  spareTimer = null;
  if (warming?.spare) retire(warming);
  for (const worker of [...idle]) if (worker.spare && worker.jobs === 0) retire(worker);
}

function ensureSpare(): Promise<boolean> {
  if (spareHeapMb === null) return Promise.resolve(false);
  if (spareReady) return spareReady;
  if (live.size > 0) return Promise.resolve(true);
  const entry = workerEntry();
  if (!entry) return Promise.resolve(false);
  spareReady = startWarm(entry, spareHeapMb, true).finally(() => {
    spareReady = null;
  });
  return spareReady;
}

/** A new thread that loads pdfjs before any job; a job arriving meanwhile takes it (see checkout). */
function startWarm(entry: WorkerEntry, heapMb: number, spare: boolean): Promise<boolean> {
  let worker: ExtractWorker;
  try {
    worker = startWorker(entry, heapMb);
  } catch {
    return Promise.resolve(false);
  }
  worker.spare = spare;
  warming = worker;
  return worker.warm().then((ok) => {
    const unclaimed = warming === worker;
    if (unclaimed) warming = null;
    if (!ok || !worker.alive) return false;
    if (unclaimed) {
      idle.push(worker);
      worker.park();
    }
    return true;
  });
}

/** Soon, not inside the retire that emptied the pool (which may be in the middle of a job's failure). */
function scheduleSpare(): void {
  if (spareHeapMb === null || spareTimer) return;
  spareTimer = setTimeout(() => {
    spareTimer = null;
    void ensureSpare();
  }, 0);
  spareTimer.unref();
}

/**
 * After a file that was not split for want of a warm helper: a second worker started and warmed
 * while nothing waits for it, so the next such file is split. It is retired after IDLE_MS unused.
 */
export function warmSecondWorker(entry: WorkerEntry, heapMb: number): void {
  if (live.size >= MAX_WORKERS || warming) return;
  void startWarm(entry, heapMb, false);
}

/** Whether a worker with pdfjs loaded (or loading) waits idle: a split's helper then costs no start-up. */
export function hasWarmWorker(heapMb: number): boolean {
  return idle.some((w) => w.heapMb === heapMb) || warming?.heapMb === heapMb;
}

/** Back to the pool after a job that ended normally, unless it has done enough to be recycled. */
export function checkin(worker: ExtractWorker, heapBytes: number): void {
  worker.detach();
  if (!worker.alive) return;
  if (worker.pagesDone >= RECYCLE_AFTER_PAGES || heapBytes > RECYCLE_HEAP_BYTES || idle.length >= MAX_WORKERS) {
    retire(worker);
    return;
  }
  idle.push(worker);
  worker.park();
}
