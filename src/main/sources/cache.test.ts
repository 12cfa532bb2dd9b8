import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempRoot, removeTemp, writeFiles } from '../tools/testing';
import { ensureExtracted, readExtracted, sourceNotes, sourceStatus } from './cache';
import { extractionsStartedCount } from './extract';
import { GBK_BYTES, minimalPdf, PNG_BYTES } from './testing';

let root: string;
beforeEach(() => {
  root = makeTempRoot('folio-sources-');
});
afterEach(() => removeTemp(root));

const report = minimalPdf([['Alpha page one'], ['Beta page two'], ['Gamma page three']]);

describe('ensureExtracted', () => {
  it('writes page-marked markdown next to the source and a sidecar with the sha256', async () => {
    writeFiles(root, { 'source/report.pdf': report });
    const info = await ensureExtracted(root, 'source/report.pdf');
    expect(info).toEqual({ path: 'source/report.pdf', status: 'ok', pages: 3, message: null, cache_path: 'source/report.pdf.md' });
    expect(fs.readFileSync(path.join(root, 'source/report.pdf.md'), 'utf8')).toContain('<!-- page 2 -->\nBeta page two');
    const sidecar = JSON.parse(fs.readFileSync(path.join(root, 'source/.report.pdf.extract.json'), 'utf8')) as Record<string, unknown>;
    expect(sidecar).toMatchObject({ status: 'ok', pages: 3, message: null, version: 1 });
    expect(sidecar.sha256).toMatch(/^[0-9a-f]{64}$/u);
  });

  it('reuses the cache until the source changes', async () => {
    writeFiles(root, { 'source/report.pdf': report });
    await ensureExtracted(root, 'source/report.pdf');
    const cache = path.join(root, 'source/report.pdf.md');
    fs.appendFileSync(cache, 'SENTINEL\n');
    const started = extractionsStartedCount();
    expect((await ensureExtracted(root, 'source/report.pdf')).status).toBe('ok');
    // A touched but identical file is re-hashed, not re-extracted.
    const later = new Date(Date.now() + 5000);
    fs.utimesSync(path.join(root, 'source/report.pdf'), later, later);
    await ensureExtracted(root, 'source/report.pdf');
    expect(extractionsStartedCount()).toBe(started);
    expect(fs.readFileSync(cache, 'utf8')).toContain('SENTINEL');

    writeFiles(root, { 'source/report.pdf': minimalPdf([['Replaced content']]) });
    const info = await ensureExtracted(root, 'source/report.pdf');
    expect(extractionsStartedCount()).toBe(started + 1);
    expect(info.pages).toBe(1);
    expect(fs.readFileSync(cache, 'utf8')).toBe('<!-- page 1 -->\nReplaced content\n');
  });

  it('shares one extraction between concurrent callers and gives each the progress', async () => {
    writeFiles(root, { 'source/report.pdf': report });
    const started = extractionsStartedCount();
    const seenA: number[] = [];
    const seenB: number[] = [];
    const [a, b] = await Promise.all([
      ensureExtracted(root, 'source/report.pdf', { onProgress: (done) => seenA.push(done) }),
      ensureExtracted(root, 'source/report.pdf', { onProgress: (done) => seenB.push(done) }),
    ]);
    expect(extractionsStartedCount()).toBe(started + 1);
    expect(a).toEqual(b);
    expect(seenA).toEqual([1, 2, 3]);
    expect(seenB).toEqual([1, 2, 3]);
  });

  it('caches failures, but not cancellation; removes a stale cache when a source turns bad', async () => {
    writeFiles(root, { 'source/report.pdf': report });
    await ensureExtracted(root, 'source/report.pdf');
    writeFiles(root, { 'source/report.pdf': report.subarray(0, 200) });
    const bad = await ensureExtracted(root, 'source/report.pdf');
    expect(bad).toMatchObject({ status: 'error', cache_path: null });
    expect(bad.message).toMatch(/^corrupt or truncated PDF/u);
    expect(fs.existsSync(path.join(root, 'source/report.pdf.md'))).toBe(false);
    const started = extractionsStartedCount();
    expect((await ensureExtracted(root, 'source/report.pdf')).status).toBe('error');
    expect(extractionsStartedCount()).toBe(started);

    writeFiles(root, { 'source/other.pdf': report });
    const controller = new AbortController();
    const pending = ensureExtracted(root, 'source/other.pdf', { signal: controller.signal });
    controller.abort();
    expect(await pending).toMatchObject({ status: 'error', message: 'extraction cancelled' });
    expect(fs.existsSync(path.join(root, 'source/.other.pdf.extract.json'))).toBe(false);
  });

  it('leaves plain UTF-8 text alone but converts GBK text', async () => {
    writeFiles(root, { 'source/notes.md': '# 笔记\n', 'source/old.txt': GBK_BYTES });
    expect(await ensureExtracted(root, 'source/notes.md')).toEqual({ path: 'source/notes.md', status: 'ok', pages: null, message: null, cache_path: null });
    expect(fs.existsSync(path.join(root, 'source/notes.md.md'))).toBe(false);
    const gbk = await ensureExtracted(root, 'source/old.txt');
    expect(gbk.cache_path).toBe('source/old.txt.md');
    expect(fs.readFileSync(path.join(root, 'source/old.txt.md'), 'utf8')).toBe('<!-- page 1 -->\n中文 test\n');
  });

  it('refuses files outside source/ and unknown formats without throwing', async () => {
    writeFiles(root, { 'report.pdf': report, 'source/tool.exe': 'x' });
    expect((await ensureExtracted(root, 'report.pdf')).status).toBe('error');
    expect((await ensureExtracted(root, 'source/../report.pdf')).status).toBe('error');
    expect((await ensureExtracted(root, 'source/tool.exe')).message).toMatch(/not an extractable source/u);
    expect((await ensureExtracted(root, 'source/missing.pdf')).message).toBe('file not found');
  });
});

describe('links planted in source/ (a sandboxed command can write there)', () => {
  // The attack: `ln -s ../../keys.json source/evil.pdf.md` plus a forged sidecar saying the cache is
  // current; the unsandboxed reader must never follow the link.
  let secret: string;
  beforeEach(() => {
    secret = path.join(path.dirname(root), `${path.basename(root)}-keys.json`);
    fs.writeFileSync(secret, '{"OPENAI_API_KEY":"sk-secret"}');
  });
  afterEach(() => fs.rmSync(secret, { force: true }));

  async function plantCacheLink(): Promise<void> {
    writeFiles(root, { 'source/evil.pdf': report });
    await ensureExtracted(root, 'source/evil.pdf');
    fs.rmSync(path.join(root, 'source/evil.pdf.md'));
    fs.symlinkSync(path.relative(path.join(root, 'source'), secret), path.join(root, 'source/evil.pdf.md'));
  }

  it('treats a linked cache as stale and replaces the link with the real extraction', async () => {
    await plantCacheLink();
    const info = await ensureExtracted(root, 'source/evil.pdf');
    expect(info.cache_path).toBe('source/evil.pdf.md');
    expect(fs.lstatSync(path.join(root, 'source/evil.pdf.md')).isSymbolicLink()).toBe(false);
    expect(await readExtracted(root, 'source/evil.pdf.md')).toContain('Alpha page one');
    expect(fs.readFileSync(secret, 'utf8')).toContain('sk-secret');
  });

  it('never reads through a cache link, even one planted after the check', async () => {
    await plantCacheLink();
    await expect(readExtracted(root, 'source/evil.pdf.md')).rejects.toMatchObject({ code: 'path_escape' });
    fs.rmSync(path.join(root, 'source/evil.pdf.md'));
    fs.symlinkSync('evil.pdf', path.join(root, 'source/evil.pdf.md')); // even a link that stays inside
    await expect(readExtracted(root, 'source/evil.pdf.md')).rejects.toMatchObject({ code: 'path_escape' });
  });

  it('ignores a linked sidecar and does not write through a linked source folder', async () => {
    writeFiles(root, { 'source/a.pdf': report });
    const forged = path.join(path.dirname(root), `${path.basename(root)}-side.json`);
    fs.writeFileSync(forged, '{}');
    fs.symlinkSync(forged, path.join(root, 'source/.a.pdf.extract.json'));
    expect((await ensureExtracted(root, 'source/a.pdf')).status).toBe('ok');
    expect(fs.readFileSync(forged, 'utf8')).toBe('{}');
    fs.rmSync(forged);

    const elsewhere = makeTempRoot('folio-elsewhere-');
    writeFiles(elsewhere, { 'b.pdf': report });
    fs.symlinkSync(elsewhere, path.join(root, 'source/linked'));
    const linked = await ensureExtracted(root, 'source/linked/b.pdf');
    expect(linked.status).toBe('error');
    expect(fs.readdirSync(elsewhere)).toEqual(['b.pdf']);
    removeTemp(elsewhere);
  });
});

describe('sourceStatus and sourceNotes', () => {
  it('lists every source with its state, leaving out Folio’s own cache files', async () => {
    writeFiles(root, {
      'source/a.pdf': report,
      'source/b.pdf': minimalPdf([null, null]),
      'source/c.pdf': new Uint8Array(),
      'source/d.png': PNG_BYTES,
      'source/sub/e.pdf': report,
      'source/notes.md': 'plain\n',
      'source/tool.exe': 'x',
      'output/deck.pdf': report,
    });
    await ensureExtracted(root, 'source/a.pdf');
    await ensureExtracted(root, 'source/b.pdf');
    await ensureExtracted(root, 'source/d.png');
    const status = await sourceStatus(root);
    expect(status.map((s) => [s.path, s.status, s.pages])).toEqual([
      ['source/a.pdf', 'ok', 3],
      ['source/b.pdf', 'scanned', 2],
      ['source/c.pdf', 'error', null],
      ['source/d.png', 'image', null],
      ['source/notes.md', 'ok', null],
      ['source/sub/e.pdf', 'pending', null],
    ]);
    expect(await sourceNotes(root)).toEqual({
      'source/a.pdf': '3 pages',
      'source/b.pdf': 'scanned, 2 pages',
      'source/c.pdf': 'error: empty file',
      'source/d.png': 'image, no text',
      'source/sub/e.pdf': 'not extracted yet',
    });
  });
});
