import { describe, expect, it } from 'vitest';
import { tableMeasurer } from './fonts';
import { balancedLines } from './balanced-lines';

const style = { fonts: { latin: 'Arial', cjk: 'Noto Sans CJK SC' }, sizePt: 32, bold: true };
const width = (line: string) => tableMeasurer.widthPt(line, style);
/** A width in which the greedy wrap leaves the last few characters alone on the second line. */
const narrow = (text: string) => width(text) * 0.9;

describe('balanced lines', () => {
  it('give two lines of about one length where the greedy wrap leaves a stub', () => {
    const text = '面向城市内涝预警的多源数据融合方法研究';
    expect(tableMeasurer.wrap(text, style, narrow(text)).at(-1)?.length).toBeLessThanOrEqual(3);
    const lines = balancedLines(tableMeasurer, text, style, narrow(text), 2);
    expect(lines).toHaveLength(2);
    expect(width(lines[1] ?? ''), lines.join(' / ')).toBeGreaterThan(width(lines[0] ?? '') * 0.6);
    expect(lines.join('')).toBe(text);
  });

  it('break after a clause mark near the balanced break, never before a closing mark', () => {
    const text = '国内外研究现状：物理模型精度高但慢，数据驱动方法快但难以外推';
    expect(balancedLines(tableMeasurer, text, style, narrow(text), 2)).toEqual(['国内外研究现状：物理模型精度高但慢，', '数据驱动方法快但难以外推']);
  });
});
