// Code on a slide (a two_column side's `code`): set in a monospace face (CODE_LATIN_FACE, Chinese in
// the theme's CJK body face) on a panel, one paragraph per line of code, never wrapped (a statement
// broken mid-token reads as two), its indentation kept. The size is the body's secondary size, a
// point smaller at a time until the longest line and every line fit, down to CODE_FLOOR_PT; below
// that, a line still too long is cut with "…" and lines past the panel's height give way to one "⋮"
// line, the whole code going to the speaker notes and the report saying so. An optional language
// label sits at the panel's top.
import { type PlanParagraph } from '../../../../shared/specs/deck-plan';
import { FIT_SLACK, POINTS_PER_INCH, type Region, secondarySizePt } from '../../../../shared/specs/deck-geometry';
import { shrunkMessage } from '../report';
import { type MeasureStyle } from '../../typesetting/text-measurer';
import { type PlanContext, type SlideBuilder } from './context';
import { fontPair } from './text';

/** Code smaller than this is not read from a slide. */
export const CODE_FLOOR_PT = 12;
const CODE_LINE_HEIGHT = 1.25;
/** The panel's padding around the code, inches. */
const PAD_X = 0.2;
const PAD_Y = 0.15;
const TAB = '    ';
/** Marks a line cut at the panel's edge, and the lines left out below it. */
export const CUT_LINE_MARK = '…';
export const CUT_LINES_MARK = '⋮';

/** The code's lines as written: CRLF and CR read as LF, tabs as four spaces, trailing blank lines and spaces dropped. */
export function codeLines(code: string): string[] {
  // A blank line keeps its height as a space: an empty paragraph takes its size from the client.
  return code.replace(/\r\n?/g, '\n').replace(/\n+$/, '').split('\n').map((l) => l.replace(/\t/g, TAB).trimEnd() || ' ');
}

interface CodeFit {
  lines: string[];
  sizePt: number;
  cut: boolean;
}

function fitCode(ctx: PlanContext, lines: readonly string[], widthPt: number, heightIn: number): CodeFit {
  const fonts = fontPair(ctx, 'code');
  const style = (sizePt: number): MeasureStyle => ({ fonts, sizePt });
  const widest = (sizePt: number): number => Math.max(0, ...lines.map((l) => ctx.measurer.widthPt(l, style(sizePt))));
  const rows = (sizePt: number): number => Math.max(1, Math.floor((heightIn * POINTS_PER_INCH) / (sizePt * CODE_LINE_HEIGHT) + 1e-9));
  const preferred = secondarySizePt(ctx.theme.sizes.body);
  for (let size = preferred; size > CODE_FLOOR_PT; size--) {
    if (widest(size) <= widthPt && lines.length <= rows(size)) return { lines: [...lines], sizePt: size, cut: false };
  }
  const size = Math.min(preferred, CODE_FLOOR_PT);
  const room = rows(size);
  let kept = lines.length <= room ? [...lines] : [...lines.slice(0, room - 1), CUT_LINES_MARK];
  const tooWide = kept.some((l) => ctx.measurer.widthPt(l, style(size)) > widthPt);
  kept = kept.map((l) => (ctx.measurer.widthPt(l, style(size)) > widthPt ? cutLine(ctx, l, style(size), widthPt) : l));
  return { lines: kept, sizePt: size, cut: tooWide || lines.length > room };
}

/** The longest prefix of `line` that fits with the cut mark after it (measured, so it still fits). */
function cutLine(ctx: PlanContext, line: string, style: MeasureStyle, widthPt: number): string {
  const chars = Array.from(line);
  let n = chars.length;
  while (n > 0 && ctx.measurer.widthPt(chars.slice(0, n).join('') + CUT_LINE_MARK, style) > widthPt) n--;
  return chars.slice(0, n).join('') + CUT_LINE_MARK;
}

/** Code on a panel at the top of `region` (as high as it needs), its language above the code. */
export function composeCode(ctx: PlanContext, scratch: SlideBuilder, code: string, language: string | undefined, region: Region, id: string, what: string): { height: number } {
  const p = ctx.theme.palette;
  const labelPt = ctx.theme.sizes.caption;
  const labelH = language ? (labelPt * 1.3) / POINTS_PER_INCH : 0;
  const inner = { x: region.x + PAD_X, w: region.w - 2 * PAD_X };
  const codeTop = region.y + PAD_Y + labelH;
  const lines = codeLines(code);
  const fit = fitCode(ctx, lines, inner.w * POINTS_PER_INCH, region.y + region.h - PAD_Y - codeTop - FIT_SLACK);
  const preferred = secondarySizePt(ctx.theme.sizes.body);
  if (fit.sizePt < preferred) ctx.report.add('shrunk', shrunkMessage(what, preferred, fit.sizePt));
  if (fit.cut) {
    scratch.addNote(code);
    ctx.report.add('dropped', `${what} did not fit even at ${fit.sizePt} pt: lines cut with "${CUT_LINE_MARK}" or "${CUT_LINES_MARK}"; the full code is in the notes`);
  }
  const codeH = (fit.lines.length * fit.sizePt * CODE_LINE_HEIGHT) / POINTS_PER_INCH;
  const height = PAD_Y * 2 + labelH + codeH + FIT_SLACK;
  scratch.add({ kind: 'shape', id: `${id}-code-panel`, shape: 'roundRect', box: { x: region.x, y: region.y, w: region.w, h: height }, fill: p.surface, radius: 0.08 });
  ctx.report.checkContrast(what, p.text, p.surface, { sizePt: fit.sizePt, bold: false });
  if (language) {
    scratch.add({
      kind: 'text', id: `${id}-code-language`, role: 'label', box: { x: inner.x, y: region.y + PAD_Y, w: inner.w, h: labelH }, font: 'body',
      paragraphs: [{ text: language, level: 0, bullet: 'none', sizePt: labelPt, bold: false, color: p.muted, spaceAfterPt: 0 }],
      align: 'left', valign: 'top', lineHeight: 1.2, lines: 1,
    });
  }
  const paragraphs: PlanParagraph[] = fit.lines.map((text) => ({ text, level: 0, bullet: 'none', sizePt: fit.sizePt, bold: false, color: p.text, spaceAfterPt: 0 }));
  scratch.add({
    kind: 'text', id: `${id}-code`, role: 'body', box: { x: inner.x, y: codeTop, w: inner.w, h: codeH + FIT_SLACK }, font: 'code',
    paragraphs, align: 'left', valign: 'top', lineHeight: CODE_LINE_HEIGHT, lines: paragraphs.length,
  });
  return { height };
}
