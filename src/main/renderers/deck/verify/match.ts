// Which planned box each rendered word belongs to. Words are matched a line at a time (runs on one
// baseline with no gap wider than a space belong to one box): to the box whose text explains the
// most of the line's words, a box that also contains the line counting as 1.5 words more. That
// keeps overflow (text of a box found outside it) with its own box, and puts auto-numbers, chart
// labels and table cells (words no box's text has) with the box they are drawn in.
//
// A box's words that are nowhere on the page are "missing": LibreOffice does not draw lines that
// fall beyond the page, so that is how text running off the slide shows up.
import { tokenize } from './tokens';
import { type PlannedBox, type Rect } from './types';
import { type RenderedWord } from './pdf-words';

/** Containment slack, inches: a glyph may touch its box's edge. */
export const CONTAIN_TOLERANCE = 0.05;
const CONTAINS_BONUS = 1.5;
const NUMBER_KEY = /^\d+$/;
/**
 * LibreOffice writes a box's lines one after another, so a line in the same font size as the line
 * before, all of whose words the previous line's box still expects, most likely continues that box
 * (the last word of a title wrapping down into the body's area).
 */
const CONTINUES_BONUS = 2;
const SAME_SIZE = 0.05;
/** Runs closer than this (in ems) on one baseline form one line. */
const LINE_GAP_EM = 0.6;
const BASELINE_EM = 0.15;

export interface BoxWords {
  box: PlannedBox;
  words: RenderedWord[];
  /** Words of the box's text not found anywhere on the page, in text order. */
  missing: string[];
}

export interface SlideMatch {
  boxes: BoxWords[];
  /** Words drawn outside every box that no box's text has. */
  stray: RenderedWord[];
}

export function expand(r: Rect, by: number): Rect {
  return { x: r.x - by, y: r.y - by, w: r.w + 2 * by, h: r.h + 2 * by };
}

export function containsPoint(r: Rect, x: number, y: number): boolean {
  return x >= r.x && x <= r.x + r.w && y >= r.y && y <= r.y + r.h;
}

export function bounds(rects: readonly Rect[]): Rect | null {
  if (rects.length === 0) return null;
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (const r of rects) {
    x0 = Math.min(x0, r.x);
    y0 = Math.min(y0, r.y);
    x1 = Math.max(x1, r.x + r.w);
    y1 = Math.max(y1, r.y + r.h);
  }
  return { x: x0, y: y0, w: x1 - x0, h: y1 - y0 };
}

function distance(a: Rect, b: Rect): number {
  const dx = Math.max(0, b.x - (a.x + a.w), a.x - (b.x + b.w));
  const dy = Math.max(0, b.y - (a.y + a.h), a.y - (b.y + b.h));
  return Math.hypot(dx, dy);
}

/** Words grouped into lines (see above), in reading order. */
export function groupLines(words: readonly RenderedWord[]): RenderedWord[][] {
  const lines: RenderedWord[][] = [];
  let current: RenderedWord[] = [];
  let end = -Infinity;
  for (const word of words) {
    const last = current.at(-1);
    const sameLine =
      last !== undefined &&
      (word.run === last.run ||
        (Math.abs(word.baseline - last.baseline) <= BASELINE_EM * Math.max(word.size, last.size) && word.x - end <= LINE_GAP_EM * Math.max(word.size, last.size) && word.x >= end - last.size));
    if (!sameLine && current.length > 0) {
      lines.push(current);
      current = [];
    }
    current.push(word);
    end = word.x + word.w;
  }
  if (current.length > 0) lines.push(current);
  return lines;
}

function countKeys(keys: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const k of keys) counts.set(k, (counts.get(k) ?? 0) + 1);
  return counts;
}

function coverage(line: readonly RenderedWord[], capacity: Map<string, number>): number {
  const want = countKeys(line.map((w) => w.key));
  let n = 0;
  for (const [k, c] of want) n += Math.min(c, capacity.get(k) ?? 0);
  return n;
}

function area(r: Rect): number {
  return r.w * r.h;
}

export function matchWords(boxes: readonly PlannedBox[], words: readonly RenderedWord[]): SlideMatch {
  const entries = boxes.map((box) => {
    const tokens = box.text ? tokenize(box.text) : [];
    return { box, tokens, capacity: countKeys(tokens.map((t) => t.key)), words: [] as RenderedWord[], unexpected: [] as RenderedWord[] };
  });
  const textual = entries.filter((e) => e.tokens.length > 0);
  const stray: RenderedWord[] = [];
  let previous: { entry: (typeof entries)[number]; size: number } | null = null;

  for (const line of groupLines(words)) {
    const area_ = bounds(line);
    if (!area_) continue;
    const cx = area_.x + area_.w / 2;
    const cy = area_.y + area_.h / 2;
    const inside = (e: (typeof entries)[number]) => containsPoint(expand(e.box, CONTAIN_TOLERANCE), cx, cy);
    const size = line[0]?.size ?? 0;
    const continues = (e: (typeof entries)[number], covered: number) =>
      previous?.entry === e && covered === line.length && Math.abs(previous.size - size) <= SAME_SIZE * Math.max(size, previous.size);
    let best: (typeof entries)[number] | undefined;
    let bestScore = 0;
    for (const e of textual) {
      const covered = coverage(line, e.capacity);
      if (covered === 0) continue;
      const score = covered + (inside(e) ? CONTAINS_BONUS : 0) + (continues(e, covered) ? CONTINUES_BONUS : 0);
      const better =
        score > bestScore ||
        (score === bestScore && best !== undefined && (inside(e) && inside(best) ? area(e.box) < area(best.box) : distance(e.box, area_) < distance(best.box, area_)));
      if (better) {
        best = e;
        bestScore = score;
      }
    }
    // Words no box's text explains belong to the smallest box they are drawn in. So does a line drawn
    // inside another box that a distant box explains only in part: a chart label "74.6%" shares the
    // token "6" with the page number, but the label is the chart's; real overflow is explained whole.
    const container = entries.filter(inside).sort((a, b) => area(a.box) - area(b.box))[0];
    if (best && container && !inside(best) && coverage(line, best.capacity) < line.length) best = container;
    // A chart draws numbers no text lists (axis ticks, data labels): a tick "4" is the chart's, even
    // when the page number 4 explains it whole.
    if (best && container && !inside(best) && container.box.role === 'chart' && line.every((w) => NUMBER_KEY.test(w.key))) best = container;
    best ??= container;
    if (!best) {
      stray.push(...line);
      previous = null;
      continue;
    }
    previous = { entry: best, size };
    for (const word of line) {
      best.words.push(word);
      const left = best.capacity.get(word.key) ?? 0;
      if (left > 0) best.capacity.set(word.key, left - 1);
      else best.unexpected.push(word);
    }
  }

  // A word matched to the wrong box (a lone "the" of an overflowing line inside another box) is
  // still on the page; and a word LibreOffice broke across lines comes back as pieces.
  const spare = countKeys(entries.flatMap((e) => e.unexpected.map((w) => w.key)));
  const result: BoxWords[] = entries.map((e) => {
    const pieces = countKeys(e.unexpected.flatMap((w) => [...w.key]));
    const remaining = new Map(e.capacity);
    const missing: string[] = [];
    // The last occurrences of a word are the ones missing: overflow loses the end of the text.
    for (let i = e.tokens.length - 1; i >= 0; i -= 1) {
      const token = e.tokens[i];
      if (!token) continue;
      const left = remaining.get(token.key) ?? 0;
      if (left === 0) continue;
      remaining.set(token.key, left - 1);
      if ((spare.get(token.key) ?? 0) > 0) {
        spare.set(token.key, (spare.get(token.key) ?? 0) - 1);
        continue;
      }
      const chars = countKeys([...token.key]);
      if ([...chars].every(([ch, n]) => (pieces.get(ch) ?? 0) >= n)) {
        for (const [ch, n] of chars) pieces.set(ch, (pieces.get(ch) ?? 0) - n);
        continue;
      }
      missing.unshift(token.text);
    }
    return { box: e.box, words: e.words, missing };
  });
  return { boxes: result, stray };
}
