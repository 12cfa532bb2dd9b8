// The planner kit: what a layout planner needs, in one import. A planner is
// `(ctx: PlanContext, slide: SlideOf<L>) => SlideBuilder[]`, registered in registry.ts (a layout
// without one is a compile error). Typical shape:
//
//   const { slide, body } = contentSlide(ctx, s.title);   // measured title + accent mark; body region
//   const fit = fitText(ctx, slide, s.text, box, { id: 'body', role: 'body', font: 'body', sizePt, floorPt: BODY_FLOOR_PT, color });
//   slide.add({ ...fit.element, box: { ...box, y: opticalTop(body, fit.height), h: fit.height + FIT_SLACK } });
//   return [slide];
//
// Rules the kit keeps, so planners keep them too: every compromise goes through ctx.report (shrunk,
// split, dropped, restructured...); text is never cut without "…" on a measured line and the full
// text in the notes (fitText, fitBullets do this); body text never goes below BODY_FLOOR_PT; no
// italic anywhere, and no line break but the measured ones; short content sits in the optical middle
// (opticalTop) rather than pinned to the top; boxes come from deck-geometry (never a number copied).

/** Context, slide builder, planner types. `SlideBuilder.take(scratch, dy)` composes then places. */
export { type PlanContext, type PlanOptions, type Planner, type PlannerRegistry, SlideBuilder, type SlideOf } from './context';

/**
 * `contentSlide(ctx, title, part?)` → `{ slide, body, title }`: a content slide whose title is a
 * `role: 'title'` element measured with the real measurer (two lines at most, shrunk to the title
 * floor, else cut and reported), the accent mark following the measured height, `body` under it.
 * `heroSlide(ctx, background)`: a slide without footer (title/section/closing/full-bleed).
 * `placePicture(ctx, slide, id, path, box, 'contain' | 'cover')`: a picture, or a framed note when
 * missing (reported). `rect(id, box, fill)`: a filled shape. `heroMarkColor(ctx)`: the mark colour
 * on title backgrounds. `probeImage(ctx, path)`: pixel size or why not.
 */
export { contentSlide, heroMarkColor, heroSlide, placePicture, probeImage, rect, type ContentSlide } from './slides';

/**
 * `fitText(ctx, slide, text, box, style)` → `{ element, height, sizePt, cut }`: the largest size
 * from `style.maxPt` (growing only within `growFill` of the box) down to `style.floorPt` at which
 * the text fits (within `maxLines`); at the floor, an ellipsis on the last measured line that fits
 * and the whole text in the notes. `measureParagraphs`/`textHeight`: measured lines and height.
 */
export { fitText, fontPair, measureParagraphs, textHeight, textWidthFor, type FittedText, type TextStyle } from './text';

/**
 * `fitBullets(ctx, items, box, { what, allowColumns, allowSplit })` → pages × columns of
 * paragraphs: 7-10 short bullets in two columns, larger type for short lists, long bullets
 * shortened (full text to notes), an even split over continuation slides, then shrink to the floor,
 * then cut. `bulletElements(ctx, fit, page, box, id)` places one page in the optical middle.
 * `balancedPages(heights, capacity)`: the fewest pages, of similar height.
 */
export { balancedPages } from './pages';
export { bulletElements, bulletGroups, bulletTexts, fitBullets, type BulletFit, type BulletFitOptions, type BulletGroup } from './bullets';

/** `planChart(ctx, chart, box)` → ChartElement; `planTable(ctx, table, box)` → TableElement per page. */
export { planChart } from './chart';
export { planTable } from './table';

/** Geometry: regions, margins, floors, the optical middle. */
export {
  BODY_FLOOR_PT,
  columns,
  FIT_SLACK,
  GUTTER,
  MARGIN_X,
  opticalTop,
  POINTS_PER_INCH,
  type Region,
  TITLE_FLOOR_PT,
  TITLE_LINE_HEIGHT,
} from '../../../../shared/specs/deck-geometry';
