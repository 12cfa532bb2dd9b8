// Chart text measured as LibreOffice draws it: a chart is set in one face, and LibreOffice puts its CJK–Latin gap
// at every change of script, beside a full-width bracket or colon too, which nothing in a chart's runs can stop.
// Each label is drawn alone under a one-bar chart, converted by LibreOffice and read back from the PDF: the
// planner's width must be at or a few percent above the drawn one, or labels are laid out for less than is drawn.
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import PptxGenJS from 'pptxgenjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { type ChartSpec } from '../../../../shared/specs/deck';
import { findTheme, type Theme } from '../../../../shared/specs/themes';
import { wordsOf, type Word } from '../../document/testing/pdf-lines';
import { convertToPdf } from '../../document/testing/soffice-pdf';
import { createTextMeasurer } from '../../typesetting/fonts';
import { drawChart } from '../draw/chart';
import { type DrawContext } from '../draw/context';
import { chartTextStyle, planChartElement } from './chart';

const has = (tool: string): boolean => spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0;
const hasTools = has('soffice') && has('pdftotext');
if (!hasTools) console.warn('skipping chart text read back from LibreOffice: needs `soffice` and `pdftotext`');

const theme = findTheme('business') as Theme;
const SIZE_PT = 20;
/** Category labels with brackets and marks between Chinese and Latin text, as a chart's spec writes them. */
const LABELS = ['P95 延迟（ms）', '检索：BM25（召回）', '吞吐量（QPS，峰值）', '模型GPT-4o对比', '延迟（毫秒）'];

/** The drawn width of the text line reading `label` (spaces aside), in points. */
function drawnWidth(words: readonly Word[], label: string): number | undefined {
  const squash = (s: string): string => s.replace(/\s/gu, '');
  const lines = new Map<number, Word[]>();
  for (const w of words) {
    const y = Math.round((w.yMin + w.yMax) / 2);
    lines.set(y, [...(lines.get(y) ?? []), w]);
  }
  for (const line of lines.values()) {
    const sorted = [...line].sort((a, b) => a.xMin - b.xMin);
    if (squash(sorted.map((w) => w.text).join('')) === squash(label)) return Math.max(...sorted.map((w) => w.xMax)) - Math.min(...sorted.map((w) => w.xMin));
  }
  return undefined;
}

describe.skipIf(!hasTools)('chart text as LibreOffice draws it (soffice)', () => {
  const measurer = createTextMeasurer();
  const drawn: { label: string; text: string; widthPt: number | undefined; measuredPt: number }[] = [];

  beforeAll(() => {
    const pptx = new PptxGenJS();
    pptx.layout = 'LAYOUT_WIDE';
    const planned = LABELS.map((label) => {
      const spec: ChartSpec = { type: 'column', categories: [label], series: [{ name: '数值', values: [3] }] };
      const el = { ...planChartElement(spec, theme, { x: 0.5, y: 0.5, w: 12, h: 6 }, measurer), fontSizePt: SIZE_PT };
      drawChart({ pptx, slide: pptx.addSlide(), theme, cjkLang: 'zh-CN', baseDir: '.', emojiFace: null } as DrawContext, el);
      const text = el.categories[0] ?? '';
      return { label, text, measuredPt: measurer.widthPt(text, chartTextStyle(theme, { categories: el.categories, seriesNames: el.series.map((s) => s.name) }, SIZE_PT)) };
    });
    const work = mkdtempSync(join(tmpdir(), 'folio-chart-text-'));
    const deck = join(work, 'charts.pptx');
    return pptx.writeFile({ fileName: deck }).then(() => {
      const [pdf] = convertToPdf(work, [deck]);
      const html = spawnSync('pdftotext', ['-bbox', '-enc', 'UTF-8', pdf ?? '', '-'], { encoding: 'utf8' }).stdout;
      const pages = [...html.matchAll(/<page [^>]*>([\s\S]*?)<\/page>/gu)].map((m) => wordsOf(m[1] ?? ''));
      planned.forEach((p, i) => drawn.push({ ...p, widthPt: drawnWidth(pages[i] ?? [], p.text) }));
    });
  }, 300_000);

  it.each(LABELS.map((label, i) => [label, i] as const))('measures the category label "%s" at or a few percent above its drawn width', (_label, i) => {
    const d = drawn[i];
    expect(d?.widthPt, `"${d?.text}" found in the PDF`).toBeDefined();
    const ratio = (d?.measuredPt ?? 0) / (d?.widthPt ?? 1);
    console.info(`"${d?.text}": measured ${d?.measuredPt.toFixed(1)} pt, drawn ${d?.widthPt?.toFixed(1)} pt, ratio ${ratio.toFixed(3)}`);
    expect(ratio).toBeGreaterThanOrEqual(1);
    expect(ratio).toBeLessThan(1.06);
  });
});
