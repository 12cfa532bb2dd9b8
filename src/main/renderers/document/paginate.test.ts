// The pass without LibreOffice, and the check that decides whether writing the numbers may reflow
// the contents (the runs with LibreOffice are in libreoffice.test.ts).
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tableMeasurer } from '../typesetting/fonts';
import { SOFFICE_ENV } from '../soffice';
import { loadDocumentFolder, paginateDocument } from './index';
import { contentsMayReflow, PAGINATION_OFF_REASON, SOFFICE_MISSING_REASON } from './paginate';

const SAMPLE = join(import.meta.dirname, '../../../../samples/proposal-nsfc');
const saved = process.env[SOFFICE_ENV];
afterEach(() => {
  if (saved === undefined) delete process.env[SOFFICE_ENV];
  else process.env[SOFFICE_ENV] = saved;
});

describe('paginateDocument without laying out', () => {
  it('keeps the estimate, says why, and makes no conversion', async () => {
    const loaded = loadDocumentFolder(SAMPLE);
    const off = await paginateDocument(loaded, { enabled: false });
    expect(off.conversions).toBe(0);
    expect(off.report.pages).toEqual({ mode: 'estimated', total: off.pageEstimate, reason: PAGINATION_OFF_REASON });

    process.env[SOFFICE_ENV] = '/nonexistent/soffice';
    const missing = await paginateDocument(loaded);
    expect(missing.report.pages).toEqual({ mode: 'estimated', total: missing.pageEstimate, reason: SOFFICE_MISSING_REASON });
  });
});

describe('contentsMayReflow', () => {
  const ctx = { language: 'zh-CN', bodySizePt: 12, textWidthPt: 415 };
  const entry = (title: string, level = 1) => ({ title, level, href: `_Toc_folio_${title.length}` });

  it('is false for short entries and true when the number would not fit after the last line', () => {
    const short = entry('一、立项依据');
    expect(contentsMayReflow([short], new Map([[short.href, 12]]), ctx, tableMeasurer)).toBe(false);
    // 33 CJK characters fill 396 of the 415 pt: no room for a leader and "12".
    const full = entry('研'.repeat(33));
    expect(contentsMayReflow([full], new Map([[full.href, 12]]), ctx, tableMeasurer)).toBe(true);
    // Without a page number nothing moves.
    expect(contentsMayReflow([full], new Map(), ctx, tableMeasurer)).toBe(false);
  });
});
