import { describe, expect, it } from 'vitest';
import { warmUpPdfText } from './pdf-warm-up';
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
});
