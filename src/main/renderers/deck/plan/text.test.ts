import { describe, expect, it } from 'vitest';
import { BUILTIN_THEMES } from '../../../../shared/specs/themes';
import { POINTS_PER_INCH } from '../../../../shared/specs/deck-geometry';
import { tableMeasurer } from '../../typesetting/fonts';
import { drawnLines } from './written-lines';
import { paragraphLines } from './text';

const theme = BUILTIN_THEMES[0];
const heading = (text: string) => ({ text, bullet: 'none' as const, level: 0, sizePt: 32, bold: true });
const style = { fonts: { latin: theme.fonts.latinHeading, cjk: theme.fonts.cjkHeading }, sizePt: 32, bold: true };
/** A box (inches) in which the greedy wrap leaves the last few characters alone on the second line. */
const boxFor = (text: string, share = 0.9) => (tableMeasurer.widthPt(text, style) * share) / POINTS_PER_INCH;
const width = (line: string) => tableMeasurer.widthPt(line, style);

describe('headings of two lines', () => {
  it('are balanced, so no word is left alone on the last line', () => {
    const text = '面向城市内涝预警的多源数据融合方法研究';
    const box = boxFor(text);
    expect(tableMeasurer.wrap(text, style, box * POINTS_PER_INCH).at(-1)?.length).toBeLessThanOrEqual(3);
    const lines = paragraphLines(tableMeasurer, theme, heading(text), 'heading', box);
    expect(lines).toHaveLength(2);
    expect(width(lines[1] ?? ''), lines.join(' / ')).toBeGreaterThan(width(lines[0] ?? '') * 0.6);
    expect(lines.join('')).toBe(text);
  });

  it('break after a clause mark near the balanced break', () => {
    const text = '国内外研究现状：物理模型精度高但慢，数据驱动方法快但难以外推';
    const lines = paragraphLines(tableMeasurer, theme, heading(text), 'heading', boxFor(text));
    expect(lines).toEqual(['国内外研究现状：物理模型精度高但慢，', '数据驱动方法快但难以外推']);
  });

  it('are written into the file as balanced, Latin ones too; body text is not balanced', () => {
    const text = 'Retrieval-Augmented Generation for the knowledge base of a company';
    const drawn = drawnLines({ measurer: tableMeasurer, theme }, { ...heading(text), color: '000000', spaceAfterPt: 0 }, 'heading', boxFor(text));
    expect(Array.isArray(drawn), String(drawn)).toBe(true);
    const lines = drawn as string[];
    expect(width(lines[1] ?? '')).toBeGreaterThan(width(lines[0] ?? '') * 0.6);
    const body = paragraphLines(tableMeasurer, theme, heading(text), 'body', boxFor(text));
    expect(body.at(-1)?.split(' ').length).toBeLessThanOrEqual(2);
  });
});
