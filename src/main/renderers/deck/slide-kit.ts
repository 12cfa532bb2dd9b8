// Shared drawing pieces: the render context, adding a slide on a master, the content-slide title
// with its accent mark, and fitted text boxes.
import type PptxGenJS from 'pptxgenjs';
import { continuationTitle, type DeckSpec } from '../../../shared/specs/deck';
import { type Theme } from '../../../shared/specs/themes';
import { fitText, TITLE_FLOOR_PT, type TextFit } from './fit';
import { bodyRegion, titleRegion, type Region, type SlideSize } from './geometry';
import { lineSpacingPt } from './measure';
import { type SlideReport } from './report';
import { textRuns, type RunStyle } from './text-runs';

export const MASTER_CONTENT = 'FOLIO_CONTENT';
export const MASTER_PLAIN = 'FOLIO_PLAIN';
/** Titles are set tighter than body text. */
export const TITLE_LINE_HEIGHT = 1.15;

export interface RenderContext {
  pptx: PptxGenJS;
  spec: DeckSpec;
  theme: Theme;
  size: SlideSize;
  /** The deck's language (given or detected). */
  language: string;
  /** `lang` written on CJK runs. */
  cjkLang: string;
  baseDir: string;
  /** Output slides added so far. */
  slideCount: number;
}

export function addSlide(ctx: RenderContext, report: SlideReport, master: string, background?: string): PptxGenJS.Slide {
  const slide = ctx.pptx.addSlide({ masterName: master });
  if (background) slide.background = { color: background };
  ctx.slideCount += 1;
  report.addOutputSlide(ctx.slideCount);
  return slide;
}

/** Adds a content slide (footer and number from the master) with its title; returns the body region. */
export function addContentSlide(ctx: RenderContext, report: SlideReport, title: string, part = 0): { slide: PptxGenJS.Slide; body: Region } {
  const slide = addSlide(ctx, report, MASTER_CONTENT);
  const { theme, size } = ctx;
  const p = theme.palette;
  const mark = theme.master.titleMark;
  const region = titleRegion(size, mark === 'bar');
  if (mark === 'bar') {
    slide.addShape('rect', { x: region.x - 0.3, y: region.y + 0.15, w: 0.09, h: region.h - 0.3, fill: { color: p.accent }, line: { color: p.accent, width: 0 } });
  } else if (mark === 'underline') {
    slide.addShape('rect', { x: region.x, y: region.y + region.h + 0.03, w: 1.3, h: 0.06, fill: { color: p.accent }, line: { color: p.accent, width: 0 } });
  }
  const shown = part > 0 ? continuationTitle(title, ctx.language) : title;
  drawFittedText(ctx, slide, report, shown, region, {
    role: 'heading',
    base: theme.sizes.title,
    floor: TITLE_FLOOR_PT,
    color: p.text,
    background: p.background,
    bold: true,
    lineHeight: TITLE_LINE_HEIGHT,
    valign: 'middle',
    what: 'title',
  });
  return { slide, body: bodyRegion(size) };
}

export interface FittedTextOptions {
  role: RunStyle['role'];
  base: number;
  floor: number;
  color: string;
  background: string;
  bold?: boolean;
  italic?: boolean;
  lineHeight: number;
  valign?: 'top' | 'middle' | 'bottom';
  align?: 'left' | 'center' | 'right';
  /** Names the text in report messages ("title", "caption"...). */
  what: string;
}

/** Draws text shrunk to fit its region (cut with an ellipsis, and reported, if even the floor is too big). */
export function drawFittedText(
  ctx: RenderContext,
  slide: PptxGenJS.Slide,
  report: SlideReport,
  text: string,
  region: Region,
  o: FittedTextOptions,
): TextFit {
  const fit = fitText(text, region, { base: o.base, floor: o.floor, lineHeight: o.lineHeight, bold: o.bold });
  if (fit.truncated) report.add('dropped', `${o.what} did not fit even at ${o.floor} pt and was cut: "${text.slice(0, 60)}"`);
  else if (fit.size < o.base) report.add('shrunk', `${o.what} shrunk from ${o.base} to ${fit.size} pt to fit`);
  report.checkContrast(o.what, o.color, o.background);
  // Hand the client the original text (it wraps by its own metrics, which are narrower than ours)
  // unless we had to cut it.
  const paragraphs = fit.truncated ? [fit.lines.join('\n')] : [text];
  const style: RunStyle = { role: o.role, size: fit.size, color: o.color, bold: o.bold, italic: o.italic };
  slide.addText(
    textRuns(paragraphs.flatMap((p) => p.split('\n')), style, ctx.theme, ctx.cjkLang, {
      align: o.align ?? 'left',
      lineSpacing: lineSpacingPt(fit.size, o.lineHeight),
    }),
    { ...region, margin: 0, valign: o.valign ?? 'top', fit: 'none', wrap: true },
  );
  return fit;
}

/** A placeholder where an image could not be used: a framed panel saying why. */
export function drawImagePlaceholder(ctx: RenderContext, slide: PptxGenJS.Slide, report: SlideReport, region: Region, reason: string): void {
  const p = ctx.theme.palette;
  slide.addShape('rect', { ...region, fill: { color: p.surface }, line: { color: p.muted, width: 1, dashType: 'dash' } });
  const label = ctx.language.startsWith('zh') ? `图片缺失：${reason}` : `Image missing: ${reason}`;
  const inner = { x: region.x + 0.2, y: region.y + 0.2, w: Math.max(0.5, region.w - 0.4), h: Math.max(0.4, region.h - 0.4) };
  drawFittedText(ctx, slide, report, label, inner, {
    role: 'body',
    base: 16,
    floor: 10,
    color: p.muted,
    background: p.surface,
    lineHeight: ctx.theme.lineHeight,
    valign: 'middle',
    align: 'center',
    what: 'image placeholder',
  });
  report.add('missing_image', reason);
}
