import { describe, expect, it } from 'vitest';
import { BUILTIN_THEMES } from '../../../../shared/specs/themes';
import { type PlanParagraph } from '../../../../shared/specs/deck-plan';
import { tableMeasurer } from '../../typesetting/fonts';
import { drawnLines } from '../plan/written-lines';

const theme = BUILTIN_THEMES[0];
const ctx = { measurer: tableMeasurer, theme };
const paragraph = (text: string): PlanParagraph => ({ text, level: 0, bullet: 'disc', sizePt: 20, bold: false, color: '000000', spaceAfterPt: 0 });

describe('drawnLines', () => {
  it('leaves Latin text to the client, with the spaces inside a formula or quantity made no-break, as the plan measured them', () => {
    const text = 'The hybrid model beats BM25 by 4.2 points of recall at p < 0.01 over n = 120 queries and 12 GB of data.';
    const drawn = drawnLines(ctx, paragraph(text), 'body', 4);
    expect(typeof drawn).toBe('string');
    expect(drawn).toContain('p\u00A0<\u00A00.01');
    expect(drawn).toContain('n\u00A0=\u00A0120');
    expect(drawn).toContain('12\u00A0GB');
    expect(drawn).toContain('4.2 points of recall');
    expect(String(drawn).replace(/\u00A0/g, ' ')).toBe(text);
  });

  it('writes in the lines of a Latin paragraph whose formula is longer than the line, broken at its spaces', () => {
    const text = 'It rose (p < 0.01, n = 120), as we saw.';
    const drawn = drawnLines(ctx, paragraph(text), 'body', 1.3);
    expect(Array.isArray(drawn), String(drawn)).toBe(true);
    const lines = drawn as string[];
    for (const line of lines.slice(1)) expect(/^[),.;:!?]/.test(line), lines.join(' / ')).toBe(false);
    expect(lines.join(' ').replace(/\u00A0/g, ' '), JSON.stringify(lines)).toBe(text);
    // Where the line holds the formula, the client still wraps the paragraph.
    expect(typeof drawnLines(ctx, paragraph(text), 'body', 8)).toBe('string');
  });
});
