// Reads back where every word landed on each page of the PDF LibreOffice made of a deck, in the
// deck's own units (inches from the slide's top left). pdfjs gives text runs (a line, or the part of
// a line in one font) with their origin, font size and advance width; the words inside a run are
// placed by their share of its width, weighting a CJK character as a full em and anything else as
// about half of one. That is exact for a run's extent (what the checks mostly use) and within a
// fraction of a word inside it.
import { FolioError } from '../../../../shared/errors';
import { directWorker, loadPdfjs, textOnlyParams } from '../../../sources/formats/pdfjs-load';
import { meetsAtCjkLatinGap } from '../../../../shared/specs/deck';
import { isSingleCharToken, tokenize } from './tokens';

/** Glyph extent above and below the baseline, as a share of the font size (typical of Latin and CJK faces). */
const ASCENT = 0.8;
const DESCENT = 0.2;
/** Relative advance of a space and of other non-CJK characters, against a CJK character's 1. */
const SPACE_WEIGHT = 0.28;
const LATIN_WEIGHT = 0.55;

export interface RenderedWord {
  /** Normalised token (see tokens.ts) and the text as rendered. */
  key: string;
  text: string;
  /** Glyph box, inches from the top left of the slide. */
  x: number;
  y: number;
  w: number;
  h: number;
  /** Baseline, inches from the top (distinct baselines are distinct lines). */
  baseline: number;
  /** Font size in inches. */
  size: number;
  /** The run the word came from (words of one run belong to one box). */
  run: number;
}

/**
 * A typed space drawn beside LibreOffice's own CJK–Latin gap: two gaps where clreq wants one
 * ("基于  Transformer").
 */
export interface DoubleGap {
  /** The characters either side of the gap. */
  before: string;
  after: string;
  /** Where the gap starts and ends, inches from the slide's top left (baseline for y). */
  x: number;
  xEnd: number;
  baseline: number;
  /** The gap from ink to ink, in em of the text. */
  em: number;
}

export interface RenderedPage {
  words: RenderedWord[];
  /** Read only from decks; absent where a caller builds pages itself. */
  doubleGaps?: DoubleGap[];
  /** The horizontal text runs with every character, punctuation too (words keep letters and digits only). */
  runs?: PlacedRun[];
}

/** A text run as pdfjs reads it, in the caller's units from the page's top left: a blank run stands for a gap. */
export interface PlacedRun {
  str: string;
  x: number;
  width: number;
  baseline: number;
  size: number;
}

export interface TextRun {
  str: string;
  transform: number[];
  width: number;
}

function charWeight(ch: string): number {
  if (/\s/u.test(ch)) return SPACE_WEIGHT;
  return isSingleCharToken(ch) ? 1 : LATIN_WEIGHT;
}

export interface PageFrame {
  left: number;
  top: number;
  /** Inches per PDF unit, across and down. */
  sx: number;
  sy: number;
}

/** The words of one run, placed along it. Rotated runs (axis titles) give every word the run's box. */
function runWords(run: TextRun, index: number, frame: PageFrame): RenderedWord[] {
  const tokens = tokenize(run.str);
  if (tokens.length === 0) return [];
  const [a = 1, b = 0, c = 0, d = 1, e = 0, f = 0] = run.transform;
  const size = Math.hypot(c, d);
  const toX = (px: number) => (px - frame.left) * frame.sx;
  const toY = (py: number) => (frame.top - py) * frame.sy;
  const sizeIn = size * frame.sy;
  if (Math.abs(b) > 1e-3 || Math.abs(c) > 1e-3 || a < 0 || d < 0) {
    const len = Math.hypot(a, b) || 1;
    const ux = a / len;
    const uy = b / len;
    const vx = c / (size || 1);
    const vy = d / (size || 1);
    const xs: number[] = [];
    const ys: number[] = [];
    for (const along of [0, run.width]) {
      for (const up of [-DESCENT * size, ASCENT * size]) {
        xs.push(toX(e + ux * along + vx * up));
        ys.push(toY(f + uy * along + vy * up));
      }
    }
    const x = Math.min(...xs);
    const y = Math.min(...ys);
    const box = { x, y, w: Math.max(...xs) - x, h: Math.max(...ys) - y };
    return tokens.map((t) => ({ key: t.key, text: t.text, ...box, baseline: toY(f), size: sizeIn, run: index }));
  }
  // Cumulative weights: where each character starts along the run.
  const chars = [...run.str];
  const offsets: number[] = [];
  let total = 0;
  let units = 0;
  for (const ch of chars) {
    for (let k = 0; k < ch.length; k += 1) offsets[units + k] = total;
    units += ch.length;
    total += charWeight(ch);
  }
  offsets[units] = total;
  const perUnit = total > 0 ? run.width / total : 0;
  const baseline = toY(f);
  return tokens.map((t) => {
    const x0 = toX(e + (offsets[t.start] ?? 0) * perUnit);
    const x1 = toX(e + (offsets[t.end] ?? total) * perUnit);
    return { key: t.key, text: t.text, x: x0, y: baseline - ASCENT * sizeIn, w: x1 - x0, h: (ASCENT + DESCENT) * sizeIn, baseline, size: sizeIn, run: index };
  });
}

/**
 * LibreOffice's CJK–Latin gap is 0.23–0.24 em and a space 0.22–0.28 em: one of them is below this,
 * both together 0.45 em or more. Above the upper bound the two runs are different boxes side by side.
 */
const DOUBLE_GAP_EM = { min: 0.38, max: 1.2 };
/** A typed space inside a run, counted at about its width in either script. */
const TYPED_SPACE_EM = 0.25;

const isHorizontal = (run: TextRun): boolean => {
  const [a = 1, b = 0, c = 0, d = 1] = run.transform;
  return Math.abs(b) < 1e-3 && Math.abs(c) < 1e-3 && a > 0 && d > 0;
};

/**
 * Gaps between neighbouring runs of one line where Chinese meets Latin and the gap is a typed space
 * plus LibreOffice's own (runs change there, as the faces do). pdfjs drops a blank run into wide
 * gaps; the ink either side is what is measured.
 */
export function findDoubleGaps(runs: readonly TextRun[], frame: PageFrame): DoubleGap[] {
  const gaps: DoubleGap[] = [];
  const inked = runs.filter((r) => r.str.trim() !== '' && isHorizontal(r));
  for (let i = 1; i < inked.length; i += 1) {
    const a = inked[i - 1];
    const b = inked[i];
    if (!a || !b) continue;
    const size = a.transform[3] ?? 0;
    const [, , , , ea = 0, fa = 0] = a.transform;
    const [, , , , eb = 0, fb = 0] = b.transform;
    if (size <= 0 || Math.abs(fa - fb) > 0.2 * size || Math.abs((b.transform[3] ?? 0) - size) > 0.2 * size) continue;
    const before = Array.from(a.str.trimEnd()).at(-1) ?? '';
    const after = Array.from(b.str.trimStart())[0] ?? '';
    if (!meetsAtCjkLatinGap(before, after)) continue;
    const typed = a.str.length - a.str.trimEnd().length + (b.str.length - b.str.trimStart().length);
    const em = (eb - (ea + a.width)) / size + typed * TYPED_SPACE_EM;
    if (em < DOUBLE_GAP_EM.min || em > DOUBLE_GAP_EM.max) continue;
    gaps.push({ before, after, x: (ea + a.width - frame.left) * frame.sx, xEnd: (eb - frame.left) * frame.sx, baseline: (frame.top - fa) * frame.sy, em });
  }
  return gaps;
}

function placedRuns(runs: readonly TextRun[], frame: PageFrame): PlacedRun[] {
  return runs.filter(isHorizontal).map((run) => ({
    str: run.str,
    x: ((run.transform[4] ?? 0) - frame.left) * frame.sx,
    width: run.width * frame.sx,
    baseline: (frame.top - (run.transform[5] ?? 0)) * frame.sy,
    size: (run.transform[3] ?? 0) * frame.sy,
  }));
}

/**
 * The words of every page of `pdf`, scaled so the page is `size` inches (LibreOffice rounds the
 * page size to its own units). Throws FolioError('tool_error') when the PDF cannot be read, and
 * FolioError('cancelled') when `signal` aborts between pages.
 */
export async function readPdfWords(
  pdf: Uint8Array,
  size: { w: number; h: number },
  signal?: AbortSignal,
  onPage?: (pagesRead: number) => void,
): Promise<RenderedPage[]> {
  const pdfjs = await loadPdfjs();
  const worker = directWorker(pdfjs);
  try {
    const doc = await pdfjs.getDocument(textOnlyParams(pdfjs, pdf, worker)).promise;
    try {
      const pages: RenderedPage[] = [];
      for (let n = 1; n <= doc.numPages; n += 1) {
        if (signal?.aborted) throw new FolioError('cancelled', 'The rendered-slide check was cancelled.');
        const page = await doc.getPage(n);
        const [x0 = 0, y0 = 0, x1 = 0, y1 = 0] = page.view;
        const frame: PageFrame = { left: x0, top: y1, sx: size.w / (x1 - x0 || 1), sy: size.h / (y1 - y0 || 1) };
        const content = await page.getTextContent({ includeMarkedContent: false, disableNormalization: false });
        const runs: TextRun[] = content.items.flatMap((item) => ('str' in item ? [item] : []));
        const words = runs.flatMap((run, i) => runWords(run, i, frame));
        page.cleanup();
        pages.push({ words, doubleGaps: findDoubleGaps(runs, frame), runs: placedRuns(runs, frame) });
        onPage?.(n);
      }
      return pages;
    } finally {
      await doc.destroy();
    }
  } catch (err) {
    if (err instanceof FolioError) throw err;
    throw new FolioError('tool_error', `The PDF LibreOffice made could not be read (${err instanceof Error ? err.message : String(err)}).`);
  } finally {
    worker?.destroy();
  }
}
