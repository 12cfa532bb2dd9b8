// The real-client check: LibreOffice opens the sample deck, and the PDF it makes has every slide,
// every string, no text outside the page or spilling into the footer band, and every word inside a
// box the plan meant it for.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type DeckSpec, type DeckSpecInput } from '../../../shared/specs/deck';
import { FOOTER_BAND } from '../../../shared/specs/deck-geometry';
import { type DeckPlan } from '../../../shared/specs/deck-plan';
import { renderDeck } from './index';

const has = (tool: string): boolean => spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0;
const hasSoffice = has('soffice');
const hasPoppler = has('pdfinfo') && has('pdftotext') && has('pdftoppm');
if (!hasSoffice) console.warn('soffice not installed (apt-get install libreoffice-impress): skipping the LibreOffice check');
else if (!hasPoppler) console.warn('pdfinfo/pdftotext not installed (apt-get install poppler-utils): skipping the LibreOffice check');

const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));
const sampleDir = join(repoRoot, 'samples/deck-zh-talk');

interface Word {
  text: string;
  xMin: number;
  yMin: number;
  xMax: number;
  yMax: number;
}

interface Page {
  width: number;
  height: number;
  words: Word[];
}

function parseBbox(html: string): Page[] {
  const pages: Page[] = [];
  for (const m of html.matchAll(/<page width="([\d.]+)" height="([\d.]+)">([\s\S]*?)<\/page>/g)) {
    const words = [...(m[3] ?? '').matchAll(/<word xMin="([\d.-]+)" yMin="([\d.-]+)" xMax="([\d.-]+)" yMax="([\d.-]+)">([\s\S]*?)<\/word>/g)].map((w) => ({
      xMin: Number(w[1]),
      yMin: Number(w[2]),
      xMax: Number(w[3]),
      yMax: Number(w[4]),
      text: (w[5] ?? '').replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"'),
    }));
    pages.push({ width: Number(m[1]), height: Number(m[2]), words });
  }
  return pages;
}

const squash = (s: string): string => s.replace(/\s+/g, '');

/** Converts a .pptx to PDF with a private LibreOffice profile; returns the PDF path. */
function convertToPdf(pptx: string, work: string): string {
  const profile = `file://${join(work, 'lo-profile')}`;
  // soffice exits 0 even when conversion fails, so the PDF's existence is the real result.
  execFileSync('soffice', [`-env:UserInstallation=${profile}`, '--headless', '--convert-to', 'pdf', '--outdir', work, pptx], {
    timeout: 180_000,
    stdio: 'ignore',
  });
  return join(work, `${basename(pptx, '.pptx')}.pdf`);
}

function pageCount(pdf: string): number {
  return Number(/Pages:\s+(\d+)/.exec(execFileSync('pdfinfo', [pdf], { encoding: 'utf8' }))?.[1]);
}

/** Words outside the page, or below the content area (other than footer words and page numbers). */
function misplacedWords(pdf: string, footer: string): string[] {
  const pages = parseBbox(execFileSync('pdftotext', ['-bbox', '-enc', 'UTF-8', pdf, '-'], { encoding: 'utf8' }));
  const footerWords = new Set(footer.split(/\s+/).filter(Boolean));
  const bad: string[] = [];
  for (const [i, page] of pages.entries()) {
    const bodyBottom = page.height - FOOTER_BAND * 72;
    for (const w of page.words) {
      const where = `page ${i + 1}: "${w.text}"`;
      if (w.xMin < 0 || w.yMin < 0 || w.xMax > page.width || w.yMax > page.height) bad.push(`${where} is outside the page`);
      else if (!footerWords.has(w.text) && !/^\d+$/.test(w.text) && w.yMax > bodyBottom + 1) bad.push(`${where} runs into the footer zone`);
    }
  }
  return bad;
}

/** Words whose centre is in no planned box of their slide (boxes grown by 4 pt for glyph overhang). */
function wordsOutsideBoxes(pdf: string, plan: DeckPlan): string[] {
  const pages = parseBbox(execFileSync('pdftotext', ['-bbox', '-enc', 'UTF-8', pdf, '-'], { encoding: 'utf8' }));
  const bad: string[] = [];
  pages.forEach((page, i) => {
    const boxes = plan.slides[i]?.elements.map((e) => e.box) ?? [];
    for (const w of page.words) {
      const cx = (w.xMin + w.xMax) / 2 / 72;
      const cy = (w.yMin + w.yMax) / 2 / 72;
      const slack = 4 / 72;
      const inside = boxes.some((b) => cx >= b.x - slack && cx <= b.x + b.w + slack && cy >= b.y - slack && cy <= b.y + b.h + slack);
      if (!inside) bad.push(`page ${i + 1}: "${w.text}" at (${cx.toFixed(2)}, ${cy.toFixed(2)}) in")`);
    }
  });
  return bad;
}

describe.skipIf(!hasSoffice || !hasPoppler)('LibreOffice renders the sample deck', () => {
  let work: string;
  let pdf: string;
  let slideCount: number;
  let spec: DeckSpec;
  let plan: DeckPlan;
  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'deck-lo-'));
    spec = JSON.parse(readFileSync(join(sampleDir, 'deck.json'), 'utf8')) as DeckSpec;
    const result = await renderDeck(spec, { baseDir: sampleDir, outDir: work, fileName: 'deck-zh-talk.pptx' });
    plan = result.plan;
    slideCount = result.slideCount;
    pdf = convertToPdf(result.path, work);
  }, 240_000);
  afterAll(() => {
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('produces a PDF with one page per slide', () => {
    expect(existsSync(pdf), 'soffice did not write a PDF').toBe(true);
    expect(pageCount(pdf)).toBe(slideCount);
  });

  it('shows the Chinese and English strings of the spec', () => {
    const text = squash(execFileSync('pdftotext', ['-enc', 'UTF-8', pdf, '-'], { encoding: 'utf8' }));
    const expected = [
      spec.title,
      spec.subtitle ?? '',
      ...spec.slides.map((s) => s.title ?? ''),
      '每年新增论文超过',
      'hallucination',
      'ReviewBench',
      '好的综述不是文献的堆砌',
      'Reviewer#2',
    ].filter(Boolean);
    for (const s of expected) expect(text, s).toContain(squash(s));
  });

  it('keeps every word on the page and out of the footer zone', () => {
    const pages = parseBbox(execFileSync('pdftotext', ['-bbox', '-enc', 'UTF-8', pdf, '-'], { encoding: 'utf8' }));
    expect(pages).toHaveLength(slideCount);
    for (const [i, page] of pages.entries()) expect(page.words.length, `page ${i + 1} has no text`).toBeGreaterThan(0);
    expect(misplacedWords(pdf, spec.footer ?? '')).toEqual([]);
    expect(wordsOutsideBoxes(pdf, plan)).toEqual([]);
  });

  it('writes page 1 as a PNG for a person to look at', () => {
    const outDir = join(repoRoot, 'test-artifacts');
    mkdirSync(outDir, { recursive: true });
    execFileSync('pdftoppm', ['-png', '-r', '50', '-f', '1', '-l', '1', '-singlefile', pdf, join(work, 'page1')]);
    const png = join(outDir, 'deck-zh-talk-page1.png');
    copyFileSync(join(work, 'page1.png'), png);
    copyFileSync(pdf, join(outDir, 'deck-zh-talk.pdf'));
    expect(readFileSync(png).subarray(1, 4).toString('ascii')).toBe('PNG');
  });
});

describe.skipIf(!hasSoffice || !hasPoppler)('LibreOffice renders a deck that needed fitting', () => {
  let work: string;
  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), 'deck-lo-stress-'));
  });
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('shows restructured, split and cut content without overflow, every word in its box', async () => {
    const long = 'The proposed estimator remains unbiased under covariate shift, and its variance shrinks with the number of source domains';
    const zh = '在协变量偏移下，本文提出的估计量仍然无偏，并且其方差随源领域数量的增加而减小';
    const spec: DeckSpecInput = {
      title: 'Fitting stress test',
      footer: 'Stress',
      slides: [
        { layout: 'title', title: `${long}. ${long}.`, subtitle: zh },
        { layout: 'bullets', title: 'Forty findings', bullets: Array.from({ length: 40 }, (_, i) => (i % 2 ? `${i + 1}. ${long}` : `${i + 1}. ${zh}`)) },
        { layout: 'bullets', title: '一条很长的要点', bullets: [zh.repeat(12)] },
        { layout: 'two_column', title: `${long} ${long}`, left: { text: `${long}. `.repeat(8) }, right: { bullets: Array.from({ length: 14 }, () => zh) } },
        { layout: 'quote', quote: `${zh}。`.repeat(5), by: 'Reviewer' },
      ],
    };
    const result = await renderDeck(spec as DeckSpec, { baseDir: work, outDir: work, fileName: 'stress.pptx' });
    const kinds = result.report.slides.flatMap((s) => s.issues.map((i) => i.kind));
    expect(kinds).toEqual(expect.arrayContaining(['split', 'dropped', 'too_many_words']));
    // An ellipsis only where the report says text was cut (never a phrase shortened to make room).
    const cut = new Set(result.report.slides.filter((s) => s.issues.some((i) => i.kind === 'dropped')).flatMap((s) => s.output_slides));
    result.plan.slides.forEach((slide, n) => {
      const text = slide.elements.flatMap((e) => (e.kind === 'text' ? e.paragraphs.map((q) => q.text) : [])).join(' ');
      if (!cut.has(n + 1)) expect(text, `slide ${n + 1}`).not.toContain('…');
    });
    const pdf = convertToPdf(result.path, work);
    expect(existsSync(pdf), 'soffice did not write a PDF').toBe(true);
    expect(pageCount(pdf)).toBe(result.slideCount);
    expect(misplacedWords(pdf, 'Stress')).toEqual([]);
    expect(wordsOutsideBoxes(pdf, result.plan)).toEqual([]);
    execFileSync('pdftoppm', ['-png', '-r', '40', pdf, join(repoRoot, 'test-artifacts', 'deck-stress')]);
  });
});
