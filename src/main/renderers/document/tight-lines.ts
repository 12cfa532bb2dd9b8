// Justified Chinese lines that LibreOffice letter-spaced because the Latin run after them (an acronym such as
// XFUND, "（https://", the "Retrieval-" of a compound) did not fit, read back from its PDF, and the full-width
// marks whose blank half a typesetter would take away so that the run fits (JIS X 4051 and clreq let a line's
// commas, stops and brackets shrink to half width before its characters are spaced apart). Only where taking
// that room from the line's own marks is enough: otherwise the line stays as LibreOffice set it.
import { type PlacedRun } from '../deck/verify/pdf-words';

/** Marks whose glyph sits in one half of its em, the other half blank (closing marks and stops, opening brackets). */
const COMPRESSIBLE = /[、，。；：！？）」』】〕〉》（「『【〔〈《]/u;
const OPENING = /^[（「『【〔〈《]/u;
const CJK = /[\p{Script=Han}\u3000-\u303f\uff00-\uffef]/u;
/** Spacing between characters up to a tenth of an em is hardly seen (clreq 6.3.1.2); only lines beyond it are tightened. */
export const TIGHTEN_ABOVE_EM = 0.1;
/** Room kept spare so that rounding in the reading never leaves the run just short. */
const SPARE_PT = 0.5;
/** Baselines closer than this share a line, in ems: a superscript citation is raised a third of one. */
const SAME_LINE_EM = 0.5;
/** How far short of the right edge a line may end and still be a justified one (points). */
const EDGE_PT = 2;

/**
 * Marks to set half width: `offsets` index the characters of `text` (a line's characters and the run that follows
 * it, white space and invisible characters left out), the `occurrence`-th time that text appears in the body.
 */
export type MarkCompression = { text: string; occurrence: number; of: number; offsets: number[] };

/** The width of text in the body's faces at a size, as Writer sets it (its Chinese–Latin gap included). */
export type WidthOf = (text: string, sizePt: number) => number;

/** The body text's box on the page, in points from its top left. */
export type TextBox = { left: number; right: number; top: number; bottom: number };

type Line = { runs: PlacedRun[]; left: number; right: number; size: number; raw: string };

export const printedText = (text: string): string => text.replace(/[\s\u200B\u00AD\u2060\uFEFF]/gu, '');

function linesOf(runs: readonly PlacedRun[], box: TextBox): Line[] {
  const inked = runs.filter((r) => r.str.trim() !== '' && r.baseline > box.top && r.baseline < box.bottom).sort((a, b) => a.baseline - b.baseline || a.x - b.x);
  const grouped: PlacedRun[][] = [];
  for (const run of inked) {
    const line = grouped.at(-1);
    const first = line?.[0];
    if (line && first && Math.abs(first.baseline - run.baseline) < SAME_LINE_EM * Math.max(first.size, run.size)) line.push(run);
    else grouped.push([run]);
  }
  return grouped.map((line) => {
    const sorted = line.sort((a, b) => a.x - b.x);
    return {
      runs: sorted,
      left: sorted[0]?.x ?? 0,
      right: Math.max(...sorted.map((r) => r.x + r.width)),
      size: Math.max(...sorted.map((r) => r.size)),
      raw: sorted.map((r) => r.str).join(' '),
    };
  });
}

/** The extra room LibreOffice put after each character, from the runs of Chinese characters on the line (points). */
function spreadOf(line: Line): number {
  let extra = 0;
  let gaps = 0;
  for (const run of line.runs) {
    const chars = [...printedText(run.str)];
    if (chars.length < 2 || !chars.every((c) => CJK.test(c))) continue;
    extra += run.width - chars.length * run.size;
    gaps += chars.length - 1;
  }
  return gaps > 0 ? extra / gaps : 0;
}

/** Where LibreOffice spreads a justified line: after each Chinese character and each Latin word but the last. */
function gapsOf(line: Line): number {
  const units = line.runs.reduce((n, run) => n + (run.str.match(/[\p{Script=Han}\u3000-\u303f\uff00-\uffef]|[^\s\p{Script=Han}\u3000-\u303f\uff00-\uffef]+/gu)?.length ?? 0), 0);
  return Math.max(0, units - 1);
}

/**
 * The run that starts the next line and could not join this one: an opening bracket, then Latin text up to its first
 * break (a space, Chinese text, or after a hyphen or slash).
 */
export function leadingRun(raw: string): string {
  // pdfjs may read the gap after a bracket as a space.
  const text = raw.trimStart().replace(/^([（「『【〔〈《])\s+/u, '$1');
  return /^[（「『【〔〈《]?[^\s\p{Script=Han}\u3000-\u303f\uff00-\uffef]+?(?:[-/](?=[^\s/])|(?=[\s\p{Script=Han}\u3000-\u303f\uff00-\uffef])|$)/u.exec(text)?.[0] ?? '';
}

/**
 * The room `run` takes at the end of the line `text`. After a Han character, the two are measured together less the
 * character alone, so the measure adds Writer's Chinese–Latin gap (none beside a bracket); after Latin text
 * ("Retrieval-" "Augmented") there is no gap, and the run is measured alone.
 */
function joinedWidth(text: string, run: string, sizePt: number, widthOf: WidthOf): number {
  const last = [...text].at(-1) ?? '';
  return /\p{Script=Han}/u.test(last) ? widthOf(last + run, sizePt) - widthOf(last, sizePt) : widthOf(run, sizePt);
}

/** Characters no line may start with (clreq): closing marks and stops. */
const NO_LINE_START = /^[、，。；：！？）」』】〕〉》]/u;

/** Indexes of the compressible marks of a line's text, nearest its end first. */
const marksOf = (text: string): number[] => [...text].flatMap((c, k) => (COMPRESSIBLE.test(c) ? [k] : [])).reverse();

/**
 * Marks to compress on each letter-spaced justified line whose next run would fit with them compressed, in reading
 * order. When the line's own marks are not enough, its first characters may move up to the line before (the same
 * paragraph's, on the same page), if that line's marks make room for them: the line then holds less, and the run fits.
 */
export function tightLineCompressions(pages: readonly (readonly PlacedRun[])[], box: TextBox, widthOf: WidthOf): MarkCompression[] {
  const lines = pages.flatMap((runs, page) => linesOf(runs, box).map((line) => ({ ...line, page })));
  const texts = lines.map((line) => printedText(line.raw));
  const starts: number[] = [];
  texts.reduce((at, text) => (starts.push(at), at + text.length), 0);
  const body = texts.join('');
  const found: MarkCompression[] = [];
  const compress = (i: number, after: string, offsets: readonly number[]): void => {
    if (offsets.length === 0) return;
    const text = (texts[i] ?? '') + after;
    found.push({ text, occurrence: occurrences(body, text, starts[i] ?? 0), of: occurrences(body, text, body.length), offsets: [...offsets].sort((a, b) => a - b) });
  };
  const justified = (line: Line): boolean => line.right >= box.right - EDGE_PT && line.size > 0;
  lines.forEach((line, i) => {
    const text = texts[i] ?? '';
    const next = lines[i + 1];
    if (!next || !justified(line)) return;
    const spread = spreadOf(line);
    if (spread <= TIGHTEN_ABOVE_EM * line.size) return;
    const run = leadingRun(next.raw);
    // After a soft hyphen the PDF prints a hyphen the text does not have: such a line is not found, and left alone.
    if (run === '' || !/[A-Za-z0-9]/u.test(run)) return;
    const opening = OPENING.test(run);
    const needed = joinedWidth(text, run, line.size, widthOf) - spread * gapsOf(line) + SPARE_PT;
    if (needed <= 0) return;
    const half = line.size / 2;
    // The run's own bracket first (it is what has to move up), then the line's marks from its end.
    const own = [...(opening ? [text.length] : []), ...marksOf(text)];
    if (Math.ceil(needed / half) <= own.length) {
      compress(i, printedText(run), own.slice(0, Math.ceil(needed / half)));
      return;
    }
    const previous = lines[i - 1];
    // The line before must be the same paragraph's: on the same page, justified, and this line not indented.
    if (!previous || previous.page !== line.page || !justified(previous) || Math.abs(line.left - box.left) > 1) return;
    const previousText = texts[i - 1] ?? '';
    const previousRoom = spreadOf(previous) * gapsOf(previous);
    for (let moved = 1; moved <= 2; moved += 1) {
      const up = text.slice(0, moved);
      if (!/^\p{Script=Han}+$/u.test(up) || NO_LINE_START.test(text.slice(moved))) return;
      const previousCount = Math.ceil((moved * line.size - previousRoom + SPARE_PT) / half);
      const ownCount = Math.max(0, Math.ceil((needed - moved * line.size) / half));
      // A line before that had room already did not take the character for a reason not known here.
      if (previousCount <= 0 || previousCount > marksOf(previousText).length || ownCount > own.length) continue;
      compress(i - 1, up, marksOf(previousText).slice(0, previousCount));
      compress(i, printedText(run), own.slice(0, ownCount));
      return;
    }
  });
  return found;
}

/** How many times `text` appears in `body` before `before`. */
function occurrences(body: string, text: string, before: number): number {
  let count = 0;
  for (let from = body.indexOf(text); from >= 0 && from < before; from = body.indexOf(text, from + 1)) count += 1;
  return count;
}
