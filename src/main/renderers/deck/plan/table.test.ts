import { describe, expect, it } from 'vitest';
import { type TableSpec, validateDeckSpec } from '../../../../shared/specs/deck';
import { footerBand, slideSize } from '../../../../shared/specs/deck-geometry';
import { BUILTIN_THEMES } from '../../../../shared/specs/themes';
import { TABLE_CELL_PAD_X_IN } from '../../../../shared/specs/deck-geometry';
import { isNumericColumn, layoutTable, planTable, unbreakableUnits } from './table';
import { tableMeasurer } from '../../typesetting/fonts';
import { planDeck } from './index';
import { balancedPages } from './pages';


const theme = BUILTIN_THEMES[0];
const ctx = { theme, measurer: tableMeasurer };
const box = { x: 0.6, y: 1.7, w: 12.13, h: 5.0 };

/** Every header word, measured bold at the table's size, fits inside its column's padding. */
function brokenHeaderWords(t: TableSpec, b = box): string[] {
  const plan = layoutTable(ctx, t, b);
  const el = plan.elements[0];
  const style = { fonts: { latin: theme.fonts.latinBody, cjk: theme.fonts.cjkBody }, sizePt: el.sizePt, bold: true };
  return el.header.flatMap((h, c) =>
    unbreakableUnits(h).filter((word) => tableMeasurer.widthPt(word, style) / 72 > el.colWidths[c] - 2 * TABLE_CELL_PAD_X_IN + 1e-9),
  );
}

describe('planTable: columns sized from content', () => {
  it('never breaks a header word, even with long headers and long body text in another column', () => {
    const t: TableSpec = {
      header: ['Method', 'Recall', 'Precision', 'Description of the approach', 'Latency'],
      rows: [
        ['BM25', '61.0%', '55.2%', 'Sparse lexical retrieval with a tuned k1 and b over the whole corpus and every field', '12 ms'],
        ['Dense', '74.0%', '63.9%', 'Bi-encoder embeddings with approximate nearest neighbour search', '35 ms'],
        ['Hybrid', '82.5%', '70.1%', 'Reciprocal rank fusion of both lists', '41 ms'],
      ],
    };
    expect(brokenHeaderWords(t)).toEqual([]);
    const el = planTable(ctx, t, box)[0];
    expect(el.colWidths.reduce((a, b) => a + b, 0)).toBeCloseTo(box.w, 6);
    // Numbers are never wrapped: each numeric cell fits its column on one line.
    const body = { fonts: { latin: theme.fonts.latinBody, cjk: theme.fonts.cjkBody }, sizePt: el.sizePt };
    for (const c of [1, 2, 4]) {
      for (const row of t.rows) expect(tableMeasurer.widthPt(row[c], body) / 72).toBeLessThanOrEqual(el.colWidths[c] - 2 * TABLE_CELL_PAD_X_IN);
    }
  });

  it('twelve columns in a narrow box: shrinks until header words fit', () => {
    const header = ['Throughput', 'Availability', 'Consistency', 'Durability', 'Scalability', 'Latency', 'Reliability', 'Observability', 'Maintainability', 'Portability', 'Security', 'Compliance'];
    const t: TableSpec = { header, rows: [header.map((_, i) => String(i))] };
    expect(brokenHeaderWords(t)).toEqual([]);
    expect(layoutTable(ctx, t, box).sizePt).toBeLessThan(theme.sizes.table);
  });

  it('Chinese headers of up to four characters stay whole', () => {
    const t: TableSpec = { header: ['方法', '召回率', '准确率', '平均延迟', '说明'], rows: [['混合检索', '82%', '70%', '41 ms', '倒数排名融合两路结果，兼顾词面与语义']] };
    expect(unbreakableUnits('召回率')).toEqual(['召回率']);
    expect(brokenHeaderWords(t)).toEqual([]);
  });

  it('right-aligns numeric columns (numbers, %, currency, units) and only those', () => {
    const rows = [
      ['BM25', '61.0%', '$1,200', '12 ms', '3.2×', 'yes'],
      ['Dense', '74%', '¥980', '35 ms', '—', 'no'],
    ];
    expect([0, 1, 2, 3, 4, 5].map((c) => isNumericColumn(rows, c))).toEqual([false, true, true, true, true, false]);
    const el = planTable(ctx, { header: ['Method', 'Recall', 'Cost', 'Latency', 'Speed-up', 'Open'], rows }, box)[0];
    expect(el.align).toEqual(['left', 'right', 'right', 'right', 'right', 'left']);
  });
});

describe('planTable: pagination', () => {
  const rows = (n: number): string[][] => Array.from({ length: n }, (_, i) => [`Item ${i + 1}`, String(i * 3), `${i}%`]);

  it('30 rows become pages of similar size with the header on each, never 14 + 14 + 2', () => {
    const pages = planTable(ctx, { header: ['Name', 'Count', 'Share'], rows: rows(30) }, box);
    expect(pages.length).toBeGreaterThan(1);
    const sizes = pages.map((p) => p.rows.length);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(30);
    expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
    for (const p of pages) {
      expect(p.header).toEqual(['Name', 'Count', 'Share']);
      expect(p.rowHeights).toHaveLength(p.rows.length + 1);
      expect(p.box.h).toBeLessThanOrEqual(box.h + 1e-9);
      expect(p.box.y + p.box.h).toBeLessThanOrEqual(box.y + box.h + 1e-9);
    }
    // Rows stay in order across pages.
    expect(pages.flatMap((p) => p.rows.map((r) => r[0]))).toEqual(rows(30).map((r) => r[0]));
  });

  it('a short table stays on one slide at the theme size', () => {
    const pages = planTable(ctx, { header: ['Name', 'Count', 'Share'], rows: rows(4) }, box);
    expect(pages).toHaveLength(1);
    expect(pages[0].sizePt).toBe(theme.sizes.table);
  });

  it('a row taller than a page is cut with an ellipsis and reported', () => {
    const long = Array.from({ length: 400 }, (_, i) => `word${i}`).join(' ');
    const plan = layoutTable(ctx, { header: ['Name', 'Text'], rows: [['a', long], ['b', 'short']] }, box);
    expect(plan.truncatedRows).toEqual([0]);
    const all = plan.elements.flatMap((e) => e.rows);
    expect(all[0][1].endsWith('…')).toBe(true);
    for (const e of plan.elements) expect(e.box.h).toBeLessThanOrEqual(box.h + 1e-9);
  });

  it('balancedPages balances unequal heights without adding pages', () => {
    const pages = balancedPages([1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1], 8);
    expect(pages.map((p) => p.length)).toEqual([6, 5]);
  });
});

describe('planTable: a short table uses the slide', () => {
  const rows = (n: number): string[][] => Array.from({ length: n }, (_, i) => [`配置 ${i + 1} / config ${i + 1}`, `${80 + i}.0`, `${60 + i}.5`]);
  const header = ['设置 Setting', '引用准确率', '召回率'];

  it('six rows get more air per row, within a line, and the padding is in the element for both drawers', () => {
    const [el] = planTable(ctx, { header, rows: rows(6) }, box);
    const line = (el.sizePt * theme.lineHeight) / 72;
    expect(el.cellPadY ?? 0).toBeGreaterThan(0.05 + 0.05);
    // A one-line row is its text line and the padding above and below, nothing more.
    for (const h of el.rowHeights) expect(h).toBeLessThanOrEqual(line + 2 * (el.cellPadY ?? 0) + 1e-9);
    expect(el.box.h).toBeLessThanOrEqual(box.h + 1e-9);
    expect(el.box.h).toBeGreaterThan(box.h * 0.6);
  });

  it('a table that fills its slide keeps the base padding', () => {
    const pages = planTable(ctx, { header, rows: rows(30) }, box);
    expect(pages.length).toBeGreaterThan(1);
    for (const p of pages) expect(p.cellPadY).toBe(0.05);
  });

  it('on a table slide, six rows sit in the optical middle of the body, not pinned under the title', () => {
    const checked = validateDeckSpec({ title: 'T', theme: 'academic', slides: [{ layout: 'table', title: '消融实验 Ablation', table: { header, rows: rows(6) } }] });
    if (!checked.ok) throw new Error(checked.errors.join('; '));
    const academic = BUILTIN_THEMES.find((t) => t.name === 'academic') ?? theme;
    const { plan } = planDeck(checked.spec, { theme: academic, measurer: tableMeasurer, size: slideSize('16:9'), language: 'en', baseDir: '.' });
    const els = plan.slides[0].elements;
    const table = els.find((e) => e.kind === 'table');
    const title = els.find((e) => e.kind === 'text' && e.role === 'title');
    if (!table || !title) throw new Error('no table or title');
    const above = table.box.y - (title.box.y + title.box.h);
    const below = footerBand(slideSize('16:9')).y - (table.box.y + table.box.h);
    expect(above).toBeGreaterThan(0.3);
    expect(below).toBeGreaterThan(above * 0.8);
    expect(below).toBeLessThan(above * 2.5);
  });
});
