// How a PDF's pages are shared between workers and put back in order. Workers take small chunks
// from one queue as they become free, so a worker that starts late (or runs on a busier core) just
// takes fewer chunks; the collector orders the pages whichever worker sent them.
import { type PageText } from './formats/pdf-assemble';

export interface PageRange {
  from: number;
  to: number;
}

/** Below this a second worker costs more (its start, opening the file again) than it saves. */
export const SPLIT_MIN_PAGES = 40;

/**
 * Above this one worker reads the whole file. Each worker of a split keeps its own pdfjs with the
 * document's parsed objects, which grow with the pages: on a 2,415-page manual the second one cost
 * ~130 MB and took a session past its 400 MB (bench/pdf-extract's reference-manual row).
 */
export const SPLIT_MAX_PAGES = 1000;

/** Small enough that the last chunk leaves little imbalance, big enough that messages are noise. */
export function chunkSizeFor(total: number): number {
  return Math.min(16, Math.max(4, Math.ceil(total / 40)));
}

export class PageQueue {
  private nextPage = 1;

  constructor(
    readonly total: number,
    private readonly chunk = chunkSizeFor(total),
  ) {}

  take(): PageRange | null {
    if (this.nextPage > this.total) return null;
    const range = { from: this.nextPage, to: Math.min(this.total, this.nextPage + this.chunk - 1) };
    this.nextPage = range.to + 1;
    return range;
  }
}

export class PageCollector {
  private readonly pages: (PageText | undefined)[];
  private received = 0;

  constructor(readonly total: number) {
    this.pages = new Array<PageText | undefined>(total).fill(undefined);
  }

  /** Stores page n; returns false for a page out of range or already received. */
  add(n: number, page: PageText): boolean {
    if (!Number.isInteger(n) || n < 1 || n > this.total || this.pages[n - 1] !== undefined) return false;
    this.pages[n - 1] = page;
    this.received += 1;
    return true;
  }

  get done(): number {
    return this.received;
  }

  get complete(): boolean {
    return this.received === this.total;
  }

  /** All pages in page order; throws if any is missing (a bug in the caller, not a bad file). */
  inOrder(): PageText[] {
    return this.pages.map((page, i) => {
      if (!page) throw new Error(`page ${i + 1} of ${this.total} was never extracted`);
      return page;
    });
  }
}
