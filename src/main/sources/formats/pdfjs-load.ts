// Loads pdfjs-dist's legacy build inside an extraction worker, with repairs that make its text
// extraction several times faster (measured on a 300-page CJK/English PDF and a 139-page TeX book
// in Chinese; see bench/pdf-extract):
//
// 1. Its core-js polyfills replace Array.prototype.push on V8 <= 12.1 (Node 20) with a JavaScript
//    version, for a corner case (pushing onto an array whose length is read-only) pdfjs never hits.
//    Every push in the isolate then leaves V8's fast path. The worker is its own isolate, so putting
//    the native push back touches no other code.
// 2. Its worker code is patched as text (pdfjs-patches.ts) and loaded from a data: URL.
// 3. In an extraction thread given a code cache folder, both modules run as scripts with V8's code
//    cache instead (pdfjs-code-cache.ts).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { workerData } from 'node:worker_threads';
import type * as PdfjsModule from 'pdfjs-dist/legacy/build/pdf.mjs';
import { withDeferredCanvas } from './canvas-deferral';
import { type CachedModule, loadCachedModule } from './pdfjs-code-cache';
import { patchWorkerSource } from './pdfjs-patches';

export type Pdfjs = typeof PdfjsModule;

export function pdfjsWorkerPath(): string {
  return createRequire(import.meta.url).resolve('pdfjs-dist/legacy/build/pdf.worker.mjs');
}

/** The folder of pdfjs's code caches, which the pool gives an extraction thread; null elsewhere. */
function codeCacheDir(): string | null {
  const data: unknown = workerData;
  const dir: unknown = typeof data === 'object' && data !== null && 'codeCacheDir' in data ? data.codeCacheDir : null;
  return typeof dir === 'string' ? dir : null;
}

const cachedModules: CachedModule[] = [];

/** The module's exports run from its code cache, or null to import it as a module. */
function fromCodeCache(file: string, source: () => string, name: string): unknown {
  const dir = codeCacheDir();
  const loaded = dir === null ? null : loadCachedModule(file, source(), dir, name);
  if (loaded === null) return null;
  cachedModules.push(loaded);
  return loaded.exports;
}

/** Stores the code caches this thread did not load from (after the warm-up PDF, so its functions are in them). */
export function saveCodeCaches(): void {
  for (const loaded of cachedModules) loaded.save();
}

/** Whether this thread's pdfjs came from code caches (tests). */
export function pdfjsFromCodeCache(): boolean {
  return cachedModules.length > 0 && cachedModules.every((loaded) => loaded.fromCache);
}

async function importWorker(): Promise<unknown> {
  const file = pdfjsWorkerPath();
  const source = readFileSync(file, 'utf8');
  const patched = patchWorkerSource(source);
  const cached = fromCodeCache(file, () => patched ?? source, 'pdfjs-worker');
  if (cached !== null) return cached;
  if (patched === null) return import(pathToFileURL(file).href);
  return import(`data:text/javascript;base64,${Buffer.from(patched).toString('base64')}`);
}

type MessageListener = (event: { data: unknown }) => void;

/** A stream chunk's sender reuses the chunk object (it swaps in new item arrays); the receiver gets a copy. */
function detachChunk(message: unknown): unknown {
  if (typeof message !== 'object' || message === null || !('chunk' in message)) return message;
  const chunk: unknown = message.chunk;
  return typeof chunk === 'object' && chunk !== null && !ArrayBuffer.isView(chunk) ? { ...message, chunk: { ...chunk } } : message;
}

/**
 * What pdfjs's two halves talk through when both run in this thread. pdfjs's own "fake worker"
 * port structured-clones every message (every page's text items); this one hands the objects over
 * as they are. Neither side changes what it sent, except that the parser reuses the object of a
 * stream chunk (it puts new item arrays into it), so that one level is copied. The document's bytes
 * are the parser's alone once sent.
 */
export class DirectPort {
  private readonly listeners = new Set<MessageListener>();

  postMessage(message: unknown): void {
    const data = detachChunk(message);
    queueMicrotask(() => {
      for (const listener of this.listeners) listener.call(this, { data });
    });
  }

  addEventListener(_type: string, listener: MessageListener): void {
    this.listeners.add(listener);
  }

  removeEventListener(_type: string, listener: MessageListener): void {
    this.listeners.delete(listener);
  }

  terminate(): void {
    this.listeners.clear();
  }
}

interface PdfjsWorkerModule {
  WorkerMessageHandler: { initializeFromPort: (port: DirectPort) => void };
}

function isWorkerModule(value: unknown): value is PdfjsWorkerModule {
  if (typeof value !== 'object' || value === null || !('WorkerMessageHandler' in value)) return false;
  const handler: unknown = value.WorkerMessageHandler;
  return typeof handler === 'function' && 'initializeFromPort' in handler && typeof handler.initializeFromPort === 'function';
}

/** A pdfjs worker for one document, connected through a DirectPort; null if pdfjs lacks the hooks. */
export function directWorker(pdfjs: Pdfjs): InstanceType<Pdfjs['PDFWorker']> | null {
  const workerModule = (globalThis as { pdfjsWorker?: unknown }).pdfjsWorker;
  if (!isWorkerModule(workerModule)) return null;
  const port = new DirectPort();
  workerModule.WorkerMessageHandler.initializeFromPort(port);
  // pdfjs calls it a Worker port; it uses only postMessage and the listener methods.
  return pdfjs.PDFWorker.create({ port });
}

/**
 * getDocument parameters for reading text and positions only: text needs neither glyph outlines
 * nor system fonts, and skipping them skips font loading work. Shared by source extraction and the
 * rendered-slide check.
 */
export function textOnlyParams(pdfjs: Pdfjs, data: Uint8Array, worker: InstanceType<Pdfjs['PDFWorker']> | null) {
  return {
    data,
    ...(worker ? { worker } : {}),
    useSystemFonts: false,
    disableFontFace: true,
    fontExtraProperties: false,
    isEvalSupported: false,
    isOffscreenCanvasSupported: false,
    verbosity: pdfjs.VerbosityLevel.ERRORS,
  };
}

let pdfjsPromise: Promise<Pdfjs> | null = null;

/**
 * pdfjs runs its parser in-process in Node (a "fake worker"; we are already off the main thread).
 * Handing it the worker module up front saves it a dynamic import of its own, and its canvas
 * module is deferred (canvas-deferral.ts). When the tsx bootstrap of a from-source worker already loaded pdfjs (see worker-pool.ts), this reuses it.
 */
export function loadPdfjs(): Promise<Pdfjs> {
  pdfjsPromise ??= (async () => {
    const nativePush = Array.prototype.push;
    const holder = globalThis as { pdfjsWorker?: unknown };
    holder.pdfjsWorker ??= await importWorker();
    const displayFile = createRequire(import.meta.url).resolve('pdfjs-dist/legacy/build/pdf.mjs');
    const pdfjs = await withDeferredCanvas(displayFile, async () => {
      const cached = fromCodeCache(displayFile, () => readFileSync(displayFile, 'utf8'), 'pdfjs-display');
      return cached === null ? import('pdfjs-dist/legacy/build/pdf.mjs') : (cached as Pdfjs);
    });
    // Putting the native method back (see above), not extending a built-in.
    Array.prototype.push = nativePush;
    return pdfjs;
  })();
  return pdfjsPromise;
}
