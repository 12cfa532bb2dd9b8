// extractFile: runs one extraction in a worker thread and always resolves to a typed result —
// crashes, timeouts, cancellation, out-of-memory and bad files all become `status: 'error'`.
import { existsSync, readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { type WorkerMessage } from './extract-worker';
import { type ExtractionResult } from './types';

export const DEFAULT_TIMEOUT_MS = 120_000;
export const DEFAULT_MAX_BYTES = 200 * 1024 * 1024;
const DEFAULT_MAX_HEAP_MB = 2048;
/** The machine is shared with the UI and the agent; two extractions at once is plenty. */
const MAX_CONCURRENT = 2;

export interface ExtractOptions {
  onProgress?: (done: number, total: number | null) => void;
  signal?: AbortSignal;
  timeoutMs?: number;
  maxBytes?: number;
  /** Old-generation heap cap of the worker; exceeding it ends the extraction with an error. */
  maxHeapMb?: number;
}

/** Results that depend on circumstance (not on the file) and so must not be cached. */
export function isRetryable(result: ExtractionResult): boolean {
  return result.status === 'error' && (result.message === CANCELLED || (result.message?.startsWith('extraction timed out') ?? false));
}

const CANCELLED = 'extraction cancelled';

function failure(message: string): ExtractionResult {
  return { status: 'error', markdown: '', pages: null, message };
}

function formatMb(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

interface WorkerEntry {
  /** A module URL, or (from source) bootstrap code to run with `eval`. */
  script: URL | string;
  eval?: boolean;
}

/**
 * Where the worker's code is. From source (vitest, tsx) the worker is the .ts file, loaded through
 * tsx; in the built app it is the `extract-worker` entry that electron-vite emits next to (or one
 * folder above, when this code lands in a chunk) the bundle that contains this module.
 */
function workerEntry(): WorkerEntry | null {
  const here = import.meta.url;
  if (here.endsWith('.ts')) {
    // Node 20 does not carry `--import` hooks into workers, so the worker registers tsx itself.
    const tsxApi = tsxEsmApiUrl();
    if (!tsxApi) return null;
    const worker = new URL('./extract-worker.ts', here).href;
    // pdfjs is loaded before tsx's hooks exist: through them its 4 MB of JavaScript takes seconds.
    const require = createRequire(here);
    const pdfjs = ['pdfjs-dist/legacy/build/pdf.worker.mjs', 'pdfjs-dist/legacy/build/pdf.mjs'].map((m) => pathToFileURL(require.resolve(m)).href);
    const bootstrap =
      `Promise.all(${JSON.stringify(pdfjs)}.map((m) => import(m)))` +
      `.then(([pdfWorker]) => { globalThis.pdfjsWorker = pdfWorker; return import(${JSON.stringify(tsxApi)}); })` +
      `.then((tsx) => { tsx.register(); return import(${JSON.stringify(worker)}); });`;
    return { script: bootstrap, eval: true };
  }
  for (const candidate of ['./extract-worker.js', './extract-worker.mjs', '../extract-worker.js', '../extract-worker.mjs']) {
    const url = new URL(candidate, here);
    if (existsSync(fileURLToPath(url))) return { script: url };
  }
  return null;
}

/** tsx's ESM API (its CommonJS twin resolves its loader from the wrong folder). */
function tsxEsmApiUrl(): string | null {
  try {
    const require = createRequire(import.meta.url);
    const pkgPath = require.resolve('tsx/package.json');
    const pkg = JSON.parse(readFileSync(pkgPath, 'utf8')) as { exports?: Record<string, { import?: { default?: string } } | string> };
    const api = pkg.exports?.['./esm/api'];
    const rel = typeof api === 'object' ? api.import?.default : undefined;
    return rel ? pathToFileURL(path.join(path.dirname(pkgPath), rel)).href : null;
  } catch {
    return null;
  }
}

let workersStarted = 0;

/** How many extraction workers this process has started (diagnostics; tests check cache reuse with it). */
export function workersStartedCount(): number {
  return workersStarted;
}

let running = 0;
const waiting: (() => void)[] = [];

async function acquireSlot(signal: AbortSignal | undefined): Promise<boolean> {
  if (running < MAX_CONCURRENT) {
    running += 1;
    return true;
  }
  return new Promise<boolean>((resolve) => {
    const onAbort = () => {
      const index = waiting.indexOf(grant);
      if (index >= 0) waiting.splice(index, 1);
      resolve(false);
    };
    const grant = () => {
      signal?.removeEventListener('abort', onAbort);
      running += 1;
      resolve(true);
    };
    waiting.push(grant);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function releaseSlot(): void {
  running -= 1;
  waiting.shift()?.();
}

function runWorker(absPath: string, entry: WorkerEntry, opts: ExtractOptions): Promise<ExtractionResult> {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  workersStarted += 1;
  return new Promise<ExtractionResult>((resolve) => {
    const worker = new Worker(entry.script, {
      workerData: { path: absPath },
      eval: entry.eval ?? false,
      resourceLimits: { maxOldGenerationSizeMb: opts.maxHeapMb ?? DEFAULT_MAX_HEAP_MB },
    });
    let settled = false;
    const finish = (result: ExtractionResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
      resolve(result);
      // The result is in hand; the worker has nothing left worth waiting for.
      void worker.terminate();
    };
    const onAbort = () => finish(failure(CANCELLED));
    const limit = timeoutMs < 1000 ? `${timeoutMs} ms` : `${Math.round(timeoutMs / 1000)} s`;
    const timer = setTimeout(() => finish(failure(`extraction timed out after ${limit}`)), timeoutMs);
    opts.signal?.addEventListener('abort', onAbort, { once: true });

    worker.on('message', (message: WorkerMessage) => {
      if (message.type === 'progress') opts.onProgress?.(message.done, message.total);
      else finish(message.result);
    });
    worker.on('error', (err: Error) => {
      const code = 'code' in err ? err.code : undefined;
      if (code === 'ERR_WORKER_OUT_OF_MEMORY') finish(failure('ran out of memory while extracting (the file is too large or too complex)'));
      else finish(failure(`extraction failed: ${err.message}`));
    });
    worker.on('exit', (code) => finish(failure(`extraction worker stopped unexpectedly (exit code ${code})`)));
  });
}

export async function extractFile(absPath: string, opts: ExtractOptions = {}): Promise<ExtractionResult> {
  if (opts.signal?.aborted) return failure(CANCELLED);
  let size: number;
  try {
    const stat = await fs.stat(absPath);
    if (!stat.isFile()) return failure('not a file');
    size = stat.size;
  } catch {
    return failure('file not found');
  }
  if (size === 0) return failure('empty file');
  const maxBytes = opts.maxBytes ?? DEFAULT_MAX_BYTES;
  if (size > maxBytes) return failure(`too large: ${formatMb(size)} (the limit is ${formatMb(maxBytes)})`);

  const entry = workerEntry();
  if (!entry) return failure('extraction is unavailable: the extract-worker script was not found');
  if (!(await acquireSlot(opts.signal))) return failure(CANCELLED);
  try {
    if (opts.signal?.aborted) return failure(CANCELLED);
    return await runWorker(absPath, entry, opts);
  } catch (err) {
    return failure(`extraction failed: ${err instanceof Error ? err.message : String(err)}`);
  } finally {
    releaseSlot();
  }
}
