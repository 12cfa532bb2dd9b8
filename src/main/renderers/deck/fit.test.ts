import { describe, it, expect } from 'vitest';
import { BODY_FLOOR_PT, fitText, layoutTable, paginateBullets, paraHeight, bulletMetrics, type Para } from './fit';
import { textWidthEm, wrapText } from './measure';

const box = { w: 12.1, h: 5.1 };

describe('measure', () => {
  it('gives CJK one em per character and Latin classes their widths', () => {
    expect(textWidthEm('中文字')).toBe(3);
    expect(textWidthEm('ＡＢ')).toBe(2);
    expect(textWidthEm('ili')).toBeCloseTo(0.84);
    expect(textWidthEm('MW')).toBeCloseTo(1.7);
    expect(textWidthEm('a b')).toBeCloseTo(0.52 * 2 + 0.27);
  });

  it('wraps Latin at spaces and CJK between characters, keeping punctuation off line starts', () => {
    const latin = wrapText('alpha beta gamma delta', 20, (20 * 0.52 * 11) / 72);
    expect(latin.every((l) => !l.startsWith(' ') && !/\w-$/.test(l))).toBe(true);
    expect(latin.join(' ')).toBe('alpha beta gamma delta');
    // 5 characters of width at 20 pt: 12 CJK characters need 3 lines; "。" never starts one.
    const cjk = wrapText('一二三四五六七八九十十一。', 20, (20 * 5) / 72);
    expect(cjk.length).toBe(3);
    expect(cjk.some((l) => l.startsWith('。'))).toBe(false);
    expect(cjk.join('')).toBe('一二三四五六七八九十十一。');
  });

  it('breaks a word longer than the line by character', () => {
    const lines = wrapText('x'.repeat(100), 20, 2);
    expect(lines.length).toBeGreaterThan(1);
    expect(lines.join('')).toBe('x'.repeat(100));
  });
});

describe('fitText', () => {
  it('keeps the base size when it fits and shrinks when it does not', () => {
    expect(fitText('Short title', { w: 10, h: 1 }, { base: 32, floor: 20, lineHeight: 1.15 }).size).toBe(32);
    const long = fitText('A considerably longer title that will need two or more lines at the base size', { w: 8, h: 1 }, { base: 32, floor: 20, lineHeight: 1.15 });
    expect(long.size).toBeLessThan(32);
    expect(long.size).toBeGreaterThanOrEqual(20);
    expect(long.height).toBeLessThanOrEqual(1);
    expect(long.truncated).toBe(false);
  });

  it('cuts with an ellipsis what does not fit even at the floor', () => {
    const fit = fitText('很长的标题'.repeat(40), { w: 8, h: 1 }, { base: 32, floor: 20, lineHeight: 1.15 });
    expect(fit.truncated).toBe(true);
    expect(fit.size).toBe(20);
    expect(fit.lines[fit.lines.length - 1]?.endsWith('…')).toBe(true);
    expect(fit.height).toBeLessThanOrEqual(1);
  });
});

describe('paginateBullets', () => {
  const groups = (n: number, text = (i: number): string => `Point number ${i + 1} about the method`): Para[][] =>
    Array.from({ length: n }, (_, i) => [{ text: text(i), level: 0 as const }]);

  it('keeps a short list on one page at the base size', () => {
    const r = paginateBullets(groups(4), box, { base: 24, lineHeight: 1.3 });
    expect(r.pages).toHaveLength(1);
    expect(r.metrics.size).toBe(24);
    expect(r.shrunk).toBe(false);
  });

  it('shrinks a slightly long list instead of splitting it', () => {
    const r = paginateBullets(groups(11), box, { base: 24, lineHeight: 1.3 });
    expect(r.pages).toHaveLength(1);
    expect(r.shrunk).toBe(true);
    expect(r.metrics.size).toBeGreaterThanOrEqual(BODY_FLOOR_PT);
  });

  it('splits 40 bullets over several balanced pages, each within the box, in order', () => {
    const r = paginateBullets(groups(40), box, { base: 24, lineHeight: 1.3 });
    expect(r.pages.length).toBeGreaterThanOrEqual(3);
    expect(r.pages.flat().map((p) => p.text)).toEqual(groups(40).flat().map((p) => p.text));
    for (const page of r.pages) {
      const used = page.reduce((s, p) => s + paraHeight(p, box.w, r.metrics), 0);
      expect(used).toBeLessThanOrEqual(box.h + 1e-9);
    }
    const sizes = r.pages.map((p) => p.length);
    expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(2);
  });

  it('keeps a bullet with its sub-bullets and continues a bullet longer than a page', () => {
    const huge = [[{ text: '非常长的要点'.repeat(200), level: 0 as const }]];
    const r = paginateBullets(huge, box, { base: 24, lineHeight: 1.3 });
    expect(r.pages.length).toBeGreaterThan(1);
    expect(r.brokenParas).toBe(1);
    expect(r.pages.flat().map((p) => p.text).join('')).toBe('非常长的要点'.repeat(200));
    const m = bulletMetrics(r.metrics.size, 1.3);
    for (const page of r.pages) expect(page.reduce((s, p) => s + paraHeight(p, box.w, m), 0)).toBeLessThanOrEqual(box.h + 1e-9);
  });
});

describe('layoutTable', () => {
  const header = ['编号 ID', 'Method', '准确率', 'Notes'];
  const rows = Array.from({ length: 60 }, (_, i) => [`${i + 1}`, `Method ${i + 1}`, `${(80 + (i % 10)).toFixed(1)}`, i % 7 === 0 ? '一段较长的说明文字，需要换行显示。'.repeat(5) : 'ok']);

  it('fits a small table on one page', () => {
    const t = layoutTable(header, rows.slice(0, 5), box, { base: 16, lineHeight: 1.3 });
    expect(t.pages).toEqual([[0, 1, 2, 3, 4]]);
    expect(t.colW.reduce((a, b) => a + b, 0)).toBeCloseTo(box.w);
  });

  it('pages a 60-row table, every row once, each page within the box', () => {
    const t = layoutTable(header, rows, box, { base: 16, lineHeight: 1.3 });
    expect(t.pages.length).toBeGreaterThan(1);
    expect(t.pages.flat()).toEqual(rows.map((_, i) => i));
    for (const page of t.pages) {
      const h = t.headerH + page.reduce((s, r) => s + (t.rowH[r] ?? 0), 0);
      expect(h).toBeLessThanOrEqual(box.h + 1e-9);
    }
    // Rows with wrapped cells are taller.
    expect(t.rowH[0]).toBeGreaterThan(t.rowH[1] ?? Infinity);
  });

  it('cuts a single row taller than a page and says so', () => {
    const t = layoutTable(['a', 'b'], [['x', '长'.repeat(3000)]], box, { base: 16, lineHeight: 1.3 });
    expect(t.truncatedRows).toEqual([0]);
    expect(t.headerH + (t.rowH[0] ?? 0)).toBeLessThanOrEqual(box.h + 1e-9);
  });
});
