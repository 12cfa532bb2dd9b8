// extractFile: runs one extraction in worker threads and always resolves to a typed result —
// crashes, timeouts, cancellation, out-of-memory and bad files all become `status: 'error'`.
// A large PDF is split across two workers when a second one is free; pages are merged in order.
// A very long one is read by one worker, whose memory stays that of one document.
import fs from 'node:fs/promises';
import { type WorkerMessage, type WorkerStats } from './extract-worker';
import { assemblePdf, type PageText, type PdfHead } from './formats/pdf-assemble';
import { formatMb, maxCacheChars, tooLarge } from './limits';
import { PageCollector, PageQueue, SPLIT_MAX_PAGES, SPLIT_MIN_PAGES } from './page-split';
import { type ExtractionResult, type WorkerDiagnostics } from './types';
import { acquireSlot, checkin, checkout, type ExtractWorker, hasWarmWorker, MAX_WORKERS, prewarm, releaseSlot, retire, stopPrewarm, tryAcquireSlot, useCodeCacheDir, warmSecondWorker, type WorkerEntry, workerEntry } from './worker-pool';

export { idleWorkerCount, liveWorkerCount, stopPrewarm, useCodeCacheDir, useWorkerScript, workersStartedCount } from './worker-pool';

export const DEFAULT_TIMEOUT_MS = 120_000;
export const DEFAULT_MAX_BYTES = 200 * 1024 * 1024;
/** Enough for the largest PDFs measured (see bench/pdf-extract); a runaway extraction ends at it. */
const DEFAULT_MAX_HEAP_MB = 1024;
/** Each worker of a split holds its own copy of the file: past this size, one worker does it all. */
const SPLIT_MAX_BYTES = 64 * 1024 * 1024;
/**
 * A helper that must first start a thread and load pdfjs (a second or more of CPU) only pays off
 * on a long document; a shorter one is split only when a warm worker is idle. Otherwise the new
 * thread's start-up competes with the lead for the CPU and the file finishes later (measured on the
 * 139-page Chinese book, bench/pdf-extract).
 */
const COLD_HELPER_MIN_PAGES = 400;

/** After start-up, long enough for the window or the first requests to be served first. */
const PREWARM_DELAY_MS = 1500;

/** Keeps an extraction worker ready (pdfjs loaded) from now on; true once one is. */
export function prewarmExtraction(): Promise<boolean> {
  return prewarm(DEFAULT_MAX_HEAP_MB);
}

/**
 * For the app and `folio serve`: prewarm once start-up is over, on a timer that keeps no process
 * alive, with pdfjs's code cache kept in `codeCacheDir` (see formats/pdfjs-code-cache.ts). The
 * returned function cancels it and ends the spare (call it when closing).
 */
export function scheduleExtractionPrewarm(codeCacheDir: string | null, delayMs = PREWARM_DELAY_MS): () => void {
  useCodeCacheDir(codeCacheDir);
  const timer = setTimeout(() => void prewarmExtraction(), delayMs);
  timer.unref();
  return () => {
    clearTimeout(timer);
    stopPrewarm();
  };
}

export interface ExtractOptions {
  onProgress?: (done: number, total: number | null) => void;
  signal?: AbortSignal;
  timeoutMs?: number;
  maxBytes?: number;
  /** Old-generation heap cap of each worker; exceeding it ends the extraction with an error. */
  maxHeapMb?: number;
  /** At most this many worker threads for this file (1 or 2; default 2, when a second is free). */
  maxWorkers?: number;
}

/** Results that depend on circumstance (not on the file) and so must not be cached. */
export function isRetryable(result: ExtractionResult): boolean {
  return result.status === 'error' && (result.message === CANCELLED || (result.message?.startsWith('extraction timed out') ?? false));
}

const CANCELLED = 'extraction cancelled';

function failure(message: string): ExtractionResult {
  return { status: 'error', markdown: '', pages: null, message };
}

let extractionsStarted = 0;

/** How many extractions (of any number of workers) this process has run; the cache tests count them. */
export function extractionsStartedCount(): number {
  return extractionsStarted;
}

let nextJobId = 1;

interface Member {
  worker: ExtractWorker;
  /** The lead holds the caller's slot; a helper holds a slot of its own. */
  lead: boolean;
  /** Has opened the PDF, so it can be given pages. */
  ready: boolean;
  /** Waiting for the answer to a `pages` request. */
  working: boolean;
  /** A helper that finished its part and went back to the pool. */
  released: boolean;
  pages: number;
  stats: WorkerStats | null;
}

/** One file's extraction: its workers, the PDF pages in flight, and the single way it ends. */
class ExtractionJob {
  private readonly id = nextJobId++;
  private readonly members: Member[] = [];
  private timer: NodeJS.Timeout | null = null;
  private queue: PageQueue | null = null;
  private collector: PageCollector | null = null;
  private head: PdfHead = { outline: [] };
  private note: string | undefined;
  private settled = false;
  /** Characters of PDF page text received so far, held to the cache limit as they arrive. */
  private pageChars = 0;
  /** Split-worthy, but no warm worker was there to help: one is warmed for the next file. */
  private wantedHelper = false;

  constructor(
    private readonly absPath: string,
    private readonly size: number,
    private readonly entry: WorkerEntry,
    private readonly opts: ExtractOptions,
    private readonly resolve: (result: ExtractionResult) => void,
  ) {}

  start(): void {
    const lead = this.enlist(true);
    const timeoutMs = this.opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const limit = timeoutMs < 1000 ? `${timeoutMs} ms` : `${Math.round(timeoutMs / 1000)} s`;
    this.timer = setTimeout(() => this.fail(`extraction timed out after ${limit}`), timeoutMs);
    this.opts.signal?.addEventListener('abort', this.onAbort, { once: true });
    lead.worker.send({ type: 'extract', job: this.id, path: this.absPath });
  }

  private readonly onAbort = () => this.fail(CANCELLED);

  private enlist(lead: boolean): Member {
    const handlers = {
      onMessage: (message: WorkerMessage) => this.onMessage(member, message),
      onFailure: (message: string) => this.fail(message),
    };
    const member: Member = { worker: checkout(this.entry, this.opts.maxHeapMb ?? DEFAULT_MAX_HEAP_MB, handlers), lead, ready: false, working: false, released: false, pages: 0, stats: null };
    this.members.push(member);
    return member;
  }

  private onMessage(member: Member, message: WorkerMessage): void {
    if (this.settled || member.released || message.job !== this.id) return;
    switch (message.type) {
      case 'progress':
        this.opts.onProgress?.(message.done, message.total);
        return;
      case 'result':
        member.stats = message.stats;
        if (member.lead) this.succeed(message.result);
        // A helper that cannot open the file just leaves; the lead still can.
        else this.release(member);
        return;
      case 'pdf':
        this.onPdf(member, message.total, message.head, message.note);
        return;
      case 'pages-done':
        member.stats = message.stats;
        for (const [i, page] of message.pages.entries()) {
          // A progress callback may have cancelled the job, or the text passed the cache limit.
          if (this.settled) return;
          this.addPage(member, message.from + i, page);
        }
        if (this.settled) return;
        member.working = false;
        this.dispatch(member);
        return;
    }
  }

  /** Takes one page's text, or fails the job when the text passes the cache limit. */
  private addPage(member: Member, n: number, page: PageText): void {
    if (!this.collector?.add(n, page)) return;
    this.pageChars += page.text.length;
    const limit = maxCacheChars(this.size);
    if (this.pageChars > limit) {
      this.fail(tooLarge('the extracted text is more than', limit, limit));
      return;
    }
    member.pages += 1;
    member.worker.pagesDone += 1;
    this.opts.onProgress?.(this.collector.done, this.collector.total);
  }

  private onPdf(member: Member, total: number, head: PdfHead | null, note: string | undefined): void {
    if (member.lead) {
      this.head = head ?? { outline: [] };
      this.note = note;
      this.queue = new PageQueue(total);
      this.collector = new PageCollector(total);
      const allowed = Math.min(this.opts.maxWorkers ?? MAX_WORKERS, MAX_WORKERS);
      const heapMb = this.opts.maxHeapMb ?? DEFAULT_MAX_HEAP_MB;
      const helperReady = total >= COLD_HELPER_MIN_PAGES || hasWarmWorker(heapMb);
      const splittable = total >= SPLIT_MIN_PAGES && total <= SPLIT_MAX_PAGES && this.size <= SPLIT_MAX_BYTES && allowed >= 2;
      this.wantedHelper = splittable && !helperReady;
      if (splittable && helperReady && tryAcquireSlot()) {
        try {
          this.enlist(false).worker.send({ type: 'open-pdf', job: this.id, path: this.absPath });
        } catch {
          // No second thread to be had (resources): the lead does it alone.
          releaseSlot();
        }
      }
    } else if (total !== this.collector?.total) {
      this.release(member);
      return;
    }
    member.ready = true;
    this.dispatch(member);
  }

  /** Gives a free worker the next chunk of pages; finishes the job once every page is in. */
  private dispatch(member: Member): void {
    if (!member.ready || member.working || !this.queue) return;
    const range = this.queue.take();
    if (range) {
      member.working = true;
      member.worker.send({ type: 'pages', job: this.id, ...range });
    } else if (this.collector?.complete) {
      this.complete();
    } else if (!member.lead) {
      this.release(member);
    }
  }

  private complete(): void {
    if (!this.collector) return;
    const result = assemblePdf(this.head, this.collector.inOrder());
    const note = this.note;
    this.succeed(note && result.status !== 'error' ? { ...result, message: result.message ? `${note}; ${result.message}` : note } : result);
  }

  private diagnostics(): WorkerDiagnostics | undefined {
    const lead = this.members.find((m) => m.lead);
    if (!lead?.stats) return undefined;
    const all = this.members.map((m) => m.stats).filter((s): s is WorkerStats => s !== null);
    return {
      threadId: lead.stats.threadId,
      threads: Math.max(1, this.members.filter((m) => m.pages > 0).length),
      maxRssBytes: Math.max(...all.map((s) => s.maxRssBytes)),
      peakHeapBytes: Math.max(...all.map((s) => s.peakHeapBytes)),
    };
  }

  /** A helper done with its part (or unable to help) goes back to the pool and frees its slot. */
  private release(member: Member): void {
    if (member.lead || member.released) return;
    member.released = true;
    member.worker.send({ type: 'close', job: this.id });
    checkin(member.worker, member.stats?.heapBytes ?? 0);
    releaseSlot();
  }

  private succeed(result: ExtractionResult): void {
    if (this.settled) return;
    const worker = this.diagnostics();
    this.end();
    for (const member of this.members) {
      if (member.released) continue;
      // Harmless when nothing is open; needed when a helper opened the PDF after the last page.
      member.worker.send({ type: 'close', job: this.id });
      checkin(member.worker, member.stats?.heapBytes ?? 0);
      if (!member.lead) releaseSlot();
    }
    this.resolve(worker ? { ...result, worker } : result);
    if (this.wantedHelper) warmSecondWorker(this.entry, this.opts.maxHeapMb ?? DEFAULT_MAX_HEAP_MB);
  }

  /** Timeouts, cancellation and crashes: the workers are mid-page, so they are ended, not reused. */
  private fail(message: string): void {
    if (this.settled) return;
    this.end();
    for (const member of this.members) {
      if (member.released) continue;
      retire(member.worker);
      if (!member.lead) releaseSlot();
    }
    this.resolve(failure(message));
  }

  private end(): void {
    this.settled = true;
    if (this.timer) clearTimeout(this.timer);
    this.opts.signal?.removeEventListener('abort', this.onAbort);
  }
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
    extractionsStarted += 1;
    return await new Promise<ExtractionResult>((resolve) => new ExtractionJob(absPath, size, entry, opts, resolve).start());
  } catch (err) {
    return failure(`extraction failed: ${err instanceof Error ? err.message : String(err)}`);
  } finally {
    releaseSlot();
  }
}
