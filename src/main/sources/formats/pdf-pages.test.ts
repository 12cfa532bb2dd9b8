import { describe, expect, it } from 'vitest';
import { minimalPdf } from '../testing';
import { CLEANUP_EVERY_PAGES, PageTextReader } from './pdf-pages';
import { pdfjsDataParams } from './pdfjs-data';
import { directWorker, loadPdfjs, textOnlyParams } from './pdfjs-load';

/** The name pdfjs gave the font of a page's first text item: a new one each time the font is loaded. */
async function fontOf(reader: PageTextReader, n: number): Promise<string> {
  const [item] = await reader.items(n);
  return (item as { fontName: string }).fontName;
}

describe('PageTextReader', () => {
  it("drops the document's caches every hundred pages, so a long document's fonts are not all kept", async () => {
    const pages = Array.from({ length: 2 * CLEANUP_EVERY_PAGES + 1 }, (_, i) => [`Page ${i + 1}`]);
    const pdfjs = await loadPdfjs();
    const open = async () => {
      const worker = directWorker(pdfjs);
      const doc = await pdfjs.getDocument({ ...textOnlyParams(pdfjs, minimalPdf(pages), worker), ...pdfjsDataParams() }).promise;
      return { doc, close: async () => { await doc.destroy(); worker?.destroy(); } };
    };

    // Every page uses the one Helvetica object. Never cleaned, it is loaded once for the document.
    const kept = await open();
    const keeping = new PageTextReader(kept.doc, Number.POSITIVE_INFINITY);
    const keptFonts = [];
    for (let n = 1; n <= pages.length; n += 1) keptFonts.push(await fontOf(keeping, n));
    await kept.close();
    expect(new Set(keptFonts).size).toBe(1);

    // Cleaned every hundred pages, it is loaded again after each clean-up: the cache held it no longer.
    const cleaned = await open();
    const reader = new PageTextReader(cleaned.doc);
    const fonts = [];
    for (let n = 1; n <= pages.length; n += 1) fonts.push(await fontOf(reader, n));
    await cleaned.close();
    expect(new Set(fonts.slice(0, CLEANUP_EVERY_PAGES)).size).toBe(1);
    expect(new Set(fonts).size).toBe(3);
    expect(fonts[CLEANUP_EVERY_PAGES]).not.toBe(fonts[CLEANUP_EVERY_PAGES - 1]);
  });
});
