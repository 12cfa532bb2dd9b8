// The extraction workers: at most MAX_WORKERS busy at once (a PDF split in two holds two slots),
// kept warm between files so pdfjs is loaded and JIT-compiled once, and recycled so their memory
// stays bounded: after RECYCLE_AFTER_PAGES pages, when their heap stays above RECYCLE_HEAP_BYTES
// after a job, after IDLE_MS without work, or at once after any failure.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { tsxEsmApiUrl, type WorkerEntry, withoutLoaders } from '../workers/entry';
import { type WorkerMessage, type WorkerRequest } from './extract-worker';
import { patchWorkerSource, pdfjsWorkerPath } from './formats/pdfjs-load';

/** The machine is shared with the UI and the agent; two extraction threads at once is plenty. */
export const MAX_WORKERS = 2;
const RECYCLE_AFTER_PAGES = 5000;
const RECYCLE_HEAP_BYTES = 256 * 1024 * 1024;
const IDLE_MS = 30_000;

export { withoutLoaders, type WorkerEntry };

let scriptOverride: string | null = null;

/**
 * Runs the workers from this built worker script (e.g. `out/main/extract-worker.js`) instead of
 * the one found next to this module; null goes back to that. Idle workers of the old script are
 * retired. The benchmark uses it to measure the code users run, not sources transpiled by tsx.
 */
export function useWorkerScript(file: string | null): void {
  scriptOverride = file;
  for (const worker of [...idle]) retire(worker);
}

/**
 * Where the worker's code is. From source (vitest, tsx) the worker is the .ts file, loaded through
 * tsx; in the built app it is the `extract-worker` entry that electron-vite emits next to (or one
 * folder above, when this code lands in a chunk) the bundle that contains this module.
 */
export function workerEntry(): WorkerEntry | null {
  if (scriptOverride) return existsSync(scriptOverride) ? { script: pathToFileURL(scriptOverride), execArgv: withoutLoaders(process.execArgv) } : null;
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
    if (existsSync(fileURLToPath(url))) return { script: url, execArgv: withoutLoaders(process.execArgv) };
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
  private handlers: JobHandlers | null = null;
  private idleTimer: NodeJS.Timeout | null = null;
  alive = true;

  constructor(
    readonly thread: Worker,
    readonly heapMb: number,
  ) {
    thread.on('message', (message: WorkerMessage) => this.handlers?.onMessage(message));
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
    this.stopIdleTimer();
    this.thread.ref();
  }

  detach(): void {
    this.handlers = null;
  }

  /** Idle: does not keep the process alive, and ends itself after IDLE_MS. */
  park(): void {
    this.thread.unref();
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

/** Worker threads alive now, busy or idle. */
export function liveWorkerCount(): number {
  return live.size;
}

/** Ends a worker for good (terminate is asynchronous; it is forgotten at once). */
export function retire(worker: ExtractWorker): void {
  worker.stopIdleTimer();
  worker.detach();
  const index = idle.indexOf(worker);
  if (index >= 0) idle.splice(index, 1);
  live.delete(worker);
  if (!worker.alive) return;
  worker.alive = false;
  void worker.thread.terminate();
}

/** A worker for a job that holds a slot: a warm idle one when there is one, else a new thread. */
export function checkout(entry: WorkerEntry, heapMb: number, handlers: JobHandlers): ExtractWorker {
  const index = idle.findIndex((w) => w.heapMb === heapMb);
  let worker: ExtractWorker;
  if (index >= 0) {
    worker = idle.splice(index, 1)[0];
  } else {
    // Slots bound the busy workers; an idle one with other limits makes room for the new one.
    while (live.size >= MAX_WORKERS && idle.length > 0) retire(idle[0]);
    started += 1;
    const thread = new Worker(entry.script, { eval: entry.eval ?? false, workerData: entry.workerData, execArgv: entry.execArgv, resourceLimits: { maxOldGenerationSizeMb: heapMb } });
    worker = new ExtractWorker(thread, heapMb);
    live.add(worker);
  }
  worker.attach(handlers);
  return worker;
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
