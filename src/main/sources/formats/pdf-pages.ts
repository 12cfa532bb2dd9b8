// Reading a long PDF's pages with bounded memory. pdfjs keeps every font, CMap, colour space and
// image a document has used until the document is cleaned up, so without a clean-up a worker's heap
// grows with the pages it has read, whatever the page: 2,415 pages of a `pdfunite` stand-in (75
// copies of two manuals, so their fonts 75 times over) left 131 MB of heap in use at the end, rising
// ~13 MB per 300 pages; cleaned every 100 pages, 40-70 MB throughout (bench/README.md). The price is
// that the fonts of the next pages are parsed again, once per hundred pages.
import type { Pdfjs } from './pdfjs-load';

type PdfDocument = Awaited<ReturnType<Pdfjs['getDocument']>['promise']>;

/** How many pages a document reads between two clean-ups of its caches. */
export const CLEANUP_EVERY_PAGES = 100;

/** Reads pages' text items one at a time, dropping the document's caches every `every` pages. */
export class PageTextReader {
  private sinceCleanup = 0;

  constructor(
    private readonly doc: PdfDocument,
    private readonly every = CLEANUP_EVERY_PAGES,
  ) {}

  async items(n: number): Promise<readonly unknown[]> {
    const page = await this.doc.getPage(n);
    try {
      const content = await page.getTextContent({ includeMarkedContent: false, disableNormalization: false });
      return content.items;
    } finally {
      page.cleanup();
      this.sinceCleanup += 1;
      if (this.sinceCleanup >= this.every) {
        this.sinceCleanup = 0;
        await this.doc.cleanup();
      }
    }
  }
}
