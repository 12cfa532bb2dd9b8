// The real-client check: the sample rendered with the pagination pass (LibreOffice lays it out once
// and its pages become the contents' numbers), then converted again by LibreOffice here and read
// back with poppler, independently of the pass's own pdfjs reading: every heading is listed in the
// contents with the page on which pdftotext finds it, the leaders and numbers stay inside the
// margin, the running header is one line, and a character no font has is reported. Page images are
// kept in test-artifacts/ for a person to look at.
import { spawnSync } from 'node:child_process';
import { appendFileSync, copyFileSync, cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stopWarmConverters, unoPython, warmConverterPid } from '../soffice-warm';
import { renderDocument, type RenderDocumentResult } from './index';
import { letterSpacedLines, pdfLines, RIGHT_EDGE_PT, type Word, wordsOf } from './testing/pdf-lines';
import { convertToPdf } from './testing/soffice-pdf';

const REPO = join(import.meta.dirname, '../../../..');
const SAMPLE = join(REPO, 'samples/proposal-nsfc');
const ARTIFACTS = join(REPO, 'test-artifacts');

const has = (tool: string): boolean => spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0;
const hasTools = has('soffice') && has('pdftotext') && has('pdftoppm') && has('pdfinfo') && has('fc-list');
if (!hasTools) {
  console.warn('skipping LibreOffice rendering test: needs `soffice`, `pdftotext` (poppler-utils) and fontconfig (apt-get install libreoffice-writer poppler-utils fonts-noto-cjk)');
}
const hasUno = unoPython() !== null;
if (hasTools && !hasUno) console.warn('skipping the warm pagination check: needs python3-uno (apt-get install python3-uno)');

function run(cmd: string, args: string[]): string {
  const result = spawnSync(cmd, args, { encoding: 'utf8', timeout: 180_000 });
  if (result.status !== 0) throw new Error(`${cmd} failed (${result.status}): ${result.stderr}`);
  return result.stdout;
}

const compact = (text: string): string => text.replace(/\s+/g, '');
/** A4 with NSFC's margins, in points: the top margin. */
const TOP_MARGIN_PT = 1440 / 20;
// A 200-character title (the header must cut it), and two characters under one heading: an emoji (drawn
// blank in the PDF when the emoji font has colour bitmaps only) and an Egyptian hieroglyph no font has.
const LONG_TITLE = '面向低资源场景的文档智能理解关键技术研究：'.repeat(10);
const HIEROGLYPH = '\u{13000}';
// A URL longer than what is left of its line: unbroken it would move down whole and letter-space the line.
const URL_PARAGRAPH = '代码与数据集均已公开，访问地址为 https://github.com/example-organization/document-intelligence-benchmark/blob/main/README.md 欢迎同行复现。';

function bboxWords(pdf: string, page: number): Word[] {
  return wordsOf(run('pdftotext', ['-bbox', '-enc', 'UTF-8', '-f', String(page), '-l', String(page), pdf, '-']));
}

describe.skipIf(!hasTools)('the sample laid out by LibreOffice (soffice)', () => {
  let work: string;
  let rendered: RenderDocumentResult;
  let pdf: string;
  let pageCount: number;
  const pageText = (n: number): string => run('pdftotext', ['-enc', 'UTF-8', '-f', String(n), '-l', String(n), pdf, '-']);

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'folio-lo-'));
    const folder = join(work, 'proposal');
    cpSync(SAMPLE, folder, { recursive: true });
    const spec = JSON.parse(readFileSync(join(folder, 'document.json'), 'utf8')) as Record<string, unknown>;
    writeFileSync(join(folder, 'document.json'), JSON.stringify({ ...spec, title: LONG_TITLE }));
    appendFileSync(join(folder, 'sections/04_innovation.md'), `\n${URL_PARAGRAPH}\n\n以表情 😀 和古埃及文字 ${HIEROGLYPH} 结尾。\n`);

    rendered = await renderDocument(folder, { outDir: work, fileName: 'proposal.docx' });
    [pdf = ''] = convertToPdf(work, [rendered.path]);
    pageCount = Number(/Pages:\s+(\d+)/.exec(run('pdfinfo', [pdf]))?.[1]);
  }, 400_000);
  afterAll(() => stopWarmConverters());

  it.skipIf(!hasUno)('lays the pages out in a LibreOffice kept running, which the next render uses without starting another', async () => {
    const running = warmConverterPid();
    expect(running).toBeDefined();
    const again = await renderDocument(join(work, 'proposal'), { outDir: work, fileName: 'again.docx' });
    expect(warmConverterPid()).toBe(running);
    expect(again.report.pages).toEqual(rendered.report.pages);
  }, 120_000);

  it('reports the true page count, and the estimate was in range', () => {
    const pages = rendered.report.pages;
    expect(pages?.mode).toBe('rendered');
    if (pages?.mode !== 'rendered') return;
    expect(pages.total).toBe(pageCount);
    expect(pages.body).toBeLessThan(pages.total);
    expect(Math.abs(rendered.pageEstimate - pageCount) / pageCount).toBeLessThan(0.4);
  });

  it('lists every heading in the contents with the page pdftotext finds it on', () => {
    const pages = rendered.report.pages;
    if (pages?.mode !== 'rendered') throw new Error('not laid out');
    const front = pages.total - pages.body;
    const contentsText = Array.from({ length: front - 1 }, (_, i) => run('pdftotext', ['-layout', '-enc', 'UTF-8', '-f', String(i + 2), '-l', String(i + 2), pdf, '-'])).join('\n');
    const contentsLines = contentsText.split('\n').map(compact).filter((l) => l !== '');
    const bodyPages = Array.from({ length: pages.body }, (_, i) => compact(pageText(front + i + 1)));
    let from = 0;
    expect(pages.contents.length).toBeGreaterThanOrEqual(15);
    for (const entry of pages.contents) {
      const title = compact(entry.title);
      const line = contentsLines.find((l) => l.startsWith(title));
      expect(line, `contents line for ${title}`).toBeDefined();
      const listed = Number(/(\d+)$/.exec(line ?? '')?.[1]);
      // Where pdftotext finds the heading, searching on from the previous one (the body restarts at page 1).
      const found = bodyPages.findIndex((text, i) => i >= from && text.includes(title));
      expect(found, `${title} in the body`).toBeGreaterThanOrEqual(0);
      from = found;
      expect(listed, title).toBe(found + 1);
      expect(entry.page, title).toBe(found + 1);
    }
  });

  it('keeps the leaders and page numbers inside the text width', () => {
    const pages = rendered.report.pages;
    if (pages?.mode !== 'rendered') throw new Error('not laid out');
    // The front matter after the cover's first page (a 200-character title takes two): the contents.
    const front = pages.total - pages.body;
    const words = Array.from({ length: front - 1 }, (_, i) => bboxWords(pdf, i + 2)).flat();
    // pdftotext joins each entry's title, leader dots and number into one word: "立项依据……1".
    const numbers = words.filter((w) => /\.{3,}\d+$/u.test(w.text));
    expect(numbers.length).toBe(pages.contents.length);
    for (const w of words) expect(w.xMax, w.text).toBeLessThanOrEqual(RIGHT_EDGE_PT + 1);
    // Right-aligned at one tab stop: the numbers end together.
    const ends = numbers.map((w) => w.xMax);
    expect(Math.max(...ends) - Math.min(...ends)).toBeLessThan(1);
  });

  it('sets the running header on one line, cut with an ellipsis', () => {
    const pages = rendered.report.pages;
    if (pages?.mode !== 'rendered') throw new Error('not laid out');
    const header = bboxWords(pdf, pages.total - pages.body + 1).filter((w) => w.yMax < TOP_MARGIN_PT);
    expect(header.length).toBeGreaterThan(0);
    expect(new Set(header.map((w) => Math.round(w.yMin))).size).toBe(1);
    expect(header.map((w) => w.text).join('')).toMatch(/…$/u);
  });

  it('breaks a long URL in Chinese text instead of letter-spacing the line before it', () => {
    const pages = rendered.report.pages;
    if (pages?.mode !== 'rendered') throw new Error('not laid out');
    const lines = new Map<number, Word[]>();
    let page = 0;
    for (let p = 1; p <= pages.total && page === 0; p++) {
      const words = bboxWords(pdf, p);
      for (const w of words) lines.set(p * 10_000 + Math.round(w.yMin), [...(lines.get(p * 10_000 + Math.round(w.yMin)) ?? []), w]);
      // pdftotext splits a line's Chinese where the justification spaced it: the line's words are joined to find it.
      if ([...lines.values()].some((ws) => ws.map((w) => w.text).join('').includes('访问地址为'))) page = p;
    }
    const line = [...lines.values()].find((ws) => ws.map((w) => w.text).join('').includes('访问地址为'));
    expect(line, 'the line of the URL paragraph').toBeDefined();
    // Letter-spaced Chinese comes back from pdftotext one character per word ("本 项 目 的 …").
    expect(line?.filter((w) => /^\p{Script=Han}[，。]?$/u.test(w.text)).length).toBeLessThan(3);
    // The URL starts on that line and ends on the next; what prints is the URL, nothing added.
    expect(line?.map((w) => w.text).join('')).toContain('https://');
    expect(compact(pageText(page)).replace(/[\u200B\u00AD]/gu, '')).toContain('https://github.com/example-organization/document-intelligence-benchmark/blob/main/README.md');
  });

  it('letter-spaces no justified Chinese line, not even before a name (LayoutLMv3) too long to join it whole', () => {
    expect(letterSpacedLines(pdf)).toEqual([]);
  });

  it('leaves no reference alone on a page: the last two entries of the list print together', () => {
    const count = rendered.report.citations?.references.length ?? 0;
    expect(count).toBeGreaterThanOrEqual(2);
    const pages = pdfLines(pdf);
    // The list follows the last 参考文献 heading; an entry's number starts its line.
    const listFrom = pages.findLastIndex((lines) => lines.includes('参考文献'));
    const pageOfEntry = (n: number): number => pages.findIndex((lines, i) => i >= listFrom && lines.some((l) => l.startsWith(`[${n}]`)));
    expect(listFrom).toBeGreaterThanOrEqual(0);
    expect(pageOfEntry(count)).toBeGreaterThanOrEqual(listFrom);
    expect(pageOfEntry(count - 1), `[${count - 1}] and [${count}]`).toBe(pageOfEntry(count));
  });

  it('reports the character no installed font has and the emoji the PDF leaves blank, with their section and heading', () => {
    const glyphs = rendered.report.issues.filter((i) => i.kind === 'missing_glyph');
    expect(glyphs).toHaveLength(1);
    expect(glyphs[0]).toMatchObject({ section: '04_innovation.md', heading: '本项目的特色与创新之处' });
    expect(glyphs[0]?.message).toContain('U+13000');
    // LibreOffice takes the emoji from fontconfig's emoji font; Noto Color Emoji has no outlines ("Required glyf
    // table is not found") and the PDF draws nothing where 😀 is.
    const emojiFile = run('fc-match', ['-f', '%{file}', ':charset=1f600:lang=und-zsye']);
    expect(glyphs[0]?.message.includes('U+1F600) prints blank')).toBe(/ColorEmoji/u.test(emojiFile));
  });

  it('prints the numbered headings, English text, footnote, references and page footer', () => {
    const text = run('pdftotext', ['-enc', 'UTF-8', pdf, '-']);
    const all = compact(text);
    for (const heading of ['（一）立项依据与研究内容', '1.项目的立项依据', '（1）研究背景与意义', '2.研究内容、研究目标', '3.拟采取的研究方案及可行性分析', '（二）研究基础与工作条件', '（三）其他需要说明的情况']) {
      // Twice: once in the contents, once in the body.
      expect(all.split(heading).length - 1, heading).toBeGreaterThanOrEqual(2);
    }
    expect(text).toContain('LayoutLMv3');
    expect(text).toContain('Document AI');
    // Cited in the text as GB/T 7714 superscripts, in order of first citation, and listed with the type codes.
    expect(all).toContain('LayoutLMv3[1]、Donut[2]为代表');
    expect(all).toContain('在表单理解[3]、票据抽取[4]和');
    expect(all).toContain('[1]HUANGY,LVT,CUIL,etal.LayoutLMv3:Pre-trainingforDocumentAIwithUnifiedTextandImageMasking[C]//');
    expect(all).toContain('[6]张明远,李晓雯,王浩.面向中文票据的版面分析方法研究[J].中文信息学报,2023,37(5):1-10.');
    expect(rendered.report.issues.filter((i) => /citation|reference/u.test(i.kind))).toEqual([]);
    expect(all).toContain('当前最优模型的实体级F1'); // the footnote
    expect(all).toContain('图1低资源文档理解的总体研究框架');
    expect(all).toContain('第1页');

    const pngDir = join(work, 'png');
    mkdirSync(pngDir);
    run('pdftoppm', ['-png', '-r', '50', '-f', '1', '-l', '3', pdf, join(pngDir, 'page')]);
    const written = readdirSync(pngDir).sort();
    expect(written).toHaveLength(3);
    mkdirSync(ARTIFACTS, { recursive: true });
    ['page1', 'page2', 'page3'].forEach((name, i) => copyFileSync(join(pngDir, written[i] ?? ''), join(ARTIFACTS, `proposal-nsfc-${name}.png`)));
    copyFileSync(pdf, join(ARTIFACTS, 'proposal-nsfc.pdf'));
  });
});
