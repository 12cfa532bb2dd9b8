// Slide geometry, once: slide sizes, margins, the title region and its accent mark, the body region,
// the footer band and the regions of each layout, in inches from the slide's top-left corner. The
// layout engine (src/main/renderers/deck/plan) places every element from these; the .pptx drawer
// and the in-app preview only draw what the plan says, so no number here is copied anywhere else.
import { type DeckSpec } from './deck';
import { type FractionBox, type Theme } from './themes';

export interface SlideSize {
  w: number;
  h: number;
  /** The pptxgenjs layout of this size. */
  layoutName: 'LAYOUT_WIDE' | 'LAYOUT_4x3';
}

export interface Region {
  x: number;
  y: number;
  w: number;
  h: number;
}

export const POINTS_PER_INCH = 72;

export function slideSize(aspect: DeckSpec['aspect']): SlideSize {
  return aspect === '4:3' ? { w: 10, h: 7.5, layoutName: 'LAYOUT_4x3' } : { w: 13.333, h: 7.5, layoutName: 'LAYOUT_WIDE' };
}

/** Outer margins: left/right, and above the title. */
export const MARGIN_X = 0.6;
export const MARGIN_TOP = 0.5;
/** Space between columns, cards and the like. */
export const GUTTER = 0.4;
/** Height of the band at the bottom of content slides that holds the footer text and slide number. */
export const FOOTER_BAND = 0.6;
/** Space between the footer band and the lowest body content. */
const FOOTER_GAP = 0.1;
/** Space between the title's last line (or its underline) and the body. */
const TITLE_BODY_GAP = 0.4;
/** The body never starts above this, however short the title: keeps the grid steady across slides. */
const BODY_MIN_TOP = 1.45;
/** Height kept free under fitted text for the rounding clients do with exact line spacing. */
export const FIT_SLACK = 0.08;

/** Body text never goes below this size (points), on either aspect. */
export const BODY_FLOOR_PT = 18;

/**
 * The type scale's second step below body text of `sizePt`: sub-bullets and chart text (axis labels,
 * legend, data labels). A step smaller, never below the body floor.
 */
export function secondarySizePt(sizePt: number): number {
  return Math.max(Math.min(BODY_FLOOR_PT, sizePt), sizePt - 4);
}
/** Titles shrink no further than this before they are cut. */
export const TITLE_FLOOR_PT = 24;
/** A content-slide title may take this many lines. */
export const TITLE_MAX_LINES = 2;
/** Titles are set tighter than body text. */
export const TITLE_LINE_HEIGHT = 1.15;

/** The band at the bottom of a content slide: only the footer and slide number may be in it. */
export function footerBand(size: SlideSize): Region {
  return { x: 0, y: size.h - FOOTER_BAND, w: size.w, h: FOOTER_BAND };
}

/** The footer text and slide number boxes, inside the footer band. */
export function footerRegion(size: SlideSize): { text: Region; number: Region } {
  const y = size.h - FOOTER_BAND + 0.15;
  return {
    text: { x: MARGIN_X, y, w: size.w * 0.6, h: 0.3 },
    number: { x: size.w - MARGIN_X - 1.2, y, w: 1.2, h: 0.3 },
  };
}

export type TitleMark = Theme['master']['titleMark'];

/**
 * A theme's own region (a template placeholder, stored as fractions of the slide) in inches on this
 * slide; undefined when the theme has none, and Folio's geometry decides.
 */
export function themeRegion(box: FractionBox | undefined, size: SlideSize): Region | undefined {
  if (!box) return undefined;
  return { x: box.x * size.w, y: box.y * size.h, w: box.w * size.w, h: box.h * size.h };
}

/**
 * Where a content slide's title may go (its height is the room for TITLE_MAX_LINES lines). `own`:
 * a template's title placeholder, which decides where the title goes and how much room it has.
 */
export function titleRegion(size: SlideSize, mark: TitleMark, titleSizePt: number, own?: Region): Region {
  const h = (TITLE_MAX_LINES * titleSizePt * TITLE_LINE_HEIGHT) / POINTS_PER_INCH + FIT_SLACK;
  // A template's title sits in its placeholder (often a coloured bar): the title fits its height,
  // shrinking rather than spilling below it; never less than one line at the title floor.
  if (own) return { x: own.x, y: own.y, w: own.w, h: Math.max(own.h, (TITLE_FLOOR_PT * TITLE_LINE_HEIGHT) / POINTS_PER_INCH + FIT_SLACK) };
  const x = MARGIN_X + (mark === 'bar' ? 0.28 : 0);
  return { x, y: MARGIN_TOP, w: size.w - x - MARGIN_X, h };
}

/**
 * The accent mark beside (bar) or under (underline) a title whose text is `textH` inches tall as
 * measured: it follows the title's real height, so a two-line title never runs into it.
 */
export function accentMarkRegion(mark: TitleMark, title: Region, textH: number): Region | null {
  switch (mark) {
    case 'bar':
      return { x: MARGIN_X, y: title.y + 0.06, w: 0.08, h: Math.max(0.2, textH - 0.12) };
    case 'underline':
      return { x: title.x, y: title.y + textH + 0.12, w: 1.2, h: 0.05 };
    case 'none':
      return null;
  }
}

/** Bottom of a title block (text plus its mark), from the measured text height. */
export function titleBlockBottom(mark: TitleMark, title: Region, textH: number): number {
  const markRegion = accentMarkRegion(mark, title, textH);
  return Math.max(title.y + textH, markRegion ? markRegion.y + markRegion.h : 0);
}

/**
 * The body of a content slide: below the measured title, above the footer band. `own`: a template's
 * body placeholder, which decides its sides and how far down it may start and end; the title and the
 * footer band still bound it.
 */
export function bodyRegion(size: SlideSize, titleBottom: number, own?: Region): Region {
  const floor = size.h - FOOTER_BAND - FOOTER_GAP;
  if (own) {
    const y = Math.max(own.y, titleBottom + TITLE_BODY_GAP);
    return { x: own.x, y, w: own.w, h: Math.max(0.5, Math.min(own.y + own.h, floor) - y) };
  }
  const y = Math.max(BODY_MIN_TOP, titleBottom + TITLE_BODY_GAP);
  return { x: MARGIN_X, y, w: size.w - 2 * MARGIN_X, h: floor - y };
}

/** The body of a content slide without a title (a quote without a heading). */
export function untitledBodyRegion(size: SlideSize): Region {
  return bodyRegion(size, MARGIN_TOP);
}

/** `n` equal columns across a region, `gap` apart. */
export function columns(region: Region, n: number, gap = GUTTER): Region[] {
  const w = (region.w - gap * (n - 1)) / n;
  return Array.from({ length: n }, (_, i) => ({ x: region.x + i * (w + gap), y: region.y, w, h: region.h }));
}

/** Table cell padding, inches: across, and down at the least (a short table's rows get more: plan/table.ts). */
export const TABLE_CELL_PAD_X_IN = 0.08;
export const TABLE_CELL_PAD_Y_IN = 0.05;

/**
 * Where a block `h` inches tall sits in `region` when it is shorter: in the optical middle, a little
 * above the geometric centre, so short content is composed rather than pinned to the top.
 */
export function opticalTop(region: Region, h: number): number {
  const free = Math.max(0, region.h - h);
  return region.y + free * 0.42;
}

/** The hanging indent of a bullet paragraph, points (text starts at indent × (level + 1)). */
export function bulletIndentPt(sizePt: number): number {
  return Math.round(sizePt * 0.9);
}

// ---------- hero layouts (title, section, closing) ----------

/** The text column of the title and section slides, right of their accent mark (or a template's placeholders, `own`). */
export function heroTextRegion(size: SlideSize, own?: Region): Region {
  if (own) return own;
  const x = 1.1;
  return { x, y: 1.0, w: size.w - x - 1.0, h: size.h - 2.1 };
}

/** The vertical mark left of a hero title block. */
export const HERO_MARK = { x: 0.6, w: 0.12 } as const;
/** The band along the bottom edge of title slides. */
export const HERO_BOTTOM_BAND = 0.14;
/** The strip down the left edge of section slides. */
export const SECTION_STRIP = 0.4;

/** The centred column of closing slides (and untitled quotes), or a template's title placeholders (`own`). */
export function centredRegion(size: SlideSize, own?: Region): Region {
  if (own) return own;
  const x = size.w * 0.12;
  return { x, y: 1.0, w: size.w - 2 * x, h: size.h - 2.0 };
}

// ---------- image layouts ----------

/** image_text: the picture on one side, text on the other; the picture takes a little more room. */
export function imageTextRegions(body: Region, imageSide: 'left' | 'right'): { image: Region; text: Region } {
  const imageW = (body.w - GUTTER) * 0.55;
  const textW = body.w - GUTTER - imageW;
  const left = { x: body.x, y: body.y, w: imageSide === 'left' ? imageW : textW, h: body.h };
  const right = { x: body.x + left.w + GUTTER, y: body.y, w: body.w - left.w - GUTTER, h: body.h };
  return imageSide === 'left' ? { image: left, text: right } : { image: right, text: left };
}

/** full_image: the caption band along the bottom of a full-bleed picture, for a `h`-inch text block. */
export function captionBand(size: SlideSize, textH: number): Region {
  const h = Math.min(size.h * 0.45, Math.max(1.0, textH + 0.6));
  return { x: 0, y: size.h - h, w: size.w, h };
}

/** Inside the caption band: the text box. */
export function captionBandText(size: SlideSize, band: Region): Region {
  return { x: MARGIN_X, y: band.y + 0.3, w: size.w - 2 * MARGIN_X, h: band.h - 0.6 };
}
