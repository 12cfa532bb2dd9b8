import { describe, expect, it } from 'vitest';
import { TYPESET_PAGES, warmUpPdfText } from './pdf-warm-up';
import { pdfjsDataFileReads } from './pdfjs-data';

describe('the warm-up PDF', () => {
  it('is read through the Type 1 and the CID-keyed Chinese paths, loading the data later documents reuse', async () => {
    const before = pdfjsDataFileReads();
    const text = await warmUpPdfText();
    expect(text).toContain('Warm-up: text, spacing and lines.');
    expect(text).toContain('Heading');
    // Han characters came out of the Adobe-GB1 CMap walk, not replacement characters.
    expect(text).toMatch(/[\u4e00-\u9fff]{3}/u);
    // Standard font data and the GB1 CMaps were read from disk once, and are now kept by the thread.
    expect(pdfjsDataFileReads()).toBeGreaterThan(before);
  });

  it('then reads the typeset pages: deflated streams, kerned runs joined into words, Han runs and a ToUnicode face', async () => {
    const text = await warmUpPdfText();
    expect(text).toContain(`<!-- page ${2 + TYPESET_PAGES} -->`);
    // "k" 25 "eeps" in a TJ array: the kern is inside a word, so the word stays whole.
    expect(text).toContain('extraction keeps text page by page so');
    // Through the Adobe-GB1 walk after an English run, and through the ToUnicode map (page.line).
    expect(text).toMatch(/so[\u4e00-\u9fff]{4}\n/u);
    expect(text).toContain(`${TYPESET_PAGES - 1}.39`);
    const lines = text.split('\n').filter((line) => /^\w/u.test(line));
    expect(lines.length).toBeGreaterThanOrEqual(TYPESET_PAGES * 40);
  });
});
