// The timeline planner. Dated events read left to right along a line, one column each; when an
// event's title or text would have to be cut to fit its column (long titles in five or six narrow
// columns), the timeline is set again as a designer would: down the slide, one event per row, with
// the full width for its words; failing that, over two slides. A phrase is cut only when no
// arrangement fits, and the report says so.
import { type DeckSlide } from '../../../../shared/specs/deck';
import { type Region } from '../../../../shared/specs/deck-geometry';
import { ReportBuilder } from '../report';
import { BODY_FLOOR_PT, columns, contentSlide, FIT_SLACK, fitText, opticalTop, type PlanContext, type Planner, SlideBuilder, type TextStyle } from './kit';

type TimelineEvent = Extract<DeckSlide, { layout: 'timeline' }>['events'][number];
type Arrangement = 'across' | 'down';

/** Space between an event's title and its text, inches. */
const STACK_GAP = 0.07;
const DOT = 0.2;
/** Space between the rows of a vertical timeline, inches. */
const ROW_GAP = 0.22;

interface Block {
  /** The events composed from the top of the body region. */
  scratch: SlideBuilder;
  height: number;
  /** Some text did not fit and was cut (and moved to the notes). */
  cut: boolean;
}

/** Height of a box that holds one line at `sizePt`, inches. */
function lineBox(ctx: PlanContext, sizePt: number): number {
  return (sizePt * ctx.theme.lineHeight) / 72 + FIT_SLACK;
}

/** Fits text, adds it at its box's top with its measured height; returns that height and whether it was cut. */
function place(ctx: PlanContext, slide: SlideBuilder, text: string, box: Region, style: TextStyle): { h: number; cut: boolean } {
  const fit = fitText(ctx, slide, text, box, style);
  const el = slide.add({ ...fit.element, box: { ...box, h: Math.min(box.h, fit.height + FIT_SLACK) } });
  return { h: el.box.h, cut: fit.cut };
}

function dateStyle(ctx: PlanContext, i: number, sizePt: number): TextStyle {
  return { id: `event-${i + 1}-date`, role: 'label', font: 'heading', sizePt, floorPt: BODY_FLOOR_PT, bold: true, color: ctx.theme.palette.accent, maxLines: 1, what: `date ${i + 1}` };
}

function titleStyle(ctx: PlanContext, i: number, sizePt: number, maxLines: number): TextStyle {
  return { id: `event-${i + 1}-title`, role: 'label', font: 'heading', sizePt, floorPt: BODY_FLOOR_PT, bold: true, color: ctx.theme.palette.text, maxLines, what: `event ${i + 1} title` };
}

function textStyle(ctx: PlanContext, i: number): TextStyle {
  return { id: `event-${i + 1}-text`, role: 'body', font: 'body', sizePt: BODY_FLOOR_PT, floorPt: BODY_FLOOR_PT, color: ctx.theme.palette.muted, what: `event ${i + 1} text` };
}

/** Columns along a horizontal line: date above the line, title and text below, every row aligned. */
function across(ctx: PlanContext, events: readonly TimelineEvent[], body: Region): Block {
  const { theme } = ctx;
  const p = theme.palette;
  const n = events.length;
  const cols = columns(body, n, 0.3);
  const scratch = new SlideBuilder('content', p.background);
  // Dates are set at one size, the largest at which every date fits its column on one line: a size
  // chosen for the columns, not text shrunk to fit (nothing to report).
  const heading = { latin: theme.fonts.latinHeading, cjk: theme.fonts.cjkHeading };
  let datePt = n <= 4 ? theme.sizes.body + 4 : theme.sizes.body;
  while (datePt > BODY_FLOOR_PT && events.some((e, i) => ctx.measurer.wrap(e.date, { fonts: heading, sizePt: datePt, bold: true }, (cols[i]?.w ?? 0) * 72).length > 1)) datePt--;
  const titlePt = n <= 4 ? theme.sizes.body - 2 : Math.max(BODY_FLOOR_PT, theme.sizes.body - 4);
  let cut = false;
  const dates = events.map((e, i) => {
    const placed = place(ctx, scratch, e.date, { ...cols[i], h: lineBox(ctx, datePt) }, dateStyle(ctx, i, datePt));
    cut ||= placed.cut;
    return placed.h;
  });
  const lineY = body.y + Math.max(...dates) + 0.12 + DOT / 2;
  const titleY = lineY + DOT / 2 + 0.22;
  const titles = events.map((e, i) => {
    const col = cols[i];
    const placed = place(ctx, scratch, e.title, { x: col.x, y: titleY, w: col.w, h: (body.y + body.h - titleY) * 0.45 }, titleStyle(ctx, i, titlePt, 3));
    cut ||= placed.cut;
    return placed.h;
  });
  const textY = titleY + Math.max(...titles) + STACK_GAP;
  const texts = events.map((e, i) => {
    const col = cols[i];
    if (!e.text) return 0;
    const placed = place(ctx, scratch, e.text, { x: col.x, y: textY, w: col.w, h: body.y + body.h - textY }, textStyle(ctx, i));
    cut ||= placed.cut;
    return placed.h;
  });
  // The line runs from the first dot to the last column's edge; dots sit at each column's left edge.
  const first = cols[0];
  const last = cols[n - 1];
  scratch.elements.unshift({ kind: 'shape', id: 'timeline-line', shape: 'line', box: { x: first.x, y: lineY, w: last.x + last.w - first.x, h: 0 }, line: { color: p.tableBorder, widthPt: 2 } });
  cols.forEach((col, i) => scratch.add({ kind: 'shape', id: `event-${i + 1}-dot`, shape: 'ellipse', box: { x: col.x, y: lineY - DOT / 2, w: DOT, h: DOT }, fill: p.accent }));
  return { scratch, height: textY - body.y + Math.max(0, ...texts), cut };
}

/** Measured height of `text` at one size in a box `w` wide, and whether it fits `maxLines`; nothing reported. */
function trialHeight(ctx: PlanContext, text: string, w: number, style: TextStyle): { h: number; cut: boolean } {
  const quiet: PlanContext = { ...ctx, report: new ReportBuilder().begin(ctx.index) };
  const fit = fitText(quiet, new SlideBuilder('content', ctx.theme.palette.background), text, { x: 0, y: 0, w, h: 100 }, style);
  return { h: fit.height + FIT_SLACK, cut: fit.cut };
}

/**
 * Rows down the slide: the date in a column of its own, a dot on a vertical line, the title and
 * text beside it across the rest of the width. Every title is set at one size, the largest from the
 * comfortable size down to the floor at which all rows fit.
 */
function down(ctx: PlanContext, events: readonly TimelineEvent[], body: Region): Block {
  const { theme } = ctx;
  const p = theme.palette;
  const scratch = new SlideBuilder('content', p.background);
  const comfortable = Math.max(BODY_FLOOR_PT, theme.sizes.body - 2);
  // Dates in a right-aligned column as wide as the widest, at the titles' size so each row shares one baseline.
  const heading = { latin: theme.fonts.latinHeading, cjk: theme.fonts.cjkHeading };
  const dateW = Math.min(body.w * 0.25, Math.max(0.8, ...events.map((e) => ctx.measurer.widthPt(e.date, { fonts: heading, sizePt: comfortable, bold: true }) / 72 + 0.2)));
  const lineX = body.x + dateW + 0.25;
  const textX = lineX + 0.35;
  const textW = body.x + body.w - textX;
  const textHeights = events.map((e, i) => (e.text ? trialHeight(ctx, e.text, textW, textStyle(ctx, i)) : { h: 0, cut: false }));
  const rowsAt = (size: number): { titles: { h: number; cut: boolean }[]; total: number } => {
    const titles = events.map((e, i) => trialHeight(ctx, e.title, textW, { ...titleStyle(ctx, i, size, 3), floorPt: size }));
    const rows = titles.map((t, i) => Math.max(t.h + (events[i]?.text ? STACK_GAP + (textHeights[i]?.h ?? 0) : 0), lineBox(ctx, size)));
    return { titles, total: rows.reduce((a, b) => a + b, 0) + ROW_GAP * (events.length - 1) };
  };
  let size = comfortable;
  let rows = rowsAt(size);
  while (size > BODY_FLOOR_PT && (rows.total > body.h || rows.titles.some((t) => t.cut))) rows = rowsAt(--size);
  const cut = rows.total > body.h || rows.titles.some((t) => t.cut) || textHeights.some((t) => t.cut);
  let y = body.y;
  const dots: number[] = [];
  events.forEach((e, i) => {
    const date = place(ctx, scratch, e.date, { x: body.x, y, w: dateW, h: lineBox(ctx, size) }, { ...dateStyle(ctx, i, size), align: 'right' });
    // The title's box is its height at the chosen size: fitText comes down from the comfortable size to it.
    const titleH = rows.titles[i]?.h ?? date.h;
    const title = place(ctx, scratch, e.title, { x: textX, y, w: textW, h: titleH }, { ...titleStyle(ctx, i, comfortable, 3), floorPt: size });
    let rowH = Math.max(date.h, title.h);
    if (e.text) rowH = Math.max(rowH, title.h + STACK_GAP + place(ctx, scratch, e.text, { x: textX, y: y + title.h + STACK_GAP, w: textW, h: Math.max(0.3, body.y + body.h - y - title.h - STACK_GAP) }, textStyle(ctx, i)).h);
    dots.push(y + date.h / 2);
    y += rowH + ROW_GAP;
  });
  const height = y - ROW_GAP - body.y;
  const top = dots[0] ?? body.y;
  const bottom = dots[dots.length - 1] ?? top;
  scratch.elements.unshift({ kind: 'shape', id: 'timeline-line', shape: 'line', box: { x: lineX, y: top, w: 0, h: bottom - top }, line: { color: p.tableBorder, widthPt: 2 } });
  dots.forEach((cy, i) => scratch.add({ kind: 'shape', id: `event-${i + 1}-dot`, shape: 'ellipse', box: { x: lineX - DOT / 2, y: cy - DOT / 2, w: DOT, h: DOT }, fill: p.accent }));
  return { scratch, height, cut };
}

const ARRANGE: Record<Arrangement, (ctx: PlanContext, events: readonly TimelineEvent[], body: Region) => Block> = { across, down };

/** Whether `events` set `how` in `body` keep every word (planned quietly: nothing reported). */
function fitsWhole(ctx: PlanContext, events: readonly TimelineEvent[], body: Region, how: Arrangement): boolean {
  return !ARRANGE[how]({ ...ctx, report: new ReportBuilder().begin(ctx.index) }, events, body).cut;
}

/** One output slide of `events` arranged `how`, composed in the optical middle of its body. */
function timelineSlide(ctx: PlanContext, title: string, events: readonly TimelineEvent[], how: Arrangement, part: number): SlideBuilder {
  const { slide, body } = contentSlide(ctx, title, part);
  const block = ARRANGE[how](ctx, events, body);
  slide.take(block.scratch, opticalTop(body, Math.min(block.height, body.h)) - body.y);
  return slide;
}

export const planTimeline: Planner<'timeline'> = (ctx, s) => {
  ctx.report.checkWords(s.events.flatMap((e) => [e.date, e.title, e.text ?? '']));
  const { body } = contentSlide({ ...ctx, report: new ReportBuilder().begin(ctx.index) }, s.title);
  const n = s.events.length;
  if (fitsWhole(ctx, s.events, body, 'across')) return [timelineSlide(ctx, s.title, s.events, 'across', 0)];
  if (fitsWhole(ctx, s.events, body, 'down')) {
    ctx.report.add('restructured', `${n} events did not fit ${n} columns without cutting their words: set down the slide, one event per row`);
    return [timelineSlide(ctx, s.title, s.events, 'down', 0)];
  }
  const halves = [s.events.slice(0, Math.ceil(n / 2)), s.events.slice(Math.ceil(n / 2))];
  for (const how of ['across', 'down'] as const) {
    if (!halves.every((h) => fitsWhole(ctx, h, body, how))) continue;
    ctx.report.add('split', `${n} events did not fit one slide without cutting their words: split over 2 slides (${halves.map((h) => h.length).join(' + ')})`);
    return halves.map((h, part) => timelineSlide(ctx, s.title, h, how, part));
  }
  // No arrangement keeps every word: the columns, with what did not fit cut and reported.
  return [timelineSlide(ctx, s.title, s.events, 'across', 0)];
};
