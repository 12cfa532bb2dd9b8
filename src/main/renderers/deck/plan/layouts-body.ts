// Content layouts led by text: bullets, two_column and agenda.
import { type ColumnContent } from '../../../../shared/specs/deck';
import { columns, FIT_SLACK, GUTTER, opticalTop, type Region, themeRegion } from '../../../../shared/specs/deck-geometry';
import { bulletElements, bulletTexts, fitBullets } from './bullets';
import { composeCode } from './code';
import { type PlanContext, type Planner, SlideBuilder } from './context';
import { contentSlide, placePicture } from './slides';
import { fitText } from './text';

export const planBullets: Planner<'bullets'> = (ctx, s) => {
  const texts = bulletTexts(s.bullets);
  ctx.report.checkEmptiness(texts, false);
  ctx.report.checkWords([s.title, ...texts]);
  const first = contentSlide(ctx, s.title);
  if (s.bullets.length === 0) return [first.slide];
  const fit = fitBullets(ctx, s.bullets, first.body, { what: 'bullets', allowColumns: true, allowSplit: true });
  for (const note of fit.notes) first.slide.addNote(note);
  return fit.pages.map((_, i) => {
    const page = i === 0 ? first : contentSlide(ctx, s.title, i);
    for (const el of bulletElements(ctx, fit, i, page.body, 'body')) page.slide.add(el);
    return page.slide;
  });
};

/** One column's content composed at the top of `region` on a scratch slide; returns its height. */
function composeColumn(ctx: PlanContext, c: ColumnContent, region: Region, side: string): { scratch: SlideBuilder; height: number } {
  const p = ctx.theme.palette;
  const scratch = new SlideBuilder('content', p.background);
  if (c.bullets) {
    const fit = fitBullets(ctx, c.bullets, region, { what: `${side} column`, allowColumns: false, allowSplit: false });
    for (const note of fit.notes) scratch.addNote(note);
    const [el] = bulletElements(ctx, fit, 0, { ...region, h: fit.heights[0]?.[0] ?? 0 }, side);
    const height = fit.heights[0]?.[0] ?? 0;
    if (el) scratch.add({ ...el, box: { ...el.box, y: region.y, h: height + FIT_SLACK } });
    return { scratch, height };
  }
  if (c.image) return composePicture(ctx, scratch, c.image, c.caption, region, side);
  if (c.code !== undefined) return { scratch, height: composeCode(ctx, scratch, c.code, c.language, region, side, `${side} column code`).height };
  const fitted = fitText(ctx, scratch, c.text ?? '', region, {
    id: side, role: 'body', font: 'body', sizePt: ctx.theme.sizes.body, floorPt: 18, color: p.text, what: `${side} column text`,
  });
  scratch.add({ ...fitted.element, box: { ...region, h: fitted.height + FIT_SLACK } });
  return { scratch, height: fitted.height };
}

/** A picture with its caption under it, composed at the top of `region`. */
export function composePicture(ctx: PlanContext, scratch: SlideBuilder, path: string, caption: string | undefined, region: Region, id: string): { scratch: SlideBuilder; height: number } {
  const p = ctx.theme.palette;
  let captionFit;
  if (caption) {
    captionFit = fitText(ctx, scratch, caption, { ...region, h: Math.min(1.2, region.h * 0.3) }, {
      id: `${id}-caption`, role: 'caption', font: 'body', sizePt: ctx.theme.sizes.caption + 2, floorPt: ctx.theme.sizes.caption,
      color: p.muted, lineHeight: 1.25, maxLines: 3, align: 'center', what: 'caption',
    });
  }
  const captionH = captionFit ? captionFit.height + 0.15 : 0;
  const pic = placePicture(ctx, scratch, `${id}-image`, path, { ...region, h: region.h - captionH }, 'contain', true);
  if (captionFit) scratch.add({ ...captionFit.element, box: { ...region, y: pic.box.y + pic.box.h + 0.15, h: captionFit.height + FIT_SLACK } });
  return { scratch, height: pic.box.h + captionH };
}

function columnTexts(c: ColumnContent): string[] {
  if (c.bullets) return bulletTexts(c.bullets);
  if (c.code !== undefined) return [c.code];
  return [c.text ?? '', c.caption ?? ''].filter(Boolean);
}

/** The two columns: a template's two-content placeholders (their sides, within the body), else two equal columns. */
function twoColumns(ctx: PlanContext, body: Region): Region[] {
  const own = ctx.theme.regions?.columns?.map((box) => themeRegion(box, ctx.size)).filter((r): r is Region => r !== undefined);
  if (!own || own.length !== 2) return columns(body, 2, GUTTER + 0.2);
  return own.map((r) => ({ x: r.x, y: body.y, w: r.w, h: body.h }));
}

export const planTwoColumn: Planner<'two_column'> = (ctx, s) => {
  const { slide, body } = contentSlide(ctx, s.title);
  const texts = [...columnTexts(s.left), ...columnTexts(s.right)];
  ctx.report.checkEmptiness(texts, Boolean(s.left.image ?? s.right.image));
  ctx.report.checkWords([s.title, ...texts]);
  const [left, right] = twoColumns(ctx, body);
  if (!left || !right) return [slide];
  const a = composeColumn(ctx, s.left, left, 'left');
  const b = composeColumn(ctx, s.right, right, 'right');
  // Both columns start on one line, the pair set in the optical middle.
  const dy = opticalTop(body, Math.max(a.height, b.height)) - body.y;
  slide.take(a.scratch, dy);
  slide.take(b.scratch, dy);
  return [slide];
};

export const planAgenda: Planner<'agenda'> = (ctx, s) => {
  const { theme } = ctx;
  const p = theme.palette;
  const zh = ctx.language.startsWith('zh');
  const { slide, body } = contentSlide(ctx, s.title ?? (zh ? '目录' : 'Agenda'));
  ctx.report.checkWords(s.items);
  const cols = s.items.length > 6 ? columns(body, 2, GUTTER + 0.2) : [body];
  const perCol = Math.ceil(s.items.length / cols.length);
  // Few items are set larger: the agenda is read from the back of the room.
  const sizePt = s.items.length <= 4 ? theme.sizes.body + 4 : theme.sizes.body;
  const numberW = (sizePt * 2.2) / 72;
  const rowGap = s.items.length <= 4 ? 0.35 : 0.22;
  const textW = (cols[0]?.w ?? body.w) - numberW;
  const itemH = ((cols[0]?.h ?? body.h) - (perCol - 1) * rowGap) / perCol;
  // One size for every item (the smallest any item needs): two sizes in one list look accidental.
  const probe = new SlideBuilder('content', p.background);
  const common = Math.min(
    ...s.items.map((item, i) =>
      fitText(ctx, probe, item, { ...body, w: textW, h: itemH }, { id: `probe-${i}`, role: 'body', font: 'body', sizePt, floorPt: 18, color: p.text, maxLines: 2, what: `agenda item ${i + 1}` }).sizePt,
    ),
  );
  const scratch = new SlideBuilder('content', p.background);
  const heights: number[] = [];
  cols.forEach((col, c) => {
    let y = col.y;
    s.items.slice(c * perCol, (c + 1) * perCol).forEach((item, k) => {
      const n = c * perCol + k + 1;
      const textBox = { x: col.x + numberW, y, w: col.w - numberW, h: (col.h - (perCol - 1) * rowGap) / perCol };
      const fitted = fitText(ctx, scratch, item, textBox, {
        id: `item-${n}`, role: 'body', font: 'body', sizePt: common, floorPt: 18, color: p.text, maxLines: 2, what: `agenda item ${n}`,
      });
      const lineH = (fitted.sizePt * theme.lineHeight) / 72;
      scratch.add({
        kind: 'text', id: `item-${n}-number`, role: 'label', box: { x: col.x, y, w: numberW - 0.1, h: lineH + FIT_SLACK }, font: 'heading',
        paragraphs: [{ text: String(n).padStart(2, '0'), level: 0, bullet: 'none', sizePt: fitted.sizePt, bold: true, color: p.accent, spaceAfterPt: 0 }],
        align: 'left', valign: 'top', lineHeight: theme.lineHeight, lines: 1,
      });
      scratch.add({ ...fitted.element, box: { ...textBox, h: fitted.height + FIT_SLACK } });
      y += fitted.height + rowGap;
    });
    heights.push(y - rowGap - col.y);
  });
  slide.take(scratch, opticalTop(body, Math.max(...heights)) - body.y);
  return [slide];
};
