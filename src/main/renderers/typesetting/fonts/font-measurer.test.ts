import { describe, it, expect } from 'vitest';
import { spawnSync } from 'node:child_process';
import * as fontkit from 'fontkit';
import { FontDiscovery, type FontconfigRunner } from './font-discovery';
import { FontMeasurer } from './font-measurer';
import { CHART_AUTOSPACE_EM, DOCUMENT_AUTOSPACE_EM, SLIDE_AUTOSPACE_EM } from '../autospace';
import { EMOJI_EM, SAFETY } from './script-measurer';
import { tableMeasurer } from '../fonts';

const hasFontconfig = spawnSync('sh', ['-c', 'command -v fc-match']).status === 0;
if (!hasFontconfig) console.warn('fc-match not installed (apt-get install fontconfig): skipping the font-file measurements');

const style = { fonts: { latin: 'Arial', cjk: 'Noto Sans CJK SC' }, sizePt: 24 };
const noFontconfig: FontconfigRunner = () => null;

describe('fallback to the width table', () => {
  it('reports and uses the table when fontconfig is missing', () => {
    const m = new FontMeasurer(new FontDiscovery(noFontconfig));
    expect(m.sourceOf('Arial')).toEqual({ kind: 'table', face: 'Arial' });
    expect(m.widthPt('Mixed 中文 text', style)).toBeCloseTo(tableMeasurer.widthPt('Mixed 中文 text', style), 9);
    expect(m.emojiFace()).toBeNull();
  });

  it('reports the table when fontconfig names a file that is not there', () => {
    const run: FontconfigRunner = () => 'Liberation Sans\n/nonexistent/LiberationSans-Regular.ttf\n0\n';
    const m = new FontMeasurer(new FontDiscovery(run, () => false));
    expect(m.sourceOf('Arial').kind).toBe('table');
  });

  it('reports the table when the file cannot be read as a font', () => {
    const run: FontconfigRunner = () => `Broken\n${import.meta.filename}\n0\n`;
    const m = new FontMeasurer(new FontDiscovery(run));
    expect(m.sourceOf('Broken').kind).toBe('table');
    expect(m.widthPt('abc', style)).toBeGreaterThan(0);
  });

  it('asks fontconfig once per face, weight and script', () => {
    const calls: string[][] = [];
    const run: FontconfigRunner = (_tool, args) => {
      calls.push(args);
      return null;
    };
    const m = new FontMeasurer(new FontDiscovery(run));
    for (let i = 0; i < 5; i++) m.widthPt(`line ${i} 中文`, style);
    m.widthPt('bold', { ...style, bold: true });
    // A face without a file falls back to its partner face (as LibreOffice falls back glyph by glyph).
    expect(calls.map((a) => a.at(-1))).toEqual([
      'Arial',
      'Noto Sans CJK SC:lang=zh-cn',
      'Arial:weight=bold',
      'Noto Sans CJK SC:weight=bold:lang=zh-cn',
    ]);
  });

  it('finds the colour emoji family from fc-list, or none', () => {
    const listing = (out: string): FontconfigRunner => (tool) => (tool === 'fc-list' ? out : null);
    expect(new FontDiscovery(listing('Symbola\nNoto Color Emoji\n')).emojiFace()).toBe('Noto Color Emoji');
    expect(new FontDiscovery(listing('DejaVu Sans\n')).emojiFace()).toBeNull();
  });
});

describe('measuring', () => {
  it('adds the autospace where CJK meets Latin, once per change of script', () => {
    for (const m of [tableMeasurer, new FontMeasurer()]) {
      const gap = m.widthPt('中文ABC中文', style) - 2 * m.widthPt('中文', style) - m.widthPt('ABC', style);
      expect(gap).toBeCloseTo(2 * SLIDE_AUTOSPACE_EM * style.sizePt * SAFETY, 6);
    }
  });

  it('adds no autospace beside a full-width mark, as the renderer stops LibreOffice adding it there', () => {
    for (const m of [tableMeasurer, new FontMeasurer()]) {
      expect(m.widthPt('检索：BM25', style)).toBeCloseTo(m.widthPt('检索：', style) + m.widthPt('BM25', style), 6);
      expect(m.widthPt('（hallucination）', style)).toBeCloseTo(2 * m.widthPt('（', style) + m.widthPt('hallucination', style), 6);
      // Wrapped after the mark, the next segment is measured as following a mark, not plain CJK.
      const oneLine = m.widthPt('检索：BM25', style) / SAFETY;
      expect(m.wrap('检索：BM25', style, oneLine * SAFETY + 0.01)).toEqual(['检索：BM25']);
    }
  });

  it("sizes the gap by the text's setting, and in a chart puts it beside a full-width mark too", () => {
    const chart = { ...style, setting: 'chart' as const };
    const document = { ...style, setting: 'document' as const };
    for (const m of [tableMeasurer, new FontMeasurer()]) {
      const plain = (text: string, st: typeof style): number => m.widthPt(text, st) / (st.sizePt * SAFETY);
      expect(plain('中文ABC中文', document) - plain('中文中文', document) - plain('ABC', document)).toBeCloseTo(2 * DOCUMENT_AUTOSPACE_EM, 6);
      expect(plain('中文ABC中文', chart) - plain('中文中文', chart) - plain('ABC', chart)).toBeCloseTo(2 * CHART_AUTOSPACE_EM, 6);
      expect(plain('延迟（ms）', chart) - plain('延迟（', chart) - plain('ms', chart) - plain('）', chart)).toBeCloseTo(2 * CHART_AUTOSPACE_EM, 6);
      expect(plain('检索：BM25', document)).toBeCloseTo(plain('检索：', document) + plain('BM25', document), 6);
    }
  });

  it('puts no gap in a document beside a bracket, a hyphen or a percent sign, as Writer sets them; a slide keeps it', () => {
    const document = { ...style, setting: 'document' as const };
    for (const m of [tableMeasurer, new FontMeasurer()]) {
      const plain = (text: string, st: typeof style): number => m.widthPt(text, st) / (st.sizePt * SAFETY);
      expect(plain('时间(ms)', document)).toBeCloseTo(plain('时间', document) + plain('(ms)', document), 6);
      expect(plain('数据集-1', document)).toBeCloseTo(plain('数据集', document) + plain('-1', document), 6);
      expect(plain('10%时', document)).toBeCloseTo(plain('10%', document) + plain('时', document), 6);
      // Wrapped piece by piece, a line still gets no gap after a bracket.
      expect(m.wrap('时间(ms)时间(ms)', document, m.widthPt('时间(ms)时间(ms)', document) + 0.01)).toEqual(['时间(ms)时间(ms)']);
      expect(plain('时间(ms)', style) - plain('时间', style) - plain('(ms)', style)).toBeCloseTo(SLIDE_AUTOSPACE_EM, 6);
    }
  });

  it('measures emoji as a wide square', () => {
    expect(tableMeasurer.widthPt('😀', style)).toBeCloseTo(EMOJI_EM * 24 * SAFETY, 9);
    expect(tableMeasurer.widthPt('👍🏽', style)).toBeCloseTo(EMOJI_EM * 24 * SAFETY, 9);
  });

  it('ellipsizes to the longest prefix that fits, at a word boundary in Latin', () => {
    for (const m of [tableMeasurer, new FontMeasurer()]) {
      const latin = m.ellipsize('The quick brown fox jumps over the lazy dog', style, 200);
      expect(latin).toMatch(/^The quick( brown)?…$/);
      expect(m.widthPt(latin, style)).toBeLessThanOrEqual(200);
      const cjk = m.ellipsize('中文排版需要精确的测量，中文排版', style, 200);
      expect(cjk.endsWith('…')).toBe(true);
      expect(m.widthPt(cjk, style)).toBeLessThanOrEqual(200);
      expect(m.widthPt(`${cjk.slice(0, -1)}测…`, style)).toBeGreaterThan(200);
    }
  });
});

describe.skipIf(!hasFontconfig)('font files', () => {
  const m = new FontMeasurer();

  it('resolves theme faces to files and says which family stood in', () => {
    const arial = m.sourceOf('Arial');
    expect(arial.kind).toBe('font');
    if (arial.kind === 'font') expect(arial.file).toMatch(/\.(ttf|otf|ttc)$/i);
    // A CJK face that is not installed is asked for as Chinese, so it resolves to a CJK family.
    const yahei = m.sourceOf('Microsoft YaHei');
    if (yahei.kind === 'font' && yahei.family !== 'Microsoft YaHei') expect(yahei.family).toMatch(/CJK|Han|Hei|Song|WenQuanYi|Droid/i);
  });

  it('measures bold from the bold file, wider than regular', () => {
    const text = 'The quick brown fox jumps over the lazy dog';
    expect(m.widthPt(text, { ...style, bold: true })).toBeGreaterThan(m.widthPt(text, style) * 1.03);
  });

  it('measures an ideograph as one em in a CJK face', () => {
    if (m.sourceOf('Noto Sans CJK SC').kind !== 'font') return;
    expect(m.widthPt('中文排版', style)).toBeCloseTo(4 * 24 * SAFETY, 6);
  });

  it('measures Latin with the advances in the font file', () => {
    const source = m.sourceOf('Arial');
    if (source.kind !== 'font') return;
    const opened = fontkit.openSync(source.file);
    const font = 'fonts' in opened ? opened.fonts[0] : opened;
    if (!font) throw new Error(`no font in ${source.file}`);
    const advance = (ch: string): number => font.glyphForCodePoint(ch.codePointAt(0) ?? 0).advanceWidth / font.unitsPerEm;
    expect(m.widthPt('iiii', style)).toBeCloseTo(4 * advance('i') * 24 * SAFETY, 6);
    expect(m.widthPt('WWWW', style)).toBeCloseTo(4 * advance('W') * 24 * SAFETY, 6);
  });
});
