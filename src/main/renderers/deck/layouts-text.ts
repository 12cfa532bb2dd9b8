// Text-led layouts: title, section, closing, quote, bullets, two_column, image.
import type PptxGenJS from 'pptxgenjs';
import { type BulletItem, type ColumnContent, type DeckSlide } from '../../../shared/specs/deck';
import { BODY_FLOOR_PT, bulletMetrics, type BulletMetrics, paginateBullets, paraHeight, type Para } from './fit';
import { FIT_SLACK_IN, type Region } from './geometry';
import { containRect, loadImage } from './images';
import { lineSpacingPt } from './measure';
import { type SlideReport } from './report';
import {
  addContentSlide,
  addSlide,
  drawFittedText,
  drawImagePlaceholder,
  MASTER_CONTENT,
  MASTER_PLAIN,
  type RenderContext,
  TITLE_LINE_HEIGHT,
} from './slide-kit';
import { paragraphRuns } from './text-runs';

type SlideOf<L extends DeckSlide['layout']> = Extract<DeckSlide, { layout: L }>;

/** Marks on a title-coloured background: the second accent when the background is the accent. */
function heroMarkColor(ctx: RenderContext): string {
  const p = ctx.theme.palette;
  return p.titleBackground.toUpperCase() === p.accent.toUpperCase() ? p.accent2 : p.accent;
}

export function drawTitleSlide(ctx: RenderContext, s: SlideOf<'title'>, report: SlideReport): void {
  const { theme, size, spec } = ctx;
  const p = theme.palette;
  const slide = addSlide(ctx, report, MASTER_PLAIN, p.titleBackground);
  const mark = heroMarkColor(ctx);
  const x = 1.0;
  const w = size.w - x - 0.9;
  slide.addShape('rect', { x: 0.6, y: 1.9, w: 0.12, h: 2.9, fill: { color: mark }, line: { color: mark, width: 0 } });
  slide.addShape('rect', { x: 0, y: size.h - 0.14, w: size.w, h: 0.14, fill: { color: mark }, line: { color: mark, width: 0 } });
  drawFittedText(ctx, slide, report, s.title ?? spec.title, { x, y: 1.75, w, h: 2.0 }, {
    role: 'heading',
    base: theme.sizes.heroTitle,
    floor: 28,
    color: p.titleText,
    background: p.titleBackground,
    bold: true,
    lineHeight: TITLE_LINE_HEIGHT,
    valign: 'bottom',
    what: 'title',
  });
  const subtitle = s.subtitle ?? spec.subtitle;
  if (subtitle) {
    drawFittedText(ctx, slide, report, subtitle, { x, y: 3.9, w, h: 1.0 }, {
      role: 'body',
      base: Math.round(theme.sizes.title * 0.8),
      floor: 16,
      color: p.titleMuted,
      background: p.titleBackground,
      lineHeight: 1.2,
      what: 'subtitle',
    });
  }
  const byline = [spec.author, spec.date].filter((v): v is string => Boolean(v)).join('  ·  ');
  if (byline) {
    drawFittedText(ctx, slide, report, byline, { x, y: size.h - 1.35, w, h: 0.6 }, {
      role: 'body',
      base: 18,
      floor: 12,
      color: p.titleMuted,
      background: p.titleBackground,
      lineHeight: 1.2,
      valign: 'bottom',
      what: 'author and date',
    });
  }
  if (s.notes) slide.addNotes(s.notes);
}

export function drawSectionSlide(ctx: RenderContext, s: SlideOf<'section'>, report: SlideReport): void {
  const { theme, size } = ctx;
  const p = theme.palette;
  const slide = addSlide(ctx, report, MASTER_PLAIN, p.background);
  slide.addShape('rect', { x: 0, y: 0, w: 0.4, h: size.h, fill: { color: p.accent }, line: { color: p.accent, width: 0 } });
  slide.addShape('rect', { x: 1.0, y: 3.95, w: 1.6, h: 0.07, fill: { color: p.accent2 }, line: { color: p.accent2, width: 0 } });
  const x = 1.0;
  const w = size.w - x - 0.9;
  drawFittedText(ctx, slide, report, s.title, { x, y: 2.2, w, h: 1.6 }, {
    role: 'heading',
    base: Math.round(theme.sizes.heroTitle * 0.9),
    floor: 24,
    color: p.text,
    background: p.background,
    bold: true,
    lineHeight: TITLE_LINE_HEIGHT,
    valign: 'bottom',
    what: 'section title',
  });
  if (s.subtitle) {
    drawFittedText(ctx, slide, report, s.subtitle, { x, y: 4.2, w, h: 1.2 }, {
      role: 'body',
      base: theme.sizes.body,
      floor: BODY_FLOOR_PT,
      color: p.muted,
      background: p.background,
      lineHeight: theme.lineHeight,
      what: 'section subtitle',
    });
  }
  if (s.notes) slide.addNotes(s.notes);
}

export function drawClosingSlide(ctx: RenderContext, s: SlideOf<'closing'>, report: SlideReport): void {
  const { theme, size } = ctx;
  const p = theme.palette;
  const slide = addSlide(ctx, report, MASTER_PLAIN, p.titleBackground);
  const mark = heroMarkColor(ctx);
  const zh = ctx.language.startsWith('zh');
  const title = s.title ?? (zh ? '谢谢' : 'Thank you');
  drawFittedText(ctx, slide, report, title, { x: 1, y: 2.2, w: size.w - 2, h: 1.6 }, {
    role: 'heading',
    base: theme.sizes.heroTitle,
    floor: 28,
    color: p.titleText,
    background: p.titleBackground,
    bold: true,
    lineHeight: TITLE_LINE_HEIGHT,
    valign: 'bottom',
    align: 'center',
    what: 'closing title',
  });
  slide.addShape('rect', { x: size.w / 2 - 0.8, y: 4.0, w: 1.6, h: 0.07, fill: { color: mark }, line: { color: mark, width: 0 } });
  const subtitle = s.subtitle ?? [ctx.spec.author, ctx.spec.date].filter(Boolean).join('  ·  ');
  if (subtitle) {
    drawFittedText(ctx, slide, report, subtitle, { x: 1, y: 4.3, w: size.w - 2, h: 1.2 }, {
      role: 'body',
      base: 20,
      floor: BODY_FLOOR_PT,
      color: p.titleMuted,
      background: p.titleBackground,
      lineHeight: 1.25,
      align: 'center',
      what: 'closing subtitle',
    });
  }
  if (s.notes) slide.addNotes(s.notes);
}

export function drawQuoteSlide(ctx: RenderContext, s: SlideOf<'quote'>, report: SlideReport): void {
  const { theme, size } = ctx;
  const p = theme.palette;
  let slide: PptxGenJS.Slide;
  let top: number;
  if (s.title) {
    const added = addContentSlide(ctx, report, s.title);
    slide = added.slide;
    top = added.body.y + 0.2;
  } else {
    slide = addSlide(ctx, report, MASTER_CONTENT);
    top = 1.2;
  }
  const bottom = size.h - 0.9;
  const x = 1.8;
  const w = size.w - x - 1.2;
  slide.addShape('rect', { x: 1.2, y: top, w: 0.08, h: bottom - top - 0.1, fill: { color: p.accent }, line: { color: p.accent, width: 0 } });
  const byH = s.by ? 0.6 : 0;
  drawFittedText(ctx, slide, report, s.quote, { x, y: top, w, h: bottom - top - byH - 0.1 }, {
    role: 'body',
    base: Math.round(theme.sizes.body * 1.3),
    floor: BODY_FLOOR_PT,
    color: p.text,
    background: p.background,
    italic: true,
    lineHeight: theme.lineHeight,
    valign: 'middle',
    what: 'quote',
  });
  if (s.by) {
    drawFittedText(ctx, slide, report, `— ${s.by}`, { x, y: bottom - byH, w, h: byH }, {
      role: 'body',
      base: Math.round(theme.sizes.body * 0.85),
      floor: 12,
      color: p.muted,
      background: p.background,
      lineHeight: 1.2,
      align: 'right',
      what: 'quote attribution',
    });
  }
  report.checkWords([s.quote, s.by ?? '']);
  if (s.notes) slide.addNotes(s.notes);
}

export function bulletGroups(items: readonly BulletItem[]): Para[][] {
  return items.map((item) =>
    typeof item === 'string' ? [{ text: item, level: 0 }] : [{ text: item.text, level: 0 as const }, ...item.sub.map((t) => ({ text: t, level: 1 as const }))],
  );
}

function bulletTexts(items: readonly BulletItem[]): string[] {
  return bulletGroups(items).flat().map((p) => p.text);
}

function drawBulletParas(ctx: RenderContext, slide: PptxGenJS.Slide, report: SlideReport, paras: readonly Para[], region: Region, m: BulletMetrics): void {
  const p = ctx.theme.palette;
  const runs = paras.flatMap((para, i) => {
    const size = para.level === 0 ? m.size : m.subSize;
    const color = para.level === 0 ? p.text : p.muted;
    report.checkContrast(para.level === 0 ? 'bullet text' : 'sub-bullet text', color, p.background);
    return paragraphRuns(
      para.text,
      { role: 'body', size, color },
      ctx.theme,
      ctx.cjkLang,
      {
        bullet: para.level === 0 ? { indent: m.indentPt } : { indent: m.indentPt, characterCode: '2013' },
        indentLevel: para.level,
        lineSpacing: lineSpacingPt(size, m.lineHeight),
        paraSpaceAfter: Math.round(size * 0.35),
      },
      i === paras.length - 1,
    );
  });
  if (runs.length > 0) slide.addText(runs, { ...region, margin: 0, valign: 'top', fit: 'none', wrap: true });
}

function flagOverflowRisk(report: SlideReport, paras: readonly Para[], region: Region, m: BulletMetrics): void {
  const used = paras.reduce((sum, para) => sum + paraHeight(para, region.w, m), 0);
  if (used > region.h * 0.97) report.add('overflow_risk', `text fills ${Math.round((used / region.h) * 100)}% of its box; check it in PowerPoint`);
}

export function drawBulletsSlide(ctx: RenderContext, s: SlideOf<'bullets'>, report: SlideReport): void {
  const { theme } = ctx;
  const groups = bulletGroups(s.bullets);
  const texts = bulletTexts(s.bullets);
  report.checkEmptiness(texts, false);
  report.checkWords([s.title, ...texts]);
  const probe = addContentSlide(ctx, report, s.title);
  const body = probe.body;
  if (groups.length === 0) {
    if (s.notes) probe.slide.addNotes(s.notes);
    return;
  }
  // A little slack under the box: clients add a point here and there to exact line spacing.
  const fit = paginateBullets(groups, { w: body.w, h: body.h - FIT_SLACK_IN }, { base: theme.sizes.body, lineHeight: theme.lineHeight });
  if (fit.shrunk) report.add('shrunk', `body text shrunk from ${theme.sizes.body} to ${fit.metrics.size} pt to fit`);
  if (fit.pages.length > 1) report.add('split', `${s.bullets.length} bullets did not fit one slide; continued on ${fit.pages.length - 1} more`);
  if (fit.brokenParas > 0) report.add('split', `${fit.brokenParas} bullet(s) longer than a slide were continued on the next slide`);
  fit.pages.forEach((page, i) => {
    const slide = i === 0 ? probe.slide : addContentSlide(ctx, report, s.title, i).slide;
    drawBulletParas(ctx, slide, report, page, body, fit.metrics);
    flagOverflowRisk(report, page, body, fit.metrics);
  });
  if (s.notes) probe.slide.addNotes(s.notes);
}

/** Bullets in a fixed box (a column): shrink to the floor, then leave out what still does not fit. */
function drawBoxedBullets(ctx: RenderContext, slide: PptxGenJS.Slide, report: SlideReport, items: readonly BulletItem[], region: Region, side: string): void {
  const { theme } = ctx;
  const all = bulletGroups(items).flat();
  for (let size = theme.sizes.body; size >= BODY_FLOOR_PT; size--) {
    const m = bulletMetrics(size, theme.lineHeight);
    const used = all.reduce((sum, para) => sum + paraHeight(para, region.w, m), 0);
    if (used <= region.h) {
      if (size < theme.sizes.body) report.add('shrunk', `${side} column shrunk from ${theme.sizes.body} to ${size} pt to fit`);
      drawBulletParas(ctx, slide, report, all, region, m);
      return;
    }
  }
  const m = bulletMetrics(BODY_FLOOR_PT, theme.lineHeight);
  const kept: Para[] = [];
  let used = 0;
  for (const para of all) {
    const h = paraHeight(para, region.w, m);
    if (used + h > region.h) break;
    kept.push(para);
    used += h;
  }
  report.add('dropped', `${all.length - kept.length} of ${all.length} point(s) in the ${side} column did not fit at ${BODY_FLOOR_PT} pt and were left out`);
  drawBulletParas(ctx, slide, report, kept, region, m);
}

function drawImageIn(ctx: RenderContext, slide: PptxGenJS.Slide, report: SlideReport, path: string, caption: string | undefined, region: Region): void {
  const p = ctx.theme.palette;
  const captionH = caption ? 0.55 : 0;
  const box = { ...region, h: region.h - captionH };
  const img = loadImage(ctx.baseDir, path);
  // Centred in the box above the caption band, the picture and its caption are centred as a pair;
  // the caption sits right under the picture.
  let captionY = box.y + box.h;
  if (img.ok) {
    const r = containRect(img.info.width, img.info.height, box);
    slide.addImage({ data: img.data, ...r, altText: caption ?? path });
    captionY = r.y + r.h;
  } else {
    drawImagePlaceholder(ctx, slide, report, box, img.reason);
  }
  if (caption) {
    drawFittedText(ctx, slide, report, caption, { x: region.x, y: captionY + 0.1, w: region.w, h: captionH - 0.1 }, {
      role: 'body',
      base: ctx.theme.sizes.caption,
      floor: 10,
      color: p.muted,
      background: p.background,
      italic: true,
      lineHeight: 1.2,
      align: 'center',
      what: 'caption',
    });
  }
}

function columnTexts(c: ColumnContent): string[] {
  if (c.bullets) return bulletTexts(c.bullets);
  return [c.text ?? '', c.caption ?? ''].filter(Boolean);
}

function drawColumn(ctx: RenderContext, slide: PptxGenJS.Slide, report: SlideReport, c: ColumnContent, region: Region, side: string): void {
  const p = ctx.theme.palette;
  if (c.bullets) drawBoxedBullets(ctx, slide, report, c.bullets, region, side);
  else if (c.image) drawImageIn(ctx, slide, report, c.image, c.caption, region);
  else if (c.text !== undefined) {
    drawFittedText(ctx, slide, report, c.text, region, {
      role: 'body',
      base: ctx.theme.sizes.body,
      floor: BODY_FLOOR_PT,
      color: p.text,
      background: p.background,
      lineHeight: ctx.theme.lineHeight,
      what: `${side} column text`,
    });
  }
}

export function drawTwoColumnSlide(ctx: RenderContext, s: SlideOf<'two_column'>, report: SlideReport): void {
  const { slide, body } = addContentSlide(ctx, report, s.title);
  const gap = 0.5;
  const colW = (body.w - gap) / 2;
  const texts = [...columnTexts(s.left), ...columnTexts(s.right)];
  report.checkEmptiness(texts, Boolean(s.left.image ?? s.right.image));
  report.checkWords([s.title, ...texts]);
  drawColumn(ctx, slide, report, s.left, { ...body, w: colW }, 'left');
  drawColumn(ctx, slide, report, s.right, { ...body, x: body.x + colW + gap, w: colW }, 'right');
  if (s.notes) slide.addNotes(s.notes);
}

export function drawImageSlide(ctx: RenderContext, s: SlideOf<'image'>, report: SlideReport): void {
  const { slide, body } = addContentSlide(ctx, report, s.title);
  report.checkWords([s.title, s.caption ?? '']);
  drawImageIn(ctx, slide, report, s.image, s.caption, body);
  if (s.notes) slide.addNotes(s.notes);
}
