// Column widths at which a table's Chinese cells break as a typesetter breaks them. LibreOffice and Word break
// Chinese between any two characters, so in a narrow column a cell ends a line inside a word ("调用状态 / 机",
// "贝叶斯更 / 新") or leaves one character alone on its last line ("重复执行率 / 丢失 / 率"). Nothing written into
// the text stops them: measured in LibreOffice 7.4, a word joiner (U+2060) or a zero-width joiner (U+200D)
// between two Han characters is still broken at. So the widths move instead: each column whose cells break badly
// at its width is made a little narrower or wider, the room taken from or given to a column that breaks no worse.
import { breakSegments, withoutTrailingSpaces } from '../deck/fonts/line-break';
import { type MeasureStyle, type TextMeasurer } from '../deck/text-measurer';

/** A cell's text as printed, and whether it is set in bold (the header row). */
export type CellText = { text: string; bold: boolean };

/** Word's default cell margins (left + right, 108 twips each), which LibreOffice keeps. */
export const CELL_MARGINS = 216;
/** Widths are tried a point apart. */
const STEP = 20;
/** A width must also break cleanly this much narrower and wider: faces differ a little between LibreOffice, Word and our metrics. */
const TOLERANCE = 0.03;
/** How far a column may move from the width its content asked for, as a share of the table's width. */
const REACH = 0.25;

const HAN = /\p{Script=Han}/u;
const NOT_PRINTED_ALONE = /[\s\p{P}]/gu;
const SPACES_OR_NOT = / +|[^ ]+/gu;

/**
 * The width of a line, measured space-separated piece by piece: the measurer adds the autospace gap beside a
 * Chinese character whatever follows it, but LibreOffice adds none beside a typed space ("执行率 / 丢失率").
 */
function lineWidthPt(line: string, measurer: TextMeasurer, style: MeasureStyle): number {
  return (line.match(SPACES_OR_NOT) ?? []).reduce((sum, piece) => sum + measurer.widthPt(piece, style), 0);
}

/** The lines LibreOffice sets `text` in at `widthPt`: filled greedily, breaking between any two Han characters that clreq allows. */
export function characterBreakLines(text: string, measurer: TextMeasurer, style: MeasureStyle, widthPt: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const segment of breakSegments(text, false)) {
    const candidate = line + segment;
    if (line !== '' && lineWidthPt(withoutTrailingSpaces(candidate), measurer, style) > widthPt) {
      lines.push(line);
      line = segment;
    } else line = candidate;
  }
  if (line !== '') lines.push(line);
  return lines;
}

/** Whether `lines` break `text` only between words, and leave no single Han character alone on the last line. */
export function breaksBetweenWords(text: string, lines: readonly string[]): boolean {
  if (lines.length < 2) return true;
  const boundaries = new Set<number>();
  let at = 0;
  for (const segment of breakSegments(text, true)) boundaries.add((at += segment.length));
  at = 0;
  for (const line of lines.slice(0, -1)) if (!boundaries.has((at += line.length))) return false;
  const last = (lines.at(-1) ?? '').replace(NOT_PRINTED_ALONE, '');
  return !(Array.from(last).length === 1 && HAN.test(last));
}

/**
 * Widths (twips, summing to the same total) at which fewer cells break inside a word or leave a character alone:
 * each column with such a cell takes the nearest width that has fewer, if another column can give or take the
 * difference without breaking worse itself and without going under its minimum.
 */
export function cleanBreakWidths(
  widths: readonly number[],
  minimums: readonly number[],
  columns: readonly (readonly CellText[])[],
  measurer: TextMeasurer,
  style: MeasureStyle,
): number[] {
  const total = widths.reduce((a, b) => a + b, 0);
  const cache = new Map<string, number>();
  const clean = (cell: CellText, widthTwips: number): boolean =>
    [1 - TOLERANCE, 1, 1 + TOLERANCE].every((share) => {
      const widthPt = ((widthTwips - CELL_MARGINS) * share) / 20;
      const cellStyle = { ...style, bold: cell.bold };
      return breaksBetweenWords(cell.text, characterBreakLines(cell.text, measurer, cellStyle, widthPt));
    });
  const badCells = (col: number, width: number): number => {
    const key = `${col}:${width}`;
    let bad = cache.get(key);
    if (bad === undefined) {
      bad = (columns[col] ?? []).filter((cell) => HAN.test(cell.text) && !clean(cell, width)).length;
      cache.set(key, bad);
    }
    return bad;
  };

  const out = [...widths];
  for (let pass = 0; pass < out.length; pass++) {
    let moved = false;
    for (let col = 0; col < out.length; col++) {
      const width = out[col] ?? 0;
      const bad = badCells(col, width);
      if (bad === 0) continue;
      const floor = Math.max(minimums[col] ?? 0, width - REACH * total);
      const candidates: { width: number; bad: number }[] = [];
      for (let w = width - STEP; w >= floor; w -= STEP) candidates.push({ width: w, bad: badCells(col, w) });
      for (let w = width + STEP; w <= width + REACH * total; w += STEP) candidates.push({ width: w, bad: badCells(col, w) });
      candidates.sort((a, b) => a.bad - b.bad || Math.abs(a.width - width) - Math.abs(b.width - width));
      for (const candidate of candidates) {
        if (candidate.bad >= bad) break;
        const delta = candidate.width - width;
        const donor = out
          .map((w, d) => ({ d, w }))
          .filter(({ d, w }) => d !== col && w - delta >= (minimums[d] ?? 0) && badCells(d, w - delta) <= badCells(d, w))
          .sort((a, b) => b.w - (minimums[b.d] ?? 0) - (a.w - (minimums[a.d] ?? 0)))[0];
        if (!donor) continue;
        out[col] = candidate.width;
        out[donor.d] = donor.w - delta;
        moved = true;
        break;
      }
    }
    if (!moved) break;
  }
  return out;
}
