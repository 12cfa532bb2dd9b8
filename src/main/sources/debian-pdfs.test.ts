// Real PDFs from Debian packages (see DEBIAN_PDFS): extracted the way the app does it (worker
// threads), each page where pdftotext puts it; and the per-thread keeping of pdfjs's data files.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { extractFile } from './extract';
import { extractPdf } from './formats/pdf';
import { pdfjsDataFileReads } from './formats/pdfjs-data';
import { DEBIAN_PDFS } from './testing';

function pageText(markdown: string, page: number): string {
  const start = markdown.indexOf(`<!-- page ${page} -->`);
  const end = markdown.indexOf(`<!-- page ${page + 1} -->`);
  return start < 0 ? '' : markdown.slice(start, end < 0 ? undefined : end);
}

function pdfinfoPages(file: string): number | null {
  const info = spawnSync('pdfinfo', [file], { encoding: 'utf8' });
  const m = /^Pages:\s+(\d+)/mu.exec(info.stdout ?? '');
  return m ? Number(m[1]) : null;
}

const chinese = DEBIAN_PDFS.find((pdf) => pdf.name === 'lshort-zh-cn');

describe('Debian PDFs', () => {
  for (const pdf of DEBIAN_PDFS) {
    it.skipIf(!fs.existsSync(pdf.path))(`${pdf.name} (${pdf.debianPackage}): every page, and page ${pdf.page}'s words where pdftotext has them`, async () => {
      const result = await extractFile(pdf.path);
      expect(result.status, result.message).toBe('ok');
      const pages = pdfinfoPages(pdf.path);
      if (pages !== null) expect(result.pages).toBe(pages);
      const text = pageText(result.markdown, pdf.page);
      for (const word of pdf.words) expect(text).toContain(word);
    }, 120_000);
  }

  it.skipIf(!chinese || !fs.existsSync(chinese.path))('a CID-font Chinese book reads its CMaps once per thread: a second document reads no data file', async () => {
    const bytes = new Uint8Array(fs.readFileSync(chinese?.path ?? ''));
    const before = pdfjsDataFileReads();
    const first = await extractPdf(bytes.slice(), () => undefined);
    const afterFirst = pdfjsDataFileReads();
    // The Fandol fonts have no ToUnicode map: their text comes through Adobe-GB1-UCS2.
    expect(afterFirst).toBeGreaterThan(before);
    const second = await extractPdf(bytes.slice(), () => undefined);
    expect(pdfjsDataFileReads()).toBe(afterFirst);
    expect(second.markdown).toBe(first.markdown);
    expect(pageText(second.markdown, chinese?.page ?? 1)).toContain(chinese?.words[0]);
  }, 120_000);
});
