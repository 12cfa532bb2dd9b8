// Planners for the visual layouts: stat, cards, process, comparison (the timeline: layouts-timeline.ts). Each composes its
// block on a scratch slide from the top of the body region, on the column grid, with text measured
// and fitted by the kit; the block is then placed in the optical middle of the body (never pinned
// to the top), so dense and sparse slides are both balanced. Columns share edges and baselines:
// every row (numbers, titles, verdicts) starts at the same y across columns.
import { type PlanBox, type TextElement } from '../../../../shared/specs/deck-plan';
import { canonicalIconName } from '../icons';
import {
  BODY_FLOOR_PT,
  columns,
  contentSlide,
  FIT_SLACK,
  fitText,
  GUTTER,
  opticalTop,
  type PlanContext,
  type Planner,
  rect,
  SlideBuilder,
  type TextStyle,
} from './kit';

/** Space between stacked pieces of one column (value → label, title → text), inches. */
const STACK_GAP = 0.14;
/** Inner padding of cards and comparison panels, inches. */
const PANEL_PAD = 0.28;

interface Placed {
  el: TextElement;
  h: number;
}

/** Fits text into a box and adds it at the box's top with its measured height. */
function place(ctx: PlanContext, slide: SlideBuilder, text: string, box: PlanBox, style: TextStyle): Placed {
  const fit = fitText(ctx, slide, text, box, style);
  const el = slide.add({ ...fit.element, box: { ...box, h: Math.min(box.h, fit.height + FIT_SLACK) } });
  return { el, h: el.box.h };
}

/** Moves the composed block (drawn from body.y) into the optical middle of the body. */
function compose(slide: SlideBuilder, scratch: SlideBuilder, body: PlanBox, blockH: number): void {
  slide.take(scratch, opticalTop(body, Math.min(blockH, body.h)) - body.y);
}

/** Sets every element of `ids` on the scratch slide to start at `y` (rows aligned across columns). */
function shiftRow(slide: SlideBuilder, id: string, dy: number): void {
  const i = slide.elements.findIndex((e) => e.id === id);
  const el = slide.elements[i];
  if (el) slide.elements[i] = { ...el, box: { ...el.box, y: el.box.y + dy } };
}

export const planStat: Planner<'stat'> = (ctx, s) => {
  const { theme } = ctx;
  const p = theme.palette;
  const { slide, body } = contentSlide(ctx, s.title);
  ctx.report.checkWords(s.stats.flatMap((st) => [st.value, st.label, st.detail ?? '']));
  const n = s.stats.length;
  const cols = columns(body, n, GUTTER + 0.4);
  // Numbers large: one number is the slide; three share it.
  const valuePt = n === 1 ? 96 : n === 2 ? 80 : 66;
  const scratch = new SlideBuilder('content', p.background);
  const valueH = Math.min(body.h * 0.5, (valuePt * 1.1) / 72 + FIT_SLACK);
  const values = s.stats.map((st, i) =>
    place(ctx, scratch, st.value, { ...(cols[i]), h: valueH }, {
      id: `stat-${i + 1}-value`, role: 'stat', font: 'heading', sizePt: valuePt, floorPt: 40, bold: true, color: p.accent, align: 'center', lineHeight: 1.1, maxLines: 1, what: `number ${i + 1}`,
    }),
  );
  const rowY = body.y + Math.max(...values.map((v) => v.h)) + STACK_GAP;
  const labels = s.stats.map((st, i) => {
    const col = cols[i];
    return place(ctx, scratch, st.label, { x: col.x, y: rowY, w: col.w, h: (body.y + body.h - rowY) * 0.45 }, {
      id: `stat-${i + 1}-label`, role: 'label', font: 'heading', sizePt: theme.sizes.body, floorPt: BODY_FLOOR_PT, bold: true, color: p.text, align: 'center', maxLines: 2, what: `label ${i + 1}`,
    });
  });
  const detailY = rowY + Math.max(...labels.map((l) => l.h)) + STACK_GAP / 2;
  const details = s.stats.map((st, i) => {
    const col = cols[i];
    if (!st.detail) return 0;
    return place(ctx, scratch, st.detail, { x: col.x, y: detailY, w: col.w, h: body.y + body.h - detailY }, {
      id: `stat-${i + 1}-detail`, role: 'caption', font: 'body', sizePt: Math.max(BODY_FLOOR_PT, theme.sizes.body - 4), floorPt: BODY_FLOOR_PT, color: p.muted, align: 'center', what: `detail ${i + 1}`,
    }).h;
  });
  const blockH = detailY - body.y + Math.max(0, ...details);
  // Hairlines between numbers group each number with its label.
  for (let i = 1; i < n; i++) {
    const x = (cols[i]).x - (GUTTER + 0.4) / 2;
    scratch.add({ kind: 'shape', id: `stat-rule-${i}`, shape: 'line', box: { x, y: body.y + 0.1, w: 0, h: Math.max(0.2, blockH - 0.2) }, line: { color: p.tableBorder, widthPt: 1 } });
  }
  compose(slide, scratch, body, blockH);
  return [slide];
};

export const planCards: Planner<'cards'> = (ctx, s) => {
  const { theme } = ctx;
  const p = theme.palette;
  const { slide, body } = contentSlide(ctx, s.title);
  ctx.report.checkWords(s.cards.flatMap((c) => [c.title, c.text ?? '']));
  const n = s.cards.length;
  const cols = columns(body, n, GUTTER);
  const scratch = new SlideBuilder('content', p.background);
  const iconSide = n === 4 ? 0.5 : 0.6;
  const hasIcon = s.cards.some((c) => c.icon);
  const innerTop = body.y + PANEL_PAD + (hasIcon ? iconSide + STACK_GAP * 1.5 : 0);
  const innerH = body.h - PANEL_PAD * 2 - (innerTop - body.y - PANEL_PAD);
  const titlePt = n === 4 ? Math.max(BODY_FLOOR_PT + 2, theme.sizes.body - 4) : theme.sizes.body;
  const textPt = Math.max(BODY_FLOOR_PT, titlePt - 4);
  const titles = s.cards.map((c, i) => {
    const col = cols[i];
    return place(ctx, scratch, c.title, { x: col.x + PANEL_PAD, y: innerTop, w: col.w - 2 * PANEL_PAD, h: innerH * 0.4 }, {
      id: `card-${i + 1}-title`, role: 'label', font: 'heading', sizePt: titlePt, floorPt: BODY_FLOOR_PT, bold: true, color: p.text, maxLines: 2, background: p.surface, what: `card ${i + 1} title`,
    });
  });
  const textY = innerTop + Math.max(...titles.map((t) => t.h)) + STACK_GAP;
  const texts = s.cards.map((c, i) => {
    const col = cols[i];
    if (!c.text) return 0;
    return place(ctx, scratch, c.text, { x: col.x + PANEL_PAD, y: textY, w: col.w - 2 * PANEL_PAD, h: body.y + body.h - PANEL_PAD - textY }, {
      id: `card-${i + 1}-text`, role: 'body', font: 'body', sizePt: textPt, floorPt: BODY_FLOOR_PT, color: p.muted, background: p.surface, what: `card ${i + 1} text`,
    }).h;
  });
  const blockH = Math.min(body.h, textY - body.y + Math.max(0, ...texts) + PANEL_PAD);
  // Panels first (drawn under the text), all one height so the row reads as a set.
  const panels = cols.map((col, i) => ({ ...rect(`card-${i + 1}`, { x: col.x, y: body.y, w: col.w, h: blockH }, p.surface, 'roundRect'), radius: 0.08 }));
  scratch.elements.unshift(...panels);
  s.cards.forEach((c, i) => {
    const col = cols[i];
    if (c.icon) scratch.add({ kind: 'icon', id: `card-${i + 1}-icon`, box: { x: col.x + PANEL_PAD, y: body.y + PANEL_PAD, w: iconSide, h: iconSide }, name: canonicalIconName(c.icon) ?? c.icon, color: p.accent });
  });
  compose(slide, scratch, body, blockH);
  return [slide];
};

export const planProcess: Planner<'process'> = (ctx, s) => {
  const { theme } = ctx;
  const p = theme.palette;
  const { slide, body } = contentSlide(ctx, s.title);
  ctx.report.checkWords(s.steps.flatMap((st) => [st.title, st.text ?? '']));
  const n = s.steps.length;
  const arrowW = 0.42;
  const gap = arrowW + 0.3;
  const cols = columns(body, n, gap);
  const scratch = new SlideBuilder('content', p.background);
  const circle = n >= 5 ? 0.62 : 0.72;
  const numberPt = n >= 5 ? 22 : 26;
  const hasIcon = s.steps.some((st) => st.icon);
  const iconSide = 0.5;
  cols.forEach((col, i) => {
    const cx = col.x + col.w / 2;
    scratch.add(rect(`step-${i + 1}-circle`, { x: cx - circle / 2, y: body.y, w: circle, h: circle }, p.accent, 'ellipse'));
    scratch.add({
      kind: 'text', id: `step-${i + 1}-number`, role: 'number', font: 'heading', box: { x: cx - circle / 2, y: body.y, w: circle, h: circle },
      paragraphs: [{ text: String(i + 1), level: 0, bullet: 'none', sizePt: numberPt, bold: true, color: p.onAccent, spaceAfterPt: 0 }],
      align: 'center', valign: 'middle', lineHeight: 1, lines: 1,
    });
    ctx.report.checkContrast(`step ${i + 1} number`, p.onAccent, p.accent, { sizePt: numberPt, bold: true });
    if (i < n - 1) {
      const ax = col.x + col.w + (gap - arrowW) / 2;
      scratch.add({ kind: 'shape', id: `step-${i + 1}-arrow`, shape: 'rightArrow', box: { x: ax, y: body.y + circle / 2 - 0.14, w: arrowW, h: 0.28 }, fill: p.tableBorder });
    }
    const icon = s.steps[i]?.icon;
    if (icon) scratch.add({ kind: 'icon', id: `step-${i + 1}-icon`, box: { x: cx - iconSide / 2, y: body.y + circle + STACK_GAP, w: iconSide, h: iconSide }, name: canonicalIconName(icon) ?? icon, color: p.accent });
  });
  const titleY = body.y + circle + STACK_GAP * 1.5 + (hasIcon ? iconSide + STACK_GAP : 0);
  const titlePt = n >= 4 ? Math.max(BODY_FLOOR_PT, theme.sizes.body - 4) : theme.sizes.body - 2;
  const titles = s.steps.map((st, i) => {
    const col = cols[i];
    return place(ctx, scratch, st.title, { x: col.x, y: titleY, w: col.w, h: (body.y + body.h - titleY) * 0.45 }, {
      id: `step-${i + 1}-title`, role: 'label', font: 'heading', sizePt: titlePt, floorPt: BODY_FLOOR_PT, bold: true, color: p.text, align: 'center', maxLines: 3, what: `step ${i + 1} title`,
    });
  });
  const textY = titleY + Math.max(...titles.map((t) => t.h)) + STACK_GAP / 2;
  const texts = s.steps.map((st, i) => {
    const col = cols[i];
    if (!st.text) return 0;
    return place(ctx, scratch, st.text, { x: col.x, y: textY, w: col.w, h: body.y + body.h - textY }, {
      id: `step-${i + 1}-text`, role: 'body', font: 'body', sizePt: BODY_FLOOR_PT, floorPt: BODY_FLOOR_PT, color: p.muted, align: 'center', what: `step ${i + 1} text`,
    }).h;
  });
  compose(slide, scratch, body, textY - body.y + Math.max(0, ...texts));
  return [slide];
};

export const planComparison: Planner<'comparison'> = (ctx, s) => {
  const { theme } = ctx;
  const p = theme.palette;
  const { slide, body } = contentSlide(ctx, s.title);
  ctx.report.checkWords(s.options.flatMap((o) => [o.name, ...o.points, o.verdict ?? '']));
  const n = s.options.length;
  const cols = columns(body, n, GUTTER);
  const scratch = new SlideBuilder('content', p.background);
  const headPt = theme.sizes.body;
  const headH = (headPt * 1.25 * 2) / 72 + PANEL_PAD;
  const hasVerdict = s.options.some((o) => o.verdict);
  // The verdict row is reserved first (two lines), so points can never push it off the slide.
  const verdictH = hasVerdict ? (BODY_FLOOR_PT * theme.lineHeight * 2) / 72 + FIT_SLACK + PANEL_PAD : 0;
  const names = s.options.map((o, i) => {
    const col = cols[i];
    const recommended = o.name === s.recommended;
    return place(ctx, scratch, o.name, { x: col.x + PANEL_PAD, y: body.y + PANEL_PAD / 2, w: col.w - 2 * PANEL_PAD, h: headH - PANEL_PAD }, {
      id: `option-${i + 1}-name`, role: 'label', font: 'heading', sizePt: headPt, floorPt: BODY_FLOOR_PT, bold: true, color: recommended ? p.onAccent : p.text, background: recommended ? p.accent : p.surface, maxLines: 2, valign: 'middle', what: `option ${i + 1} name`,
    });
  });
  const bandH = Math.max(...names.map((nm) => nm.h)) + PANEL_PAD;
  const pointsY = body.y + bandH + STACK_GAP * 1.5;
  const pointsRoom = body.y + body.h - verdictH - pointsY - STACK_GAP;
  const points = s.options.map((o, i) => {
    const col = cols[i];
    if (o.points.length === 0) return 0;
    return place(ctx, scratch, o.points.join('\n'), { x: col.x + PANEL_PAD, y: pointsY, w: col.w - 2 * PANEL_PAD, h: pointsRoom }, {
      id: `option-${i + 1}-points`, role: 'body', font: 'body', sizePt: theme.sizes.body - 2, floorPt: BODY_FLOOR_PT, color: p.text, spaceAfterPt: 8, what: `option ${i + 1} points`,
    }).h;
  });
  const verdictY = pointsY + Math.max(0, ...points) + STACK_GAP * 1.5;
  s.options.forEach((o, i) => {
    const col = cols[i];
    if (!o.verdict) return;
    const recommended = o.name === s.recommended;
    scratch.add({ kind: 'shape', id: `option-${i + 1}-rule`, shape: 'line', box: { x: col.x, y: verdictY, w: col.w, h: 0 }, line: { color: recommended ? p.accent : p.tableBorder, widthPt: recommended ? 2.5 : 1 } });
    place(ctx, scratch, o.verdict, { x: col.x + PANEL_PAD, y: verdictY + PANEL_PAD / 2, w: col.w - 2 * PANEL_PAD, h: verdictH - PANEL_PAD / 2 }, {
      id: `option-${i + 1}-verdict`, role: 'body', font: 'heading', sizePt: BODY_FLOOR_PT + 2, floorPt: BODY_FLOOR_PT, bold: true, color: recommended ? p.accent : p.text, maxLines: 2, what: `option ${i + 1} verdict`,
    });
  });
  const blockH = verdictY - body.y + verdictH;
  // Header bands under the names: the recommended option in the accent colour.
  const bands = s.options.map((o, i) => {
    const col = cols[i];
    return rect(`option-${i + 1}-band`, { x: col.x, y: body.y, w: col.w, h: bandH }, o.name === s.recommended ? p.accent : p.surface);
  });
  scratch.elements.unshift(...bands);
  names.forEach((nm) => shiftRow(scratch, nm.el.id, (bandH - nm.h) / 2 - PANEL_PAD / 2));
  compose(slide, scratch, body, blockH);
  return [slide];
};
