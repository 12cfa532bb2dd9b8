// A TextMeasurer over the width tables of measure.ts, for planner tests that must not depend on the
// fonts installed on the machine (the real measurer reads font files).
import { textWidthIn, wrapParagraph } from '../measure';
import { type MeasureStyle, type TextMeasurer } from '../text-measurer';

export const tableMeasurer: TextMeasurer = {
  widthPt: (text: string, style: MeasureStyle) => textWidthIn(text, style.sizePt, style.bold) * 72,
  wrap: (text: string, style: MeasureStyle, maxWidthPt: number) => wrapParagraph(text, style.sizePt, maxWidthPt / 72, style.bold),
  ellipsize(line: string, style: MeasureStyle, maxWidthPt: number): string {
    const chars = Array.from(line);
    while (chars.length > 0 && textWidthIn(chars.join('') + '…', style.sizePt, style.bold) * 72 > maxWidthPt) chars.pop();
    return chars.join('').trimEnd() + '…';
  },
  sourceOf: (face: string) => ({ kind: 'table', face }),
  emojiFace: () => null,
};
