// Slide-level kit: a content slide with its measured title and accent mark, a hero slide, pictures
// (contained or covering, a framed note when missing) and simple shapes.
import { continuationTitle } from '../../../../shared/specs/deck';
import {
  accentMarkRegion,
  bodyRegion,
  FIT_SLACK,
  type Region,
  TITLE_FLOOR_PT,
  TITLE_LINE_HEIGHT,
  TITLE_MAX_LINES,
  themeRegion,
  titleBlockBottom,
  titleRegion,
} from '../../../../shared/specs/deck-geometry';
import { type ImageElement, type ShapeElement, type TextElement } from '../../../../shared/specs/deck-plan';
import { containRect, loadImage } from '../images';
import { type PlanContext, SlideBuilder } from './context';
import { fitText } from './text';

/** A filled rectangle (marks, bands, panels). */
export function rect(id: string, box: Region, fill: string, shape: ShapeElement['shape'] = 'rect'): ShapeElement {
  return { kind: 'shape', id, shape, box, fill };
}

export interface ContentSlide {
  slide: SlideBuilder;
  /** Where the layout's content goes: under the measured title, above the footer band. */
  body: Region;
  title: TextElement;
}

/**
 * A content slide (footer and number from the master) with its title: measured with the real
 * measurer at the theme's title size (shrunk to the title floor, cut after two lines and reported if
 * need be), the accent mark following the measured height so it never touches the text, and the
 * body region starting under the title block. Continuations (`part` > 0) get "(cont.)".
 */
export function contentSlide(ctx: PlanContext, title: string, part = 0): ContentSlide {
  const { theme, size } = ctx;
  const slide = new SlideBuilder('content', theme.palette.background, part);
  const mark = theme.master.titleMark;
  const region = titleRegion(size, mark, theme.sizes.title, themeRegion(theme.regions?.title, size));
  const shown = part > 0 ? continuationTitle(title, ctx.language) : title;
  // On a template the title takes its placeholder's style and anchoring (a title bar centres it).
  const own = theme.template?.title;
  const fit = fitText(ctx, slide, shown, region, {
    id: 'title',
    role: 'title',
    font: 'heading',
    sizePt: theme.sizes.title,
    floorPt: TITLE_FLOOR_PT,
    bold: own ? (own.bold ?? false) : true,
    color: own?.color ?? theme.palette.text,
    lineHeight: TITLE_LINE_HEIGHT,
    maxLines: TITLE_MAX_LINES,
    what: 'title',
    ...(own?.align ? { align: own.align } : {}),
    ...(own?.valign ? { valign: own.valign } : {}),
  });
  const anchored = own?.valign !== undefined && own.valign !== 'top';
  const element = slide.add({ ...fit.element, box: anchored ? region : { ...region, h: fit.height + FIT_SLACK } });
  const markRegion = accentMarkRegion(mark, region, fit.height);
  if (markRegion) slide.add(rect('title-mark', markRegion, theme.palette.accent));
  const ownBody = themeRegion(theme.regions?.body, size);
  // A template may put its title under the body (a title band along the bottom): then the title does not push the body down.
  const titleBelow = ownBody !== undefined && region.y >= ownBody.y + ownBody.h - FIT_SLACK;
  const titleBottom = titleBelow ? 0 : anchored ? region.y + region.h : titleBlockBottom(mark, region, fit.height);
  const body = bodyRegion(size, titleBottom, ownBody);
  return { slide, body, title: element };
}

/** A slide without the master's footer (title, section, closing, full-bleed picture). */
export function heroSlide(ctx: PlanContext, background: string, part = 0): SlideBuilder {
  return new SlideBuilder('plain', background, part);
}

/** Marks on a title-coloured background: the second accent when the background is the accent. */
export function heroMarkColor(ctx: PlanContext): string {
  const p = ctx.theme.palette;
  return p.titleBackground.toUpperCase() === p.accent.toUpperCase() ? p.accent2 : p.accent;
}

/**
 * A framed panel saying why the content meant for `box` is not there (a missing picture, a chart of
 * zeros): visible on the slide, so a person sees the gap instead of a silently empty area.
 */
export function placeholderPanel(ctx: PlanContext, slide: SlideBuilder, id: string, box: Region, label: string): void {
  const p = ctx.theme.palette;
  slide.add({ kind: 'shape', id, shape: 'rect', box, fill: p.surface, line: { color: p.muted, widthPt: 1 } });
  const inner = { x: box.x + 0.2, y: box.y + 0.2, w: Math.max(0.5, box.w - 0.4), h: Math.max(0.4, box.h - 0.4) };
  const fitted = fitText(ctx, slide, label, inner, { id: `${id}-label`, role: 'caption', font: 'body', sizePt: 16, floorPt: 12, color: p.muted, background: p.surface, align: 'center', valign: 'middle', what: 'placeholder' });
  slide.add(fitted.element);
}

export type ImageProbe = { ok: true; w: number; h: number } | { ok: false; reason: string };

/** The pixel size of a task image, or why it cannot be used. Path escapes throw (as the drawer does). */
export function probeImage(ctx: PlanContext, path: string): ImageProbe {
  const loaded = loadImage(ctx.baseDir, path);
  return loaded.ok ? { ok: true, w: loaded.info.width, h: loaded.info.height } : loaded;
}

export interface PlacedPicture {
  /** Where the picture (or its placeholder) was drawn. */
  box: Region;
  ok: boolean;
}

/**
 * A picture in `box`: `contain` shrinks the box to the picture's shape (centred, or aligned to the
 * top when `alignTop`), `cover` fills it. A missing picture becomes a framed panel saying why, and
 * the report says so.
 */
export function placePicture(ctx: PlanContext, slide: SlideBuilder, id: string, path: string, box: Region, fit: ImageElement['fit'], alignTop = false): PlacedPicture {
  const probe = probeImage(ctx, path);
  if (!probe.ok) {
    const zh = ctx.language.startsWith('zh');
    placeholderPanel(ctx, slide, `${id}-missing`, box, zh ? `图片缺失：${probe.reason}` : `Image missing: ${probe.reason}`);
    ctx.report.add('missing_image', probe.reason);
    return { box, ok: false };
  }
  let placed = box;
  if (fit === 'contain') {
    placed = containRect(probe.w, probe.h, box);
    if (alignTop) placed = { ...placed, y: box.y };
  }
  slide.add({ kind: 'image', id, box: placed, path, fit, pixels: { w: probe.w, h: probe.h } });
  return { box: placed, ok: true };
}
