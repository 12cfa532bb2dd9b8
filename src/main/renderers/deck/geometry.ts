// Slide geometry in inches. Every layout places its boxes from these regions so the footer zone
// and margins are the same on every slide.
import { type DeckSpec } from '../../../shared/specs/deck';

export interface SlideSize {
  w: number;
  h: number;
  layoutName: 'LAYOUT_WIDE' | 'LAYOUT_4x3';
}

export function slideSize(aspect: DeckSpec['aspect']): SlideSize {
  return aspect === '4:3' ? { w: 10, h: 7.5, layoutName: 'LAYOUT_4x3' } : { w: 13.333, h: 7.5, layoutName: 'LAYOUT_WIDE' };
}

export const MARGIN_X = 0.6;
export const FOOTER_ZONE = 0.7;
/** Height kept free under fitted text, for the rounding clients do with exact line spacing. */
export const FIT_SLACK_IN = 0.1;

export interface Region {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** The title of a content slide, right of the accent mark. */
export function titleRegion(size: SlideSize, hasBar: boolean): Region {
  const x = MARGIN_X + (hasBar ? 0.3 : 0);
  return { x, y: 0.35, w: size.w - x - MARGIN_X, h: 1.05 };
}

/** The content area of a content slide: below the title, above the footer. */
export function bodyRegion(size: SlideSize): Region {
  const y = 1.65;
  return { x: MARGIN_X, y, w: size.w - 2 * MARGIN_X, h: size.h - y - FOOTER_ZONE };
}

export function footerRegion(size: SlideSize): { text: Region; number: Region } {
  const y = size.h - 0.5;
  return {
    text: { x: MARGIN_X, y, w: size.w * 0.6, h: 0.3 },
    number: { x: size.w - MARGIN_X - 1.2, y, w: 1.2, h: 0.3 },
  };
}
