// Column widths at which a table's Chinese cells break as a typesetter breaks them. LibreOffice and Word break
// Chinese between any two characters, so in a narrow column a cell ends a line inside a word ("调用状态 / 机",
// "贝叶斯更 / 新") or leaves one character alone on its last line ("重复执行率 / 丢失 / 率"). Nothing written into
// the text stops them: measured in LibreOffice 7.4, a word joiner (U+2060) or a zero-width joiner (U+200D)
// between two Han characters is still broken at. So the widths move instead: each column whose cells break badly
// at its width is made a little narrower or wider, the room taken from or given to a column that breaks no worse.
import { isCjkChar } from '../../../shared/specs/deck-text';
import { breakSegments, NO_LINE_END, NO_LINE_START, withoutTrailingSpaces } from '../typesetting/fonts/line-break';
import { type MeasureStyle, type TextMeasurer } from '../typesetting/text-measurer';

/** Where a cell's text is set as a superscript: [start, end) UTF-16 offsets (GB/T 7714's citation numbers). */
export type Superscripts = readonly (readonly [number, number])[];

/** A cell's text as printed, whether it is set in bold (the header row), and its superscripts. */
export type CellText = { text: string; bold: boolean; superscripts?: Superscripts };

/** Word's default cell margins (left + right, 108 twips each), which LibreOffice keeps. */
export const CELL_MARGINS = 216;
/** Widths are tried a point apart. */
const STEP = 20;
/** A width must also break cleanly this much narrower and wider: faces differ a little between LibreOffice, Word and our metrics. */
const TOLERANCE = 0.02;
/** How far a column may move from the width its content asked for, as a share of the table's width. */
const REACH = 0.25;

const HAN = /\p{Script=Han}/u;
const NOT_PRINTED_ALONE = /[\s\p{P}]/gu;
const SPACES_OR_NOT = / +|[^ ]+/gu;
/**
/**
 * A superscript's size as a share of the text's: LibreOffice's automatic superscript (58%), measured in its PDF as
 * "[5]" 7.05 pt wide beside 10.5 pt text, where the same label in the line is 12.2 pt.
 */
export const SUPERSCRIPT_SIZE = 0.58;

/**
 * The width of `text` from `start` to `end` in `style` (a document's, measure-style.ts), measured space-separated
 * piece by piece: the measurer adds the autospace gap beside a Chinese character whatever follows it, but
 * LibreOffice adds none beside a typed space ("执行率 / 丢失率"). Superscripts are measured at their smaller size.
 */
function lineWidthPt(text: string, start: number, end: number, superscripts: Superscripts, measurer: TextMeasurer, document: MeasureStyle): number {
  const cuts = new Set([start, end]);
  for (const [from, to] of superscripts) for (const at of [from, to]) if (at > start && at < end) cuts.add(at);
  const edges = [...cuts].sort((a, b) => a - b);
  let width = 0;
  edges.slice(0, -1).forEach((from, i) => {
    const piece = text.slice(from, edges[i + 1]);
    const raised = superscripts.some(([s, e]) => from >= s && from < e);
    const pieceStyle = raised ? { ...document, sizePt: document.sizePt * SUPERSCRIPT_SIZE } : document;
    width += (piece.match(SPACES_OR_NOT) ?? []).reduce((sum, part) => sum + measurer.widthPt(part, pieceStyle), 0);
  });
  return width;
}

/**
 * The pieces LibreOffice may break between: after spaces, and beside any CJK character unless kinsoku forbids it
 * (no closing mark at a line start, no opening mark at a line end). Unlike a typesetter, it does break between a
 * number and the Chinese unit after it ("发表论文 2 / 篇"). Joining the pieces gives back the text.
 */
function libreOfficeSegments(text: string): string[] {
  const chars = Array.from(text);
  const segments: string[] = [];
  let current = '';
  chars.forEach((ch, i) => {
    const prev = chars[i - 1];
    if (prev !== undefined && current !== '' && ch !== ' ' && !NO_LINE_START.has(ch) && (prev === ' ' || (!NO_LINE_END.has(prev) && (isCjkChar(prev) || isCjkChar(ch))))) {
      segments.push(current);
      current = '';
    }
    current += ch;
  });
  if (current !== '') segments.push(current);
  return segments;
}

/** The lines LibreOffice sets `text` in at `widthPt`: filled greedily, breaking wherever libreOfficeSegments allows. */
export function characterBreakLines(text: string, measurer: TextMeasurer, style: MeasureStyle, widthPt: number, superscripts: Superscripts = []): string[] {
  const lines: string[] = [];
  let line = '';
  let start = 0;
  for (const segment of libreOfficeSegments(text)) {
    const candidate = line + segment;
    if (line !== '' && lineWidthPt(text, start, start + withoutTrailingSpaces(candidate).length, superscripts, measurer, style) > widthPt) {
      lines.push(line);
      start += line.length;
      line = segment;
    } else line = candidate;
  }
  if (line !== '') lines.push(line);
  return lines;
}

/** A lone last character costs as much as this many breaks inside a word. */
const LONE_CHARACTER = 3;
/** Moving a column this far from the width its content asked for costs as much as one fault. */
const TWIPS_PER_FAULT = 600;
/** At most this many moves of a table's widths. */
const MOVES = 24;

/** Brackets whose contents read as one item when short: "（10 000次）", "[12]", "《通知》". */
const BRACKETS: Record<string, string> = { '（': '）', '(': ')', '[': ']', '［': '］', '【': '】', '〔': '〕', '《': '》', '〈': '〉', '「': '」', '『': '』', '“': '”' };
/** A bracketed group up to this many characters, brackets included, is not broken. */
const SHORT_GROUP = 10;

/** The offsets (UTF-16, as a line's end) that fall inside a short bracketed group, where a break splits it. */
function insideShortGroups(text: string): Set<number> {
  const inside = new Set<number>();
  for (let open = 0; open < text.length; open++) {
    const close = BRACKETS[text[open] ?? ''];
    if (close === undefined) continue;
    const end = text.indexOf(close, open + 1);
    if (end < 0 || Array.from(text.slice(open, end + 1)).length > SHORT_GROUP) continue;
    for (let at = open + 1; at <= end; at++) inside.add(at);
  }
  return inside;
}

/**
 * How badly `lines` break `text`: each line end inside a word, a number with its unit or a short bracketed group,
 * and a single Han character alone on the last line. A cell is read at a glance, word by word, however many lines
 * it has.
 */
export function breakFaults(text: string, lines: readonly string[]): number {
  if (lines.length < 2) return 0;
  const boundaries = new Set<number>();
  let at = 0;
  for (const segment of breakSegments(text, true)) boundaries.add((at += segment.length));
  const groups = insideShortGroups(text);
  at = 0;
  let faults = 0;
  for (const line of lines.slice(0, -1)) {
    at += line.length;
    if (!boundaries.has(at) || groups.has(at)) faults += 1;
  }
  const last = (lines.at(-1) ?? '').replace(NOT_PRINTED_ALONE, '');
  return faults + (Array.from(last).length === 1 && HAN.test(last) ? LONE_CHARACTER : 0);
}

/** Whether `lines` break `text` only between words, and leave no single Han character alone on the last line. */
export function breaksBetweenWords(text: string, lines: readonly string[]): boolean {
  return breakFaults(text, lines) === 0;
}

/**
 * Widths (twips, summing to the same total, none under its minimum) at which the Chinese cells break with fewer
 * faults (breakFaults, counted at the width and a little narrower and wider): each move widens or narrows one column
 * and gives the difference to another, or, at the nearest widths where it has fewer faults, shares it between two
 * others in any proportion (neither may have room for all of it), the move that removes the most faults first, until
 * none removes any.
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
  const cellFaults = (cell: CellText, widthTwips: number): number =>
    [1 - TOLERANCE, 1, 1 + TOLERANCE].reduce((sum, share) => {
      const widthPt = ((widthTwips - CELL_MARGINS) * share) / 20;
      return sum + breakFaults(cell.text, characterBreakLines(cell.text, measurer, { ...style, bold: cell.bold }, widthPt, cell.superscripts));
    }, 0);
  const faults = (col: number, width: number): number => {
    const key = `${col}:${width}`;
    let found = cache.get(key);
    if (found === undefined) {
      found = (columns[col] ?? []).reduce((sum, cell) => sum + (HAN.test(cell.text) ? cellFaults(cell, width) : 0), 0);
      cache.set(key, found);
    }
    return found;
  };

  const out = [...widths];
  const reach = Math.round((REACH * total) / STEP) * STEP;
  const moved = (c: number, w: number): number => Math.abs(w - (widths[c] ?? 0)) / TWIPS_PER_FAULT;
  /** Faults and distance moved of the columns a move changes, at the widths it gives them. */
  const cost = (changes: readonly (readonly [number, number])[]): number => changes.reduce((sum, [c, w]) => sum + faults(c, w) + moved(c, w), 0);
  for (let move = 0; move < MOVES; move++) {
    let best: { changes: [number, number][]; delta: number; gain: number } | undefined;
    const consider = (changes: [number, number][], delta: number): void => {
      if (changes.some(([c, w]) => w < (minimums[c] ?? 0))) return;
      const gain = cost(changes.map(([c]) => [c, out[c] ?? 0])) - cost(changes);
      if (gain > 1e-9 && (!best || gain > best.gain || (gain === best.gain && Math.abs(delta) < Math.abs(best.delta)))) best = { changes, delta, gain };
    };
    out.forEach((width, col) => {
      if (faults(col, width) === 0) return;
      /** The nearest widths either side at which this column has fewer faults: where sharing the change pays. */
      const nearest = new Map<string, number>();
      for (let delta = -reach; delta <= reach; delta += STEP) {
        if (delta === 0) continue;
        out.forEach((other, donor) => {
          if (donor !== col) consider([[col, width + delta], [donor, other - delta]], delta);
        });
        const fewer = faults(col, width + delta);
        const key = `${Math.sign(delta)}:${fewer}`;
        if (fewer < faults(col, width) && Math.abs(delta) < Math.abs(nearest.get(key) ?? Infinity)) nearest.set(key, delta);
      }
      for (const delta of nearest.values()) {
        out.forEach((other, donor) => {
          out.forEach((third, second) => {
            if (donor === col || second <= donor || second === col) return;
            for (let part = STEP; Math.abs(part) < Math.abs(delta); part += Math.sign(delta) * STEP) {
              consider([[col, width + delta], [donor, other - part], [second, third - (delta - part)]], delta);
            }
          });
        });
      }
    });
    if (!best) break;
    for (const [c, w] of (best as { changes: [number, number][] }).changes) out[c] = w;
  }
  return out;
}
