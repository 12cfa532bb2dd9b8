// Bullet lists, fitted the way a designer would: at the comfortable size (larger when the list is
// short); 7-10 short bullets set in two columns; when the list does not fit, long bullets are
// shortened on the slide with their full text in the notes, then the list is split evenly over
// continuation slides, and only then is the type shrunk (never below the body floor) or, in a box
// that cannot continue, the last points cut with an ellipsis and moved to the notes.
import { type BulletItem } from '../../../../shared/specs/deck';
import { BODY_FLOOR_PT, columns, FIT_SLACK, GUTTER, opticalTop, POINTS_PER_INCH, type Region, secondarySizePt } from '../../../../shared/specs/deck-geometry';
import { type PlanParagraph, type TextElement } from '../../../../shared/specs/deck-plan';
import { type MeasureStyle } from '../../typesetting/text-measurer';
import { shrunkMessage } from '../report';
import { type PlanContext } from './context';
import { balancedPages } from './pages';
import { fontPair, measureParagraphs, prefixOfLines, templateMarginPt, textWidthFor } from './text';

export interface BulletGroup {
  text: string;
  sub: string[];
}

const BLANK = /^[\s\u200B-\u200D\u2060\uFEFF]*$/u;

/**
 * The list as it is drawn: blank points (whitespace only, as a model sometimes writes) are dropped,
 * since a bullet with no text prints as a lone "•"; the sub-points of a blank point become points of
 * their own rather than sliding under the point before it.
 */
export function bulletGroups(items: readonly BulletItem[]): BulletGroup[] {
  return items.flatMap((item): BulletGroup[] => {
    const text = typeof item === 'string' ? item : item.text;
    const sub = typeof item === 'string' ? [] : item.sub.filter((t) => !BLANK.test(t));
    if (!BLANK.test(text)) return [{ text, sub }];
    return sub.map((t) => ({ text: t, sub: [] }));
  });
}

/** Every text of a list, bullets and sub-bullets, in order. */
export function bulletTexts(items: readonly BulletItem[]): string[] {
  return bulletGroups(items).flatMap((g) => [g.text, ...g.sub]);
}

export interface BulletFitOptions {
  /** Names the list in report messages ("bullets", "left column"). */
  what: string;
  /** 7-10 short bullets may be set in two columns. */
  allowColumns?: boolean;
  /** The list may continue on more slides (else it is shrunk, then cut). */
  allowSplit?: boolean;
  /** Comfortable size, points (defaults to the theme's body size). */
  sizePt?: number;
  /** Largest size for a short list (defaults to the comfortable size + 4). */
  maxPt?: number;
}

export interface BulletFit {
  sizePt: number;
  /** Output slides → columns → paragraphs. */
  pages: PlanParagraph[][][];
  /** Measured height of each column of each page, inches. */
  heights: number[][];
  /** Texts shortened or cut on the slide, in full, for the speaker notes. */
  notes: string[];
}

/** Sub-bullets are set a step smaller than their bullet, never below the floor. */
const subSize = secondarySizePt;

/** A template's margin for bulleted text at `level`, as a paragraph field (none without one). */
function margin(ctx: PlanContext, level: number): Pick<PlanParagraph, 'marginPt'> {
  const marginPt = templateMarginPt(ctx.theme, level);
  return marginPt === undefined ? {} : { marginPt };
}

function groupParagraphs(ctx: PlanContext, g: BulletGroup, sizePt: number): PlanParagraph[] {
  const p = ctx.theme.palette;
  const sub = subSize(sizePt);
  const gap = Math.round(sizePt * 0.5);
  const paras: PlanParagraph[] = [{ text: g.text, level: 0, bullet: 'disc', sizePt, bold: false, color: p.text, spaceAfterPt: g.sub.length > 0 ? Math.round(sub * 0.25) : gap, ...margin(ctx, 0) }];
  g.sub.forEach((t, i) => paras.push({ text: t, level: 1, bullet: 'disc', sizePt: sub, bold: false, color: p.muted, spaceAfterPt: i === g.sub.length - 1 ? gap : Math.round(sub * 0.25), ...margin(ctx, 1) }));
  return paras;
}

function listParagraphs(ctx: PlanContext, groups: readonly BulletGroup[], sizePt: number): PlanParagraph[] {
  return groups.flatMap((g) => groupParagraphs(ctx, g, sizePt));
}

function listHeight(ctx: PlanContext, groups: readonly BulletGroup[], sizePt: number, w: number): number {
  return measureParagraphs(ctx, listParagraphs(ctx, groups, sizePt), 'body', w, ctx.theme.lineHeight, 'left').height;
}

/** Height a group adds to a list (its spacing after included), for splitting. */
function groupHeight(ctx: PlanContext, g: BulletGroup, sizePt: number, w: number): number {
  const paras = groupParagraphs(ctx, g, sizePt);
  const last = paras[paras.length - 1];
  return measureParagraphs(ctx, paras, 'body', w, ctx.theme.lineHeight, 'left').height + (last?.spaceAfterPt ?? 0) / POINTS_PER_INCH;
}

function linesOf(ctx: PlanContext, text: string, sizePt: number, level: 0 | 1, w: number): string[] {
  const style: MeasureStyle = { fonts: fontPair(ctx, 'body'), sizePt };
  return ctx.measurer.wrap(text, style, Math.max(1, textWidthFor({ bullet: 'disc', level, sizePt, ...margin(ctx, level) }, w) * POINTS_PER_INCH));
}

/** A sentence's end; not the stop after a list number ("2. The …"). */
const SENTENCE_END = /(?<!(?:^|\s)\d{1,3})[.!?](?=\s|$)|[。！？]/u;

/**
 * A long bullet's first sentence, when the bullet takes more than `maxLines` lines and its first
 * sentence fits them; null otherwise (the bullet stays whole).
 */
function firstSentence(ctx: PlanContext, text: string, sizePt: number, level: 0 | 1, w: number, maxLines: number): string | null {
  const lines = linesOf(ctx, text, sizePt, level, w);
  if (lines.length <= maxLines) return null;
  const end = SENTENCE_END.exec(text);
  if (!end || end.index + 1 >= text.trim().length) return null;
  const first = text.slice(0, end.index + 1).trim();
  return linesOf(ctx, first, sizePt, level, w).length <= maxLines ? first : null;
}

/**
 * A long bullet shortened to at most `maxLines` lines: its first sentence when that is short enough,
 * else its first lines ending with a measured "…" (the last resort, reported as dropped). Returns
 * null when the text already fits.
 */
function shorten(ctx: PlanContext, text: string, sizePt: number, level: 0 | 1, w: number, maxLines: number): string | null {
  const lines = linesOf(ctx, text, sizePt, level, w);
  if (lines.length <= maxLines) return null;
  const end = SENTENCE_END.exec(text);
  if (end && end.index + 1 < text.trim().length) {
    const first = text.slice(0, end.index + 1).trim();
    if (linesOf(ctx, first, sizePt, level, w).length <= maxLines) return first;
  }
  const style: MeasureStyle = { fonts: fontPair(ctx, 'body'), sizePt };
  const widthPt = textWidthFor({ bullet: 'disc', level, sizePt, ...margin(ctx, level) }, w) * POINTS_PER_INCH;
  const before = prefixOfLines(text, lines.slice(0, maxLines - 1));
  const through = prefixOfLines(text, lines.slice(0, maxLines));
  const last = text.slice(before.length, through.length);
  return `${before}${before && /^\s/.test(last) ? ' ' : ''}${ctx.measurer.ellipsize(last.trim(), style, widthPt)}`;
}

/** Fits a bullet list into `box` (see the file comment for the order of compromises). */
export function fitBullets(ctx: PlanContext, items: readonly BulletItem[], box: Region, o: BulletFitOptions): BulletFit {
  const body = o.sizePt ?? ctx.theme.sizes.body;
  const floor = Math.min(BODY_FLOOR_PT, body);
  const max = o.maxPt ?? body + 4;
  const room = Math.max(0.2, box.h - FIT_SLACK);
  let groups = bulletGroups(items);
  const one = (size: number, gs: BulletGroup[] = groups): BulletFit => ({
    sizePt: size,
    pages: [[listParagraphs(ctx, gs, size)]],
    heights: [[listHeight(ctx, gs, size, box.w)]],
    notes,
  });
  const notes: string[] = [];
  if (groups.length === 0) return { sizePt: body, pages: [[[]]], heights: [[0]], notes };

  // Two columns for 7-10 short bullets: a long single column of one-liners reads as a wall.
  const [colL, colR] = columns(box, 2, GUTTER);
  if (o.allowColumns && colL && colR && groups.length >= 7 && groups.length <= 10) {
    const short = groups.every((g) => g.sub.length === 0 && linesOf(ctx, g.text, body, 0, colL.w).length === 1);
    if (short) {
      const half = Math.ceil(groups.length / 2);
      const sides = [groups.slice(0, half), groups.slice(half)];
      for (let size = max; size >= body; size--) {
        const heights = sides.map((gs) => listHeight(ctx, gs, size, colL.w));
        if (Math.max(...heights) <= (size > body ? room * 0.8 : room)) {
          ctx.report.add('restructured', `${groups.length} short bullets set in two columns`);
          return { sizePt: size, pages: [sides.map((gs) => listParagraphs(ctx, gs, size))], heights: [heights], notes };
        }
      }
    }
  }

  // As written, at the comfortable size or larger when there is room.
  for (let size = max; size >= body; size--) {
    if (listHeight(ctx, groups, size, box.w) <= (size > body ? room * 0.7 : room)) return one(size);
  }

  // Restructure: a long bullet keeps its first sentence on the slide (the whole point goes to the
  // notes). A phrase is never cut here: a bullet without a short first sentence stays whole.
  let shortened = 0;
  groups = groups.map((g) => {
    const text = firstSentence(ctx, g.text, body, 0, box.w, 2);
    const sub = g.sub.map((t) => {
      const s = firstSentence(ctx, t, subSize(body), 1, box.w, 2);
      if (s !== null) {
        notes.push(t);
        shortened++;
      }
      return s ?? t;
    });
    if (text !== null) {
      notes.push(g.text);
      shortened++;
    }
    return { text: text ?? g.text, sub };
  });
  if (shortened > 0) ctx.report.add('restructured', `${shortened} long point(s) in the ${o.what} shortened to their first sentence on the slide; their full text is in the notes`);
  if (listHeight(ctx, groups, body, box.w) <= room) return one(body);

  // Split evenly over continuation slides, at the comfortable size when no slide is left holding a
  // single point; else at the largest size down to the floor where none is (3 + 2 at 22 pt rather
  // than 2 + 2 + 1 at 24).
  if (o.allowSplit && groups.length > 1) {
    const splitAt = (size: number): BulletGroup[][] | null => {
      const heights = groups.map((g) => groupHeight(ctx, g, size, box.w));
      if (Math.max(...heights) > room) return null;
      return balancedPages(heights, room).map((idx) => idx.map((i) => groups[i]));
    };
    const lonely = (pages: BulletGroup[][]): boolean => pages.some((pg) => pg.length < 2);
    let chosen: { size: number; pages: BulletGroup[][] } | null = null;
    const atBody = splitAt(body);
    if (atBody && !lonely(atBody)) chosen = { size: body, pages: atBody };
    for (let size = body - 1; !chosen && size >= floor; size--) {
      const pages = splitAt(size);
      if (pages && !lonely(pages)) chosen = { size, pages };
    }
    if (!chosen && atBody) chosen = { size: body, pages: atBody };
    if (chosen) {
      const { size, pages } = chosen;
      if (size < body) ctx.report.add('shrunk', shrunkMessage(o.what, body, size));
      ctx.report.add('split', `${groups.length} points did not fit one slide at ${body} pt: split evenly over ${pages.length} slides (${pages.map((pg) => pg.length).join(' + ')})`);
      return {
        sizePt: size,
        pages: pages.map((gs) => [listParagraphs(ctx, gs, size)]),
        heights: pages.map((gs) => [listHeight(ctx, gs, size, box.w)]),
        notes,
      };
    }
  }

  // Shrink toward the floor.
  for (let size = body - 1; size >= floor; size--) {
    if (listHeight(ctx, groups, size, box.w) <= room) {
      ctx.report.add('shrunk', shrunkMessage(o.what, body, size));
      return one(size);
    }
  }

  // Cut: the points that fit at the floor; the rest go to the notes.
  const kept: BulletGroup[] = [];
  for (const g of groups) {
    if (listHeight(ctx, [...kept, g], floor, box.w) > room) break;
    kept.push(g);
  }
  if (kept.length === 0) {
    const first = groups[0];
    kept.push({ text: shorten(ctx, first.text, floor, 0, box.w, 1) ?? first.text, sub: [] });
  }
  const left = groups.slice(kept.length);
  for (const g of left) notes.push([g.text, ...g.sub].join('\n'));
  ctx.report.add('dropped', `${left.length} of ${groups.length} point(s) in the ${o.what} did not fit at ${floor} pt and were moved to the notes`);
  return one(floor, kept);
}

/**
 * The text elements of one page of a fitted list inside `box`: columns side by side, the block set in
 * the optical middle when it is shorter than the box.
 */
export function bulletElements(ctx: PlanContext, fit: BulletFit, page: number, box: Region, id: string): TextElement[] {
  const cols = fit.pages[page] ?? [];
  const heights = fit.heights[page] ?? [];
  const regions = cols.length > 1 ? columns(box, cols.length, GUTTER) : [box];
  const blockH = Math.max(0, ...heights);
  const top = opticalTop(box, blockH + FIT_SLACK);
  return cols.map((paragraphs, i) => {
    const r = regions[i] ?? box;
    const m = measureParagraphs(ctx, paragraphs, 'body', r.w, ctx.theme.lineHeight, 'left');
    return {
      kind: 'text',
      id: cols.length > 1 ? `${id}-${i + 1}` : id,
      role: 'body',
      box: { x: r.x, y: top, w: r.w, h: box.y + box.h - top },
      font: 'body',
      paragraphs,
      align: 'left',
      valign: 'top',
      lineHeight: ctx.theme.lineHeight,
      lines: m.lines.reduce((a, b) => a + b, 0),
    };
  });
}
