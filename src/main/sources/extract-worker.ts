// Worker-thread entry. Running here keeps pdfjs's CPU work and memory off the main thread, and a
// stuck or crashing extraction can be terminated without taking the app down. A worker lives on
// between files (the main thread recycles it), so pdfjs is loaded and JIT-compiled once, not per file.
//
// Protocol, one job at a time: `extract` reads and classifies a file; anything but a PDF is
// extracted whole and answered with `result`. A PDF is opened and answered with `pdf` (page count,
// head); the main thread then asks for page ranges (`pages`), possibly of two workers at once
// (the second one joins with `open-pdf`), and ends the job with `close`. `figures` reads where the
// images, drawings and captions of some PDF pages are (sources/figures/) and answers `figures`.
import path from 'node:path';
import v8 from 'node:v8';
import { parentPort, threadId } from 'node:worker_threads';
import { classifyBytes, extractClassified, withNote } from './extract-in-thread';
import { type PageText, type PdfHead } from './formats/pdf-assemble';
import { type PdfSession } from './formats/pdf';
import { findFigures, type PageFigures } from './figures/analyze';
import { maxCacheChars, tooLarge } from './limits';
import { type ExtractionResult, type WorkerDiagnostics } from './types';
import { readRegularFile } from '../workspace/task-paths';

export type WorkerRequest =
  | { type: 'extract'; job: number; path: string }
  | { type: 'open-pdf'; job: number; path: string }
  | { type: 'pages'; job: number; from: number; to: number }
  | { type: 'close'; job: number }
  | { type: 'figures'; job: number; path: string; pages: number[] }
  /** Load pdfjs and read a small PDF now, while nobody waits, so the first PDF does not pay for it. */
  | { type: 'warm'; job: number };

export interface WorkerStats extends WorkerDiagnostics {
  /** Heap in use now, after the work: the main thread recycles a worker whose heap stays large. */
  heapBytes: number;
}

export type WorkerMessage =
  | { type: 'progress'; job: number; done: number; total: number | null }
  | { type: 'result'; job: number; result: ExtractionResult; stats: WorkerStats }
  | { type: 'pdf'; job: number; total: number; head: PdfHead | null; note?: string }
  /** The pages asked for, from `from` on, in one message: a message per page cost more than its text. */
  | { type: 'pages-done'; job: number; from: number; pages: PageText[]; stats: WorkerStats }
  | { type: 'figures'; job: number; pages: PageFigures[]; stats: WorkerStats }
  | { type: 'warm'; job: number; stats: WorkerStats };

function post(message: WorkerMessage): void {
  parentPort?.postMessage(message);
}

let peakHeapBytes = 0;
function sampleHeap(): number {
  const used = v8.getHeapStatistics().used_heap_size;
  if (used > peakHeapBytes) peakHeapBytes = used;
  return used;
}

function stats(): WorkerStats {
  const heapBytes = sampleHeap();
  return { threadId, threads: 1, maxRssBytes: process.resourceUsage().maxRSS * 1024, peakHeapBytes, heapBytes };
}

function failure(message: string): ExtractionResult {
  return { status: 'error', markdown: '', pages: null, message };
}

/** The open PDF of the current job, if any. */
let open: { job: number; session: PdfSession } | null = null;

async function closeOpen(): Promise<void> {
  const current = open;
  open = null;
  await current?.session.close();
}

async function openSession(job: number, bytes: Uint8Array, withHead: boolean, note?: string): Promise<void> {
  const { openPdf } = await import('./formats/pdf');
  const opened = await openPdf(bytes);
  if ('failure' in opened) {
    post({ type: 'result', job, result: opened.failure, stats: stats() });
    return;
  }
  open = { job, session: opened.session };
  const head = withHead ? await opened.session.head() : null;
  post({ type: 'pdf', job, total: opened.session.total, head, ...(note ? { note } : {}) });
}

async function handle(request: WorkerRequest): Promise<void> {
  switch (request.type) {
    case 'extract': {
      await closeOpen();
      peakHeapBytes = 0;
      sampleHeap();
      const bytes = new Uint8Array(await readRegularFile(request.path));
      const classified = await classifyBytes(bytes, path.basename(request.path));
      if ('failure' in classified) {
        post({ type: 'result', job: request.job, result: classified.failure, stats: stats() });
      } else if (classified.kind === 'pdf') {
        await openSession(request.job, bytes, true, classified.note);
      } else {
        const result = await extractClassified(classified, bytes, (done, total) => {
          sampleHeap();
          post({ type: 'progress', job: request.job, done, total });
        });
        const limit = maxCacheChars(bytes.length);
        // Checked here so an oversized text never crosses to the main thread.
        const bounded = result.markdown.length > limit ? failure(tooLarge('the extracted text is', result.markdown.length, limit)) : withNote(result, classified.note);
        post({ type: 'result', job: request.job, result: bounded, stats: stats() });
      }
      return;
    }
    case 'open-pdf': {
      await closeOpen();
      peakHeapBytes = 0;
      sampleHeap();
      await openSession(request.job, new Uint8Array(await readRegularFile(request.path)), false);
      return;
    }
    case 'pages': {
      if (open?.job !== request.job) throw new Error(`no open PDF for job ${request.job}`);
      const pages: PageText[] = [];
      for (let n = request.from; n <= request.to; n += 1) {
        pages.push(await open.session.page(n));
        sampleHeap();
      }
      post({ type: 'pages-done', job: request.job, from: request.from, pages, stats: stats() });
      return;
    }
    case 'close':
      if (open?.job === request.job) await closeOpen();
      return;
    case 'warm': {
      const { loadPdfjs, saveCodeCaches } = await import('./formats/pdfjs-load');
      await loadPdfjs();
      // A first document's JIT warm-up and per-thread data, paid now rather than by the first file.
      const { warmUpPdfText } = await import('./formats/pdf-warm-up');
      await warmUpPdfText().catch(() => undefined);
      saveCodeCaches();
      post({ type: 'warm', job: request.job, stats: stats() });
      return;
    }
    case 'figures': {
      await closeOpen();
      peakHeapBytes = 0;
      const { readPageLayouts } = await import('./figures/layout');
      const layouts = await readPageLayouts(new Uint8Array(await readRegularFile(request.path)), request.pages);
      post({ type: 'figures', job: request.job, pages: layouts.map(findFigures), stats: stats() });
      return;
    }
  }
}

// One request at a time, in order: a `close` must finish before the next job's `extract` starts.
let queue = Promise.resolve();
parentPort?.on('message', (request: WorkerRequest) => {
  queue = queue
    .then(() => handle(request))
    .catch((err: unknown) => {
      const message = err instanceof Error ? err.message : String(err);
      post({ type: 'result', job: request.job, result: failure(`extraction failed: ${message}`), stats: stats() });
    });
});
