// Main-thread side of figure finding: sends the pages to an extraction worker (pdfjs and its
// memory stay off the main thread, and a stuck page can be terminated) and waits for the answer,
// holding one of the pool's slots like an extraction does.
import { type WorkerMessage } from '../extract-worker';
import { acquireSlot, checkin, checkout, releaseSlot, retire, workerEntry } from '../worker-pool';
import type { PageFigures } from './analyze';

export const LOCATE_TIMEOUT_MS = 120_000;
const MAX_HEAP_MB = 1024;

/** The figures could not be located (no worker, unreadable PDF, timeout, cancel). */
export class FigureLocateError extends Error {
  constructor(
    message: string,
    readonly cancelled = false,
  ) {
    super(message);
    this.name = 'FigureLocateError';
  }
}

// Extraction jobs count up from 1; these count down so the two never share an id.
let nextJob = -1;

export interface LocateOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
}

/** Images (with captions), drawn figures and unclaimed captions of `pages` (1-based) of a PDF. */
export async function locateFigures(absPath: string, pages: readonly number[], opts: LocateOptions = {}): Promise<PageFigures[]> {
  const entry = workerEntry();
  if (!entry) throw new FigureLocateError('the extract-worker script was not found');
  if (!(await acquireSlot(opts.signal))) throw new FigureLocateError('cancelled', true);
  const job = nextJob--;
  try {
    return await new Promise<PageFigures[]>((resolve, reject) => {
      let settled = false;
      const timeoutMs = opts.timeoutMs ?? LOCATE_TIMEOUT_MS;
      const finish = (outcome: () => void, reuse: boolean, heapBytes = 0) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        opts.signal?.removeEventListener('abort', onAbort);
        if (reuse) checkin(worker, heapBytes);
        else retire(worker);
        outcome();
      };
      const fail = (message: string, cancelled = false) => finish(() => reject(new FigureLocateError(message, cancelled)), false);
      const onAbort = () => fail('cancelled', true);
      const worker = checkout(entry, MAX_HEAP_MB, {
        onMessage: (message: WorkerMessage) => {
          if (message.job !== job) return;
          if (message.type === 'figures') finish(() => resolve(message.pages), true, message.stats.heapBytes);
          else if (message.type === 'result') fail(message.result.message ?? 'the PDF could not be read');
        },
        onFailure: (message) => fail(message),
      });
      const timer = setTimeout(() => fail(`finding figures took longer than ${Math.round(timeoutMs / 1000)} s`), timeoutMs);
      opts.signal?.addEventListener('abort', onAbort, { once: true });
      if (opts.signal?.aborted) onAbort();
      else worker.send({ type: 'figures', job, path: absPath, pages: [...pages] });
    });
  } finally {
    releaseSlot();
  }
}
