// Chart and axis titles as LibreOffice lays them out: the fixture deck with long Chinese axis titles is rendered as
// `folio render` renders it and converted by LibreOffice, and each title's lines are read back from the PDF. A title
// LibreOffice draws on one line is not in the report; one it wraps is reported as `chart_title` with the number of
// lines it is drawn on, and the planner predicted exactly those lines.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChartElement } from '../../../../shared/specs/deck-plan';
import { type Theme } from '../../../../shared/specs/themes';
import { wordsOf, type Word } from '../../document/testing/pdf-lines';
import { convertToPdf } from '../../document/testing/soffice-pdf';
import { createTextMeasurer } from '../../typesetting/fonts';
import { renderDeckFromFile, type RenderDeckResult } from '../index';
import { chartTextStyle } from './chart';
import { type ChartTitleKey, wrappedTitles } from './chart-titles';

const has = (tool: string): boolean => spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0;
const hasTools = has('soffice') && has('pdftotext');
if (!hasTools) console.warn('skipping chart titles read back from LibreOffice: needs `soffice` and `pdftotext`');

const FIXTURE = 'zh-chart-titles';
const squash = (s: string): string => s.replace(/\s/gu, '');

/** Whether a word is set turned a quarter (a y-axis title): taller than wide, or a lone character in a turned column. */
function isTurned(w: Word, words: readonly Word[]): boolean {
  const mid = (x: Word): number => (x.xMin + x.xMax) / 2;
  const tall = (x: Word): boolean => [...squash(x.text)].length > 1 && x.yMax - x.yMin > (x.xMax - x.xMin) * 1.2;
  if (tall(w)) return true;
  return [...squash(w.text)].length === 1 && words.some((x) => tall(x) && Math.abs(mid(x) - mid(w)) < 3);
}

/** The page's lines in reading order: rows top to bottom read left to right, then turned lines left to right read upward. */
function linesOf(words: readonly Word[]): string[] {
  const rows = new Map<number, Word[]>();
  const turned = new Map<number, Word[]>();
  for (const w of words) {
    const [lines, at] = isTurned(w, words) ? [turned, (w.xMin + w.xMax) / 2] : [rows, (w.yMin + w.yMax) / 2];
    const key = Math.round(at / 2);
    lines.set(key, [...(lines.get(key) ?? []), w]);
  }
  const across = [...rows].sort((a, b) => a[0] - b[0]).map(([, ws]) => [...ws].sort((a, b) => a.xMin - b.xMin));
  const up = [...turned].sort((a, b) => a[0] - b[0]).map(([, ws]) => [...ws].sort((a, b) => b.yMax - a.yMax));
  return [...across, ...up].map((ws) => squash(ws.map((w) => w.text).join('')));
}

/** How many consecutive lines of the page spell the title, or 0 when no run of lines does. */
function drawnLineCount(lines: readonly string[], title: string): number {
  const whole = squash(title);
  for (let start = 0; start < lines.length; start++) {
    let text = '';
    for (let end = start; end < lines.length; end++) {
      text += lines[end] ?? '';
      if (text === whole) return end - start + 1;
      if (!whole.startsWith(text)) break;
    }
  }
  return 0;
}

describe.skipIf(!hasTools)('chart and axis titles as LibreOffice lays them out (soffice)', () => {
  const measurer = createTextMeasurer();
  let dir = '';
  let deck: RenderDeckResult;
  let pages: string[][] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'folio-chart-titles-'));
    copyFileSync(join(__dirname, '..', 'fixtures', `${FIXTURE}.json`), join(dir, `${FIXTURE}.json`));
    deck = await renderDeckFromFile(join(dir, `${FIXTURE}.json`), { baseDir: dir, outDir: dir, fileName: `${FIXTURE}.pptx`, measurer });
    const [pdf] = convertToPdf(dir, [deck.path]);
    const html = spawnSync('pdftotext', ['-bbox', '-enc', 'UTF-8', pdf ?? '', '-'], { encoding: 'utf8' }).stdout;
    pages = [...html.matchAll(/<page [^>]*>([\s\S]*?)<\/page>/gu)].map((m) => linesOf(wordsOf(m[1] ?? '')));
  }, 300_000);

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** Every title of every chart: the lines LibreOffice drew, the lines planned, and what the report says of it. */
  function titles(): { slide: number; key: ChartTitleKey; text: string; drawn: number; planned: number; reported: string | undefined }[] {
    const theme: Theme = deck.theme;
    return deck.plan.slides.flatMap((slide, page) =>
      slide.elements
        .filter((e): e is ChartElement => e.kind === 'chart')
        .flatMap((el) => {
          const texts = { title: el.title, xTitle: el.xTitle, yTitle: el.yTitle, categories: el.categories, seriesNames: el.series.map((s) => s.name) };
          const wrap = (text: string, sizePt: number, roomPt: number): string[] => measurer.wrap(text, chartTextStyle(theme, texts, sizePt), roomPt);
          const issues = deck.report.slides[slide.source_index]?.issues ?? [];
          return wrappedTitles(texts, el.box, el.fontSizePt, wrap).map((t) => ({
            slide: page + 1,
            key: t.key,
            text: t.text,
            drawn: drawnLineCount(pages[page] ?? [], t.text),
            planned: t.lines.length,
            reported: issues.find((i) => i.kind === 'chart_title' && i.message.includes(`"${t.text}"`))?.message,
          }));
        }),
    );
  }

  it('finds every title of the fixture in the PDF, and LibreOffice wraps some of them', () => {
    const all = titles();
    expect(all.length).toBeGreaterThanOrEqual(7);
    expect(all.filter((t) => t.drawn === 0).map((t) => `slide ${t.slide} ${t.key}: ${t.text}`)).toEqual([]);
    expect(all.some((t) => t.drawn > 1)).toBe(true);
  });

  it('plans each title on the lines LibreOffice draws it on, and reports exactly the wrapped ones with their line count', () => {
    const all = titles();
    for (const t of all) console.info(`slide ${t.slide} ${t.key} "${t.text}": drawn on ${t.drawn} line(s), planned ${t.planned}${t.reported ? ' (reported)' : ''}`);
    expect(all.map((t) => `slide ${t.slide} ${t.key}: ${t.planned}`)).toEqual(all.map((t) => `slide ${t.slide} ${t.key}: ${t.drawn}`));
    const wrongReports = all.filter((t) => (t.drawn > 1) !== (t.reported !== undefined) || (t.reported !== undefined && !t.reported.includes(`drawn on ${t.drawn} lines`)));
    expect(wrongReports.map((t) => `slide ${t.slide} ${t.key} drawn on ${t.drawn} line(s): ${t.reported ?? 'not reported'}`)).toEqual([]);
  });

  it('keeps a long x-axis title on one line by setting the chart a size smaller, within one step of the type scale, and says so', () => {
    const all = titles();
    const xTitle = all.find((t) => t.slide === 2 && t.key === 'xTitle');
    expect(xTitle?.drawn).toBe(1);
    const chart = deck.plan.slides[1]?.elements.find((e): e is ChartElement => e.kind === 'chart');
    expect(chart?.fontSizePt).toBeLessThan(20);
    expect(chart?.fontSizePt).toBeGreaterThanOrEqual(16);
    const shrunk = deck.report.slides[1]?.issues.find((i) => i.kind === 'shrunk');
    expect(shrunk?.message).toContain('x-axis title');
  });
});
