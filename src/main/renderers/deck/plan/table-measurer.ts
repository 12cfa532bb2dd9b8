// A TextMeasurer over the width tables of measure.ts: the stand-in until font-file metrics land, and
// the fallback for faces that are not installed. It says so (`sourceOf` → table) so the report can
// tell the reader that line breaks are estimates.
import { isCjkChar } from '../../../../shared/specs/deck';
import { textWidthEm, wrapParagraph } from '../measure';
import { type MeasureStyle, type MetricsSource, type TextMeasurer } from '../text-measurer';

/** The gap clients add where CJK meets Latin letters or digits, in em. */
const AUTOSPACE_EM = 0.25;

function autospaceEm(text: string): number {
  let gaps = 0;
  let prev: boolean | null = null;
  for (const ch of text) {
    if (!/[\p{L}\p{N}]/u.test(ch)) {
      prev = null;
      continue;
    }
    const cjk = isCjkChar(ch);
    if (prev !== null && prev !== cjk) gaps++;
    prev = cjk;
  }
  return gaps * AUTOSPACE_EM;
}

export function createTableMeasurer(): TextMeasurer {
  const widthPt = (text: string, style: MeasureStyle): number =>
    (textWidthEm(text, style.bold ?? false) + autospaceEm(text)) * style.sizePt;
  return {
    widthPt,
    wrap(text, style, maxWidthPt) {
      const lines = wrapParagraph(text, style.sizePt, maxWidthPt / 72, style.bold ?? false);
      // The tables ignore autospace while wrapping: re-wrap narrower when a line came out too wide.
      if (lines.every((l) => widthPt(l, style) <= maxWidthPt)) return lines;
      return wrapParagraph(text, style.sizePt, (maxWidthPt * 0.92) / 72, style.bold ?? false);
    },
    ellipsize(line, style, maxWidthPt) {
      const chars = Array.from(line);
      while (chars.length > 0 && widthPt(chars.join('') + '…', style) > maxWidthPt) chars.pop();
      return chars.join('').trimEnd() + '…';
    },
    sourceOf(face): MetricsSource {
      return { kind: 'table', face };
    },
    emojiFace() {
      return null;
    },
  };
}
