// Chart styling rules both chart drawers (the .pptx and the preview) apply to a planned chart.
import { containsCjk } from './deck-text';
import { fontFaceFor, relativeLuminance, type Theme } from './themes';

/** White or near-black, whichever reads better on the worst of the fills (labels sit on them). */
export function labelColorOn(fills: readonly string[]): string {
  const contrast = (a: number, b: number): number => (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
  const worst = (text: string): number => Math.min(...fills.map((f) => contrast(relativeLuminance(text), relativeLuminance(f))));
  return worst('FFFFFF') >= worst('1A1A1A') ? 'FFFFFF' : '1A1A1A';
}

/**
 * The one face a chart's text is drawn in (its titles, labels and legend): chart text cannot be split into script
 * runs, and CJK faces carry Latin glyphs, so a chart with any CJK text is set wholly in the theme's CJK body face.
 */
export function chartFace(theme: Theme, texts: readonly (string | undefined)[]): string {
  return fontFaceFor(theme, 'body', texts.some((t) => t !== undefined && containsCjk(t)));
}

/** A chart's own title is set this much larger than its labels and axis titles. */
export const CHART_TITLE_STEP_PT = 2;

/**
 * Area fills are see-through: an area chart's series overlap, and an opaque front series hides
 * the ones behind it (a legend entry with nothing drawn). The .pptx and the preview use this one value.
 */
export const AREA_FILL_OPACITY = 0.35;
