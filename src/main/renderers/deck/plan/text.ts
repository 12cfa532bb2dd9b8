// Measured text: how tall paragraphs are in a box, and fitting one text into a box by size (grow when
// there is room, shrink toward a floor) and, as the last resort, an ellipsis on a measured line with
// the whole text moved to the notes. The drawer hands the client whole paragraphs; one with CJK
// text carries the line breaks measured here (a client breaks Chinese between any two characters,
// inside words), the others the client wraps, and our measure errs wide, so it wraps no later.
import { lineStartTrim } from '../../../../shared/specs/deck';
import { type PlanParagraph, type TextElement, type TextRole } from '../../../../shared/specs/deck-plan';
import { bulletIndentPt, FIT_SLACK, POINTS_PER_INCH, type Region } from '../../../../shared/specs/deck-geometry';
import { CODE_LATIN_FACE, type Theme } from '../../../../shared/specs/themes';
import { type FontPair, type MeasureStyle, type TextMeasurer } from '../../typesetting/text-measurer';
import { shrunkMessage } from '../report';
import { balancedLines } from '../../typesetting/balanced-lines';
import { type PlanContext, type SlideBuilder } from './context';

export type FontRole = TextElement['font'];

export function fontPair(ctx: PlanContext, font: FontRole): FontPair {
  return fontPairOf(ctx.theme, font);
}

export function fontPairOf(theme: Pick<Theme, 'fonts'>, font: FontRole): FontPair {
  const f = theme.fonts;
  if (font === 'code') return { latin: CODE_LATIN_FACE, cjk: f.cjkBody };
  return font === 'heading' ? { latin: f.latinHeading, cjk: f.cjkHeading } : { latin: f.latinBody, cjk: f.cjkBody };
}

/** Width (inches) a paragraph's text may use in a box `boxW` inches wide: bullets indent it (as a template sets them, else by level). */
export function textWidthFor(p: Pick<PlanParagraph, 'bullet' | 'level' | 'sizePt' | 'marginPt'>, boxW: number): number {
  if (p.bullet === 'none') return boxW;
  return boxW - (p.marginPt ?? bulletIndentPt(p.sizePt) * (p.level + 1)) / POINTS_PER_INCH;
}

/** A template's bulleted text starts where its bullet level says (`marginPt`); undefined without a template bullet at that level. */
export function templateMarginPt(theme: Pick<Theme, 'template'>, level: number): number | undefined {
  const bullet = theme.template?.bullets?.[level];
  return bullet?.char ? bullet.marginPt : undefined;
}

export interface MeasuredParagraphs {
  /** Lines of each paragraph. */
  lines: number[];
  /** Inches, spacing after every paragraph but the last included. */
  height: number;
}

/**
 * The lines of one paragraph in a box `boxW` inches wide, as the planner counts them and as the
 * drawer writes them (CJK paragraphs and headings carry these breaks into the file, draw/text.ts).
 * A heading of two lines is balanced (typesetting/balanced-lines.ts); with three or more, balancing moves Chinese
 * words and particles about ("物理约束 / 的积水 / 预测模型") more than it helps.
 */
export function paragraphLines(
  measurer: TextMeasurer,
  theme: Pick<Theme, 'fonts'>,
  p: Pick<PlanParagraph, 'text' | 'bullet' | 'level' | 'sizePt' | 'bold' | 'marginPt'>,
  font: FontRole,
  boxW: number,
  align?: TextElement['align'],
): string[] {
  const fonts = fontPairOf(theme, font);
  const style: MeasureStyle = { fonts, sizePt: p.sizePt, bold: p.bold };
  const maxPt = Math.max(1, textWidthFor(p, boxW) * POINTS_PER_INCH);
  // A line that starts with an opening bracket starts half an em sooner in a text box set flush left.
  const lines = measurer.wrap(p.text, style, maxPt, align === undefined ? undefined : lineStartTrim(align, p));
  return font === 'heading' && lines.length === 2 ? balancedLines(measurer, p.text, style, maxPt, 2) : lines;
}

/** Lines and height of paragraphs set in `font` in a box `boxW` inches wide. */
export function measureParagraphs(ctx: PlanContext, paragraphs: readonly PlanParagraph[], font: FontRole, boxW: number, lineHeight: number, align?: TextElement['align']): MeasuredParagraphs {
  const lines = paragraphs.map((p) => paragraphLines(ctx.measurer, ctx.theme, p, font, boxW, align).length);
  let height = 0;
  paragraphs.forEach((p, i) => {
    height += ((lines[i] ?? 1) * p.sizePt * lineHeight) / POINTS_PER_INCH;
    if (i < paragraphs.length - 1) height += p.spaceAfterPt / POINTS_PER_INCH;
  });
  return { lines, height };
}

/** Measured height (inches) of a planned text element's paragraphs in its own box. */
export function textHeight(ctx: PlanContext, el: TextElement): number {
  return measureParagraphs(ctx, el.paragraphs, el.font, el.box.w, el.lineHeight, el.align).height;
}

export interface TextStyle {
  /** Unique on the slide; report messages name it unless `what` is given. */
  id: string;
  role: TextRole;
  font: FontRole;
  /** The comfortable size, points: below it is "shrunk" in the report. */
  sizePt: number;
  /** Shrink no further than this (defaults to sizePt: no shrinking). */
  floorPt?: number;
  /** Grow up to this when there is room (defaults to sizePt). */
  maxPt?: number;
  /** When growing, keep the text within this share of the box height (0..1). */
  growFill?: number;
  bold?: boolean;
  color: string;
  /** What the text is drawn on, for the contrast check (defaults to the slide background). */
  background?: string;
  align?: TextElement['align'];
  valign?: TextElement['valign'];
  /** Defaults to the theme's line height. */
  lineHeight?: number;
  /** At most this many lines (a title's two). */
  maxLines?: number;
  /** Space between the text's own paragraphs (newlines in the spec), points. */
  spaceAfterPt?: number;
  /** The text's name in report messages ("title", "quote"). */
  what?: string;
}

export interface FittedText {
  element: TextElement;
  /** Measured height of the text, inches. */
  height: number;
  sizePt: number;
  /** Cut with an ellipsis (and moved whole to the notes). */
  cut: boolean;
}

function paragraphsAt(text: string, s: TextStyle, sizePt: number): PlanParagraph[] {
  return text.split(/\r?\n/).map((t) => ({
    text: t,
    level: 0,
    bullet: 'none' as const,
    sizePt,
    bold: s.bold ?? false,
    color: s.color,
    spaceAfterPt: s.spaceAfterPt ?? Math.round(sizePt * 0.4),
  }));
}

/** The prefix of `text` that `lines` (from wrap, trailing spaces dropped) came from. */
export function prefixOfLines(text: string, lines: readonly string[]): string {
  let pos = 0;
  for (const line of lines) {
    const at = text.indexOf(line, pos);
    if (at < 0) break;
    pos = at + line.length;
  }
  return text.slice(0, pos);
}

/**
 * Fits `text` into `box`: the largest size from `maxPt` down to `floorPt` at which it fits (within
 * `maxLines`); when even the floor is too big, keeps the lines that fit, ends the last one with "…"
 * (measured, so it still fits) and moves the whole text to the notes. Shrinking and cutting are
 * written to the report. The element's box is the one given; `height` says how much of it is used.
 */
export function fitText(ctx: PlanContext, slide: SlideBuilder, text: string, box: Region, s: TextStyle): FittedText {
  const lineHeight = s.lineHeight ?? ctx.theme.lineHeight;
  const floor = Math.min(s.floorPt ?? s.sizePt, s.sizePt);
  const max = Math.max(s.maxPt ?? s.sizePt, s.sizePt);
  const room = Math.max(0.1, box.h - FIT_SLACK);
  const what = s.what ?? s.id;
  // On a template, text not on a shape of Folio's is checked against what the template paints
  // behind it once the slide is placed (plan/backdrops.ts), not against the slide's background.
  if (!ctx.theme.template || s.background !== undefined) ctx.report.checkContrast(what, s.color, s.background ?? slide.background, { sizePt: floor, bold: s.bold ?? false });
  const make = (paragraphs: PlanParagraph[], lines: number): TextElement => ({
    kind: 'text',
    id: s.id,
    role: s.role,
    box,
    font: s.font,
    paragraphs,
    align: s.align ?? 'left',
    valign: s.valign ?? 'top',
    lineHeight,
    lines,
  });
  for (let size = max; size >= floor; size--) {
    const paragraphs = paragraphsAt(text, s, size);
    const m = measureParagraphs(ctx, paragraphs, s.font, box.w, lineHeight, s.align ?? 'left');
    const total = m.lines.reduce((a, b) => a + b, 0);
    const limit = size > s.sizePt ? room * (s.growFill ?? 1) : room;
    // A box made to hold exactly these lines (height + FIT_SLACK) holds them: no rounding shrinks them.
    if (m.height <= limit + 1e-9 && (s.maxLines === undefined || total <= s.maxLines)) {
      if (size < s.sizePt) ctx.report.add('shrunk', shrunkMessage(what, s.sizePt, size));
      return { element: make(paragraphs, total), height: m.height, sizePt: size, cut: false };
    }
  }
  // Cut at the floor: whole paragraphs while they fit, then the lines of the next that fit.
  const fonts = fontPair(ctx, s.font);
  const style: MeasureStyle = { fonts, sizePt: floor, bold: s.bold ?? false };
  const widthPt = box.w * POINTS_PER_INCH;
  const lineIn = (floor * lineHeight) / POINTS_PER_INCH;
  const spaceIn = (s.spaceAfterPt ?? Math.round(floor * 0.4)) / POINTS_PER_INCH;
  let linesLeft = Math.max(1, Math.min(s.maxLines ?? Infinity, Math.floor(room / lineIn)));
  let heightLeft = room;
  const paras = text.split(/\r?\n/);
  const kept: string[] = [];
  let used = 0;
  for (const para of paras) {
    const lines = ctx.measurer.wrap(para, style, widthPt);
    const can = Math.min(linesLeft, Math.floor((heightLeft + 1e-6) / lineIn));
    if (can <= 0) break;
    if (lines.length <= can) {
      kept.push(para);
      used += lines.length;
      linesLeft -= lines.length;
      heightLeft -= lines.length * lineIn + spaceIn;
      continue;
    }
    kept.push(cutAfterLines(ctx, para, lines, can, style, widthPt));
    used += can;
    break;
  }
  // The last kept paragraph was whole but what follows did not fit: it ends with the ellipsis.
  const lastKept = kept[kept.length - 1];
  if (lastKept !== undefined && !lastKept.endsWith('…')) {
    const lines = ctx.measurer.wrap(lastKept, style, widthPt);
    kept[kept.length - 1] = cutAfterLines(ctx, lastKept, lines, lines.length, style, widthPt);
  }
  if (kept.length === 0) kept.push(ctx.measurer.ellipsize(text, style, widthPt));
  slide.addNote(text);
  ctx.report.add('dropped', `${what} did not fit even at ${floor} pt: cut with "…" after ${used || 1} line(s); the full text is in the notes`);
  const paragraphs = paragraphsAt(kept.join('\n'), s, floor);
  const m = measureParagraphs(ctx, paragraphs, s.font, box.w, lineHeight, s.align ?? 'left');
  return { element: make(paragraphs, m.lines.reduce((a, b) => a + b, 0)), height: m.height, sizePt: floor, cut: true };
}

/** `para` through its first `n` wrapped lines, the n-th ending with a measured "…". */
function cutAfterLines(ctx: PlanContext, para: string, lines: readonly string[], n: number, style: MeasureStyle, widthPt: number): string {
  const before = prefixOfLines(para, lines.slice(0, n - 1));
  const through = prefixOfLines(para, lines.slice(0, n));
  const last = para.slice(before.length, through.length);
  const sep = before !== '' && /^\s/.test(last) ? ' ' : '';
  return `${before}${sep}${ctx.measurer.ellipsize(last.trim(), style, widthPt)}`;
}
