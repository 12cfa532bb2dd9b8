import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureExtracted } from './cache';
import { extractFile } from './extract';
import { cachePathFor } from './kinds';
import { maxCacheChars, maxUnzippedBytes, SOURCE_LIMITS } from './limits';
import { docxBombBytes, docxBytes, withLyingDirectory, xlsxBytes } from './testing';

const MB = 1024 * 1024;
let dir: string;
let bomb: Uint8Array;

beforeAll(async () => {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'folio-limits-')));
  fs.mkdirSync(path.join(dir, 'source'));
  bomb = await docxBombBytes(400);
}, 120_000);
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function put(name: string, bytes: Uint8Array): string {
  fs.writeFileSync(path.join(dir, 'source', name), bytes);
  return `source/${name}`;
}

describe('source size limits', () => {
  it('scale with the file within fixed bounds', () => {
    expect(maxCacheChars(1000)).toBe(SOURCE_LIMITS.cacheFloorChars);
    expect(maxCacheChars(100_000)).toBe(100_000 * SOURCE_LIMITS.cacheRatio);
    expect(maxCacheChars(100 * MB)).toBe(SOURCE_LIMITS.cacheCeilingChars);
    expect(maxUnzippedBytes(1000)).toBe(SOURCE_LIMITS.unzipFloorBytes);
    expect(maxUnzippedBytes(2 * MB)).toBe(200 * MB);
    expect(maxUnzippedBytes(100 * MB)).toBe(SOURCE_LIMITS.unzipCeilingBytes);
  });

  it('refuse a .docx zip bomb from its directory, "too large", without a cache or inflating it', async () => {
    expect(bomb.length).toBeLessThan(1 * MB);
    const rel = put('bomb.docx', bomb);
    const rssBefore = process.memoryUsage().rss;
    const started = performance.now();
    const info = await ensureExtracted(dir, rel);
    expect(info.status).toBe('error');
    expect(info.message).toMatch(/^too large: its parts unpack to 4\d\d\.\d MB/u);
    expect(info.cache_path).toBeNull();
    expect(fs.existsSync(path.join(dir, cachePathFor(rel)))).toBe(false);
    // Before: a 419 MB cache and 2.8 GB of memory.
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(300 * MB);
    expect(performance.now() - started).toBeLessThan(30_000);
  }, 60_000);

  it('stop inflating at the limit when the directory lies about the sizes', async () => {
    const result = await extractFile(path.join(dir, put('liar.docx', withLyingDirectory(bomb, 'word/document.xml', 1000))));
    expect(result.status).toBe('error');
    expect(result.message).toMatch(/^too large: its parts unpack to more than \d+\.\d MB \(the limit for this file is/u);
  }, 60_000);

  it('refuse an extraction whose text would pass the cache limit (a tiny workbook repeating one long string)', async () => {
    const zip = await JSZip.loadAsync(await xlsxBytes());
    const long = 'x'.repeat(20_000);
    zip.file('xl/sharedStrings.xml', `<?xml version="1.0" encoding="UTF-8"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><si><t>${long}</t></si></sst>`);
    const rows = Array.from({ length: 150 }, (_, r) => `<row r="${r + 1}"><c r="A${r + 1}" t="s"><v>0</v></c></row>`).join('');
    zip.file('xl/worksheets/sheet1.xml', `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${rows}</sheetData></worksheet>`);
    const bytes = await zip.generateAsync({ type: 'uint8array', compression: 'DEFLATE' });
    expect(bytes.length * SOURCE_LIMITS.cacheRatio).toBeLessThan(3_000_000);
    const info = await ensureExtracted(dir, put('repeat.xlsx', bytes));
    expect(info.status).toBe('error');
    expect(info.message).toMatch(/^too large: the extracted text is 2\.\d MB \(the limit for this file is 1\.0 MB\)/u);
  }, 60_000);

  it('still extract an ordinary .docx', async () => {
    const info = await ensureExtracted(dir, put('ok.docx', await docxBytes()));
    expect(info.status).toBe('ok');
  }, 60_000);
});
