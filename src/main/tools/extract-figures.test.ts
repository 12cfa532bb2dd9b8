import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Document, ImageRun, Packer, PageBreak, Paragraph } from 'docx';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ProgressOf } from '../../shared/contract';
import { paperWithFigures, pngBytes } from '../sources/figures/testing';
import { which } from '../sources/testing';
import { createExtractFiguresTool, type FigureEntry, FIGURES_INDEX, figureFolderName, matchPlacements } from './extract-figures';
import { pngSize } from './figures-poppler';
import { contextFor, makeTempRoot, removeTemp, toolError, writeFiles } from './testing';

const hasPoppler = which('pdfimages') && which('pdftoppm') && which('pdfinfo');
const hasIdentify = which('identify');

let root: string;
beforeEach(() => {
  root = makeTempRoot('folio-figures-test-');
  writeFiles(root, { 'source/paper.pdf': paperWithFigures(), 'source/notes.txt': 'not a pdf' });
});
afterEach(() => removeTemp(root));


function readIndex(): FigureEntry[] {
  return (JSON.parse(fs.readFileSync(path.join(root, FIGURES_INDEX), 'utf8')) as { figures: FigureEntry[] }).figures;
}

/** The PNG really decodes, to the size its header says (ImageMagick reads every row). */
function checkPng(rel: string): { width: number; height: number } {
  const bytes = new Uint8Array(fs.readFileSync(path.join(root, rel)));
  const size = pngSize(bytes);
  expect(size).not.toBeNull();
  if (hasIdentify) {
    const out = execFileSync('identify', ['-regard-warnings', '-format', '%m %w %h', path.join(root, rel)], { encoding: 'utf8' });
    expect(out).toBe(`PNG ${size?.width} ${size?.height}`);
  }
  return size ?? { width: 0, height: 0 };
}

describe.skipIf(!hasPoppler)('extract_figures (needs poppler-utils)', () => {
  it('saves the embedded figures with their pages, pixel sizes, boxes and captions, and finds the drawn one', async () => {
    const progress: number[] = [];
    const ctx = { ...contextFor(root), progress: (_of: ProgressOf, done: number) => progress.push(done) };
    const result = await createExtractFiguresTool().execute({ path: 'source/paper.pdf' }, ctx);

    const figures = readIndex();
    expect(figures.map((f) => [f.file, f.page, f.kind])).toEqual([
      ['work/figures/paper/p1-fig1.png', 1, 'embedded'],
      ['work/figures/paper/p2-fig1.png', 2, 'embedded'],
      ['work/figures/paper/p3-fig1.png', 3, 'drawn'],
    ]);
    const [one, two, three] = figures;
    expect(one?.pixels).toEqual({ width: 200, height: 120 });
    expect(checkPng(one?.file ?? '')).toEqual({ width: 200, height: 120 });
    expect(two?.pixels).toEqual({ width: 320, height: 160 });
    expect(checkPng(two?.file ?? '')).toEqual({ width: 320, height: 160 });
    // Drawn at (100, 450) 300×180 points with y up: 162 points from the top of a 792-point page.
    expect(one?.bbox).toEqual({ x: 100, y: 162, width: 300, height: 180 });
    expect(one?.page_size).toEqual({ width: 612, height: 792 });
    expect(one?.caption).toBe('Figure 1. Growth of sales in 2023');
    expect(two?.caption).toBe('Fig. 2: Market share by region');

    // The bar chart is paths between x 100-400 and y 192-372 (from the top) plus its "North" label.
    expect(three?.caption).toBe('Figure 3. Revenue by region, drawn as vectors');
    const box = three?.bbox ?? { x: 0, y: 0, width: 0, height: 0 };
    expect(box.x).toBeLessThanOrEqual(100);
    expect(box.x + box.width).toBeGreaterThanOrEqual(400);
    expect(box.y).toBeLessThanOrEqual(192);
    expect(box.y + box.height).toBeGreaterThanOrEqual(380);
    expect(box.y + box.height).toBeLessThanOrEqual(394); // stops above the caption
    const drawn = checkPng(three?.file ?? '');
    expect(drawn.width).toBe(Math.round((box.width * 150) / 72));

    // The logo (on all three pages) and the 16 px icon are not figures.
    expect(fs.readdirSync(path.join(root, 'work/figures/paper')).sort()).toEqual(['p1-fig1.png', 'p2-fig1.png', 'p3-fig1.png']);
    expect(result.content).toContain('1 small image (under 64 px');
    expect(result.content).toContain('an image repeated on 3 pages');
    expect(result.content).toContain('work/figures/paper/p2-fig1.png: page 2, 320×160 px, embedded image');
    expect(result.content).toContain('来源：paper.pdf 第 N 页');
    expect(result.touched).toEqual([...figures.map((f) => f.file), FIGURES_INDEX]);
    expect(progress.at(-1)).toBe(3);
  });

  it('looks only at the pages asked for, keeping other pages in the index', async () => {
    const tool = createExtractFiguresTool();
    await tool.execute({ path: 'source/paper.pdf' }, contextFor(root));
    const result = await tool.execute({ path: 'source/paper.pdf', pages: '2' }, contextFor(root));
    expect(result.content).toMatch(/^1 figure from source\/paper.pdf \(pages 2 of 3\)/u);
    expect(readIndex().map((f) => f.page)).toEqual([1, 2, 3]);
    // The logo is known as one from the whole document, even when one page is looked at.
    expect(result.content).toContain('an image repeated on 3 pages');
    expect(result.content).toContain('work/figures/paper/p2-fig1.png: page 2, 320×160 px');
  });

  it('renders a region given in points or as fractions of the page', async () => {
    const tool = createExtractFiguresTool();
    const points = await tool.execute({ path: 'source/paper.pdf', region: { page: 2, x: 72, y: 192, width: 400, height: 200 } }, contextFor(root));
    expect(points.content).toContain('work/figures/paper/p2-region1.png: page 2, 833×417 px, region rendered at 150 dpi');
    expect(checkPng('work/figures/paper/p2-region1.png')).toEqual({ width: 833, height: 417 });
    const fractions = await tool.execute({ path: 'source/paper.pdf', region: { page: 2, x: 0, y: 0, width: 0.5, height: 0.25 } }, contextFor(root));
    expect(fractions.content).toContain('p2-region2.png');
    expect(checkPng('work/figures/paper/p2-region2.png')).toEqual({ width: 638, height: 413 });
    expect(readIndex().map((f) => [f.file, f.bbox])).toEqual([
      ['work/figures/paper/p2-region1.png', { x: 72, y: 192, width: 400, height: 200 }],
      ['work/figures/paper/p2-region2.png', { x: 0, y: 0, width: 306, height: 198 }],
    ]);
    const outside = await toolError(tool.execute({ path: 'source/paper.pdf', region: { page: 2, x: 700, y: 10, width: 50, height: 50 } }, contextFor(root)));
    expect(outside.message).toContain('outside page 2');
    const noPage = await toolError(tool.execute({ path: 'source/paper.pdf', region: { page: 9, x: 0, y: 0, width: 1, height: 1 } }, contextFor(root)));
    expect(noPage.message).toContain('has 3 pages');
  });

  it('refuses what is not a PDF, pages out of range and writing outside work/', async () => {
    const tool = createExtractFiguresTool();
    expect((await toolError(tool.execute({ path: 'source/notes.txt' }, contextFor(root)))).message).toContain('not a PDF');
    expect((await toolError(tool.execute({ path: 'source/none.pdf' }, contextFor(root)))).message).toContain('File not found');
    expect((await toolError(tool.execute({ path: 'source/paper.pdf', pages: '7' }, contextFor(root)))).message).toContain('source/paper.pdf');
    expect(fs.existsSync(path.join(root, 'work'))).toBe(false);
  });

  it('leaves no temporary folders behind', async () => {
    const count = () => fs.readdirSync(os.tmpdir()).filter((n) => n.startsWith('folio-figures-') && !n.startsWith('folio-figures-test-')).length;
    const before = count();
    await createExtractFiguresTool().execute({ path: 'source/paper.pdf' }, contextFor(root));
    expect(count()).toBe(before);
  });
});

/** A .docx with a 300×200 px image captioned "图 1" on page 1 and a 400×240 px one captioned "Figure 2." on page 2, as LibreOffice prints it. */
async function libreOfficePaper(dir: string): Promise<string> {
  const image = (w: number, h: number, seed: number) => new ImageRun({ type: 'png', data: pngBytes(w, h, seed), transformation: { width: w, height: h } });
  const doc = new Document({
    sections: [
      {
        children: [
          new Paragraph('第一章 引言：这里是正文。'),
          new Paragraph({ children: [image(300, 200, 5)] }),
          new Paragraph('图 1\u3000系统架构示意图'),
          new Paragraph({ children: [new PageBreak()] }),
          new Paragraph('Chapter 2 reports the results.'),
          new Paragraph({ children: [image(400, 240, 6)] }),
          new Paragraph('Figure 2. Results of the experiment'),
        ],
      },
    ],
  });
  const docx = path.join(dir, 'cjk.docx');
  fs.writeFileSync(docx, await Packer.toBuffer(doc));
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-lo-'));
  try {
    execFileSync('soffice', [`-env:UserInstallation=file://${profile}`, '--headless', '--convert-to', 'pdf', '--outdir', dir, docx], { stdio: 'ignore', timeout: 120_000 });
  } finally {
    fs.rmSync(profile, { recursive: true, force: true });
  }
  return path.join(dir, 'cjk.pdf');
}

describe.skipIf(!hasPoppler || !which('soffice'))('extract_figures on a LibreOffice PDF (needs poppler-utils and soffice)', () => {
  it('finds both images on their pages at their pixel sizes, with the Chinese and English captions', async () => {
    const made = await libreOfficePaper(root);
    fs.renameSync(made, path.join(root, 'source/cjk.pdf'));
    await createExtractFiguresTool().execute({ path: 'source/cjk.pdf' }, contextFor(root));
    const figures = readIndex();
    expect(figures.map((f) => [f.file, f.page, f.kind, f.pixels.width, f.pixels.height])).toEqual([
      ['work/figures/cjk/p1-fig1.png', 1, 'embedded', 300, 200],
      ['work/figures/cjk/p2-fig1.png', 2, 'embedded', 400, 240],
    ]);
    // pdfjs normalises the ideographic space to a plain one.
    expect(figures[0]?.caption).toBe('图 1 系统架构示意图');
    expect(figures[1]?.caption).toBe('Figure 2. Results of the experiment');
    for (const f of figures) expect(checkPng(f.file)).toEqual(f.pixels);
  }, 180_000);
});

describe('extract_figures without poppler', () => {
  it('names poppler-utils when poppler is not installed', async () => {
    const emptyBin = makeTempRoot('folio-figures-nobin-');
    try {
      const err = await toolError(createExtractFiguresTool({ popplerEnv: { PATH: emptyBin } }).execute({ path: 'source/paper.pdf' }, contextFor(root)));
      expect(err.message).toContain('pdfinfo was not found: extract_figures reads PDF images with poppler');
      expect(err.message).toContain('poppler-utils');
    } finally {
      removeTemp(emptyBin);
    }
  });
});

describe('figure helpers', () => {
  it('names the folder after the PDF, in any script', () => {
    expect(figureFolderName('source/paper.pdf')).toBe('paper');
    expect(figureFolderName('source/论文 终稿 (v2).PDF')).toBe('论文-终稿-v2');
    expect(figureFolderName('source/...pdf')).toBe('pdf');
  });

  it('pairs listed images with placements in order, or by pixel size when the lists differ', () => {
    const row = (width: number, height: number) => ({ page: 1, num: 0, type: 'image', width, height, object: '4 0' });
    const placed = (pxWidth: number, pxHeight: number, x: number) => ({ x, y: 0, w: 10, h: 10, pxWidth, pxHeight, caption: null });
    const a = placed(100, 100, 1);
    const b = placed(200, 100, 2);
    expect(matchPlacements([row(100, 100), row(200, 100)], [a, b])).toEqual([a, b]);
    // pdfjs saw an extra (pattern) image first: sizes decide.
    const extra = placed(8, 8, 3);
    expect(matchPlacements([row(200, 100), row(100, 100), row(50, 50)], [extra, a, b])).toEqual([b, a, null]);
  });
});
