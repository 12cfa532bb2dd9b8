import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { threadId } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractFile } from './extract';
import { docxBytes, ENCRYPT_FILTER, GBK_BYTES, hasSoffice, minimalPdf, PNG_BYTES, pptxBytes, sofficePdf, xlsxBytes } from './testing';

let dir: string;
beforeAll(() => {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'folio-extract-')));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function file(name: string, bytes: Uint8Array | string): string {
  const abs = path.join(dir, name);
  fs.writeFileSync(abs, bytes);
  return abs;
}

const twoPages = minimalPdf([['Introduction to extraction', 'Second line of page one'], ['Results on page two']], { title: 'Test Report', author: 'Ada' });

describe('extractFile: PDF', () => {
  it('extracts each page after a page marker, in a worker thread, reporting progress per page', async () => {
    const progress: [number, number | null][] = [];
    const result = await extractFile(file('two.pdf', twoPages), { onProgress: (done, total) => progress.push([done, total]) });
    expect(result.status).toBe('ok');
    expect(result.pages).toBe(2);
    expect(result.title).toBe('Test Report');
    expect(result.markdown).toContain('# Test Report');
    expect(result.markdown).toContain('Author: Ada');
    expect(result.markdown).toContain('<!-- page 1 -->\nIntroduction to extraction\nSecond line of page one\n\n<!-- page 2 -->\nResults on page two');
    expect(result.markdown.indexOf('# Test Report')).toBeLessThan(result.markdown.indexOf('<!-- page 1 -->'));
    expect(progress).toEqual([
      [1, 2],
      [2, 2],
    ]);
    expect(result.worker?.threadId).toBeGreaterThan(0);
    expect(result.worker?.threadId).not.toBe(threadId);
  });

  it('reports a PDF without a text layer as scanned, with its page count', async () => {
    const result = await extractFile(file('scan.pdf', minimalPdf([null, null, null])));
    expect(result.status).toBe('scanned');
    expect(result.pages).toBe(3);
    expect(result.message).toBe('no text layer (scanned PDF): 3 pages; OCR needs a vision-capable model');
  });

  it('notes text-less pages in an otherwise readable PDF', async () => {
    const result = await extractFile(file('mixed.pdf', minimalPdf([['A page with plenty of text on it'], null])));
    expect(result.status).toBe('ok');
    expect(result.message).toBe('1 of 2 pages have no text layer (scanned images?)');
  });

  it('turns bad files into typed errors', async () => {
    const truncated = await extractFile(file('cut.pdf', twoPages.subarray(0, Math.floor(twoPages.length / 2))));
    expect(truncated).toMatchObject({ status: 'error', message: expect.stringMatching(/^corrupt or truncated PDF/) as unknown });
    expect(await extractFile(file('empty.pdf', new Uint8Array()))).toMatchObject({ status: 'error', message: 'empty file', pages: null });
    expect(await extractFile(path.join(dir, 'missing.pdf'))).toMatchObject({ status: 'error', message: 'file not found' });
    const tooLarge = await extractFile(file('big.pdf', twoPages), { maxBytes: 100 });
    expect(tooLarge.status).toBe('error');
    expect(tooLarge.message).toMatch(/^too large: /);
    const garbage = await extractFile(file('noise.pdf', new Uint8Array([1, 2, 0, 3, 4, 0, 5])));
    expect(garbage).toMatchObject({ status: 'error', message: 'not a PDF: the bytes are an unrecognised binary format' });
  });

  it('extracts a mislabelled file by what its bytes are', async () => {
    const text = await extractFile(file('page.pdf', '<html>403 Forbidden</html>\n'));
    expect(text.status).toBe('ok');
    expect(text.markdown).toBe('<!-- page 1 -->\n<html>403 Forbidden</html>\n');
    expect(text.message).toBe('named .pdf but it is really a text file; read it as that');
    const docx = await extractFile(file('renamed.pdf', await docxBytes()));
    expect(docx.status).toBe('ok');
    expect(docx.markdown).toContain('Project Proposal');
    expect(docx.message).toMatch(/really a Word document/);
    const zip = await extractFile(file('archive.docx', new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2, 3])));
    expect(zip).toMatchObject({ status: 'error', message: 'corrupt or truncated a Word document (.docx)' });
  });

  it('times out, is cancelled and survives the worker running out of memory, always as a result', async () => {
    const pdf = file('slow.pdf', twoPages);
    expect(await extractFile(pdf, { timeoutMs: 1 })).toMatchObject({ status: 'error', message: 'extraction timed out after 1 ms' });
    const controller = new AbortController();
    const pending = extractFile(pdf, { signal: controller.signal });
    controller.abort();
    expect(await pending).toMatchObject({ status: 'error', message: 'extraction cancelled' });
    const oom = await extractFile(pdf, { maxHeapMb: 2 });
    expect(oom.status).toBe('error');
    // The process is still fine afterwards.
    expect((await extractFile(pdf)).status).toBe('ok');
  });

  it.skipIf(!hasSoffice)('extracts Chinese and English from a 2-page LibreOffice PDF (needs soffice)', async () => {
    const pdf = sofficePdf(dir, 'cjk', '第一页 研究背景 Hello World\nSecond line\n\f第二页 结论 Page two\n');
    const result = await extractFile(pdf);
    expect(result.status).toBe('ok');
    expect(result.pages).toBe(2);
    const [, page1 = '', page2 = ''] = result.markdown.split(/<!-- page \d -->\n/u);
    expect(page1).toContain('第一页 研究背景 Hello World');
    expect(page1).toContain('Second line');
    expect(page2).toContain('第二页 结论 Page two');
  }, 60_000);

  it.skipIf(!hasSoffice)('refuses an encrypted PDF with a clear message (needs soffice)', async () => {
    const pdf = sofficePdf(dir, 'locked', 'secret text\n', ENCRYPT_FILTER);
    expect(await extractFile(pdf)).toMatchObject({ status: 'error', message: 'encrypted PDF: remove the password and add it again' });
  }, 60_000);
});

describe('extractFile: other formats', () => {
  it('DOCX: headings and Chinese text as one page', async () => {
    const progress: [number, number | null][] = [];
    const result = await extractFile(file('proposal.docx', await docxBytes()), { onProgress: (done, total) => progress.push([done, total]) });
    expect(progress).toEqual([[1, 1]]);
    expect(result.status).toBe('ok');
    expect(result.pages).toBe(1);
    expect(result.markdown).toBe('<!-- page 1 -->\n# Project Proposal\n\n研究背景：本项目研究文档提取。\n\nBudget is 42 thousand.\n');
  });

  it('PPTX: one page per slide with speaker notes', async () => {
    const progress: number[] = [];
    const result = await extractFile(file('deck.pptx', await pptxBytes()), { onProgress: (done) => progress.push(done) });
    expect(result.status).toBe('ok');
    expect(result.pages).toBe(2);
    expect(result.markdown).toContain('<!-- page 1 -->\n## Slide 1\n\nQuarterly Review\n季度回顾 & results\n\n> Notes: Remember to thank the team.');
    expect(result.markdown).toContain('<!-- page 2 -->\n## Slide 2\n\nNext steps');
    expect(result.markdown.match(/Notes:/gu)).toHaveLength(1);
    expect(progress).toEqual([1, 2]);
  });

  it('XLSX: one markdown table per sheet', async () => {
    const result = await extractFile(file('budget.xlsx', await xlsxBytes()));
    expect(result.status).toBe('ok');
    expect(result.pages).toBe(2);
    expect(result.markdown).toContain(
      ['<!-- page 1 -->', '## Sheet: Budget', '', '| Item | Cost |  |', '| --- | --- | --- |', '| Lab equipment | 1200.5 |  |', '| 差旅 \\| travel |  | est. |'].join('\n'),
    );
    expect(result.markdown).toContain('<!-- page 2 -->\n## Sheet: 预算 & Notes\n\n| Approved | TRUE |');
  });

  it('CSV with quoted commas, quotes and newlines becomes a table', async () => {
    const result = await extractFile(file('data.csv', 'name,comment\n"Smith, J","said ""hi""\nthen left"\n王,ok\n'));
    expect(result.markdown).toBe('<!-- page 1 -->\n| name | comment |\n| --- | --- |\n| Smith, J | said "hi"<br>then left |\n| 王 | ok |\n');
  });

  it('text: GBK and UTF-16 are decoded', async () => {
    expect((await extractFile(file('gbk.txt', GBK_BYTES))).markdown).toBe('<!-- page 1 -->\n中文 test\n');
    const utf16 = new Uint8Array([0xff, 0xfe, 0x2d, 0x4e, 0x87, 0x65, 0x0a, 0x00]);
    expect((await extractFile(file('utf16.txt', utf16))).markdown).toBe('<!-- page 1 -->\n中文\n');
  });

  it('images have no text and say so', async () => {
    expect(await extractFile(file('photo.png', PNG_BYTES))).toMatchObject({ status: 'image', markdown: '', pages: null });
  });
});
