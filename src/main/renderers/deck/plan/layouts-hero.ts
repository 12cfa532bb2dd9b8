// Hero layouts: title, section, closing, and quote (composed in the optical middle of the slide).
import { centredRegion, FIT_SLACK, HERO_BOTTOM_BAND, HERO_MARK, heroTextRegion, opticalTop, SECTION_STRIP, themeRegion, TITLE_LINE_HEIGHT, untitledBodyRegion } from '../../../../shared/specs/deck-geometry';
import { type Planner, SlideBuilder } from './context';
import { contentSlide, heroMarkColor, heroSlide, rect } from './slides';
import { fitText } from './text';
import { meetsAtCjkLatinGap } from '../../../../shared/specs/deck-text';

/** Vertical gap between a hero title and what follows it, inches. */
const HERO_GAP = 0.3;

/**
 * A template title layout with a subtitle placeholder: the title is set in the room above it
 * (anchored as the template anchors its title), the subtitle in the placeholder in the template's
 * subtitle style, each fitted to its own box. Undefined when the template has no subtitle placeholder.
 */
function inTemplatePlaceholders(ctx: Parameters<Planner<'title'>>[0], slide: SlideBuilder, title: string, subtitleText: string | undefined, align: 'left' | 'center' | 'right' | undefined, closing = false): boolean {
  const { theme, size } = ctx;
  const p = theme.palette;
  const hero = themeRegion(theme.regions?.hero, size);
  const sub = themeRegion(theme.regions?.subtitle, size);
  if (!hero || !sub || sub.y - hero.y < 0.8) return false;
  const own = theme.template?.subtitle;
  const titleBox = { ...hero, h: sub.y - hero.y - 0.1 };
  const fitted = fitText(ctx, slide, title, titleBox, {
    id: 'title', role: 'title', font: 'heading', sizePt: theme.sizes.heroTitle, floorPt: 28, bold: heroBold(theme),
    color: p.titleText, lineHeight: TITLE_LINE_HEIGHT, maxLines: 2, what: 'title', valign: theme.template?.heroTitle.valign ?? 'bottom', ...(align ? { align } : {}),
  });
  slide.add({ ...fitted.element, box: titleBox });
  if (subtitleText) {
    // A closing slide is centred throughout, as Folio sets it on every theme.
    const subAlign = closing ? align : (own?.align ?? align);
    const subtitle = fitText(ctx, slide, subtitleText, sub, {
      id: 'subtitle', role: 'subtitle', font: 'body', sizePt: own?.sizePt ?? theme.sizes.body, floorPt: 18, color: own?.color ?? p.titleMuted,
      lineHeight: 1.25, maxLines: 3, what: 'subtitle', ...(subAlign ? { align: subAlign } : {}),
    });
    slide.add({ ...subtitle.element, box: { ...sub, h: Math.min(sub.h, subtitle.height + FIT_SLACK) } });
  }
  return true;
}

export const planTitle: Planner<'title'> = (ctx, s) => {
  const { theme, size, spec } = ctx;
  const p = theme.palette;
  const slide = heroSlide(ctx, p.titleBackground);
  const region = heroTextRegion(size, themeRegion(theme.regions?.hero, size));
  const scratch = new SlideBuilder('plain', p.titleBackground);
  if (inTemplatePlaceholders(ctx, slide, s.title ?? spec.title, s.subtitle ?? spec.subtitle, heroAlign(ctx).align)) {
    addByline(ctx, slide, region);
    return [slide];
  }
  const title = fitText(ctx, scratch, s.title ?? spec.title, { ...region, h: region.h * 0.6 }, {
    id: 'title', role: 'title', font: 'heading', sizePt: theme.sizes.heroTitle, floorPt: 28, bold: heroBold(theme),
    color: p.titleText, lineHeight: TITLE_LINE_HEIGHT, maxLines: 2, what: 'title', ...heroAlign(ctx),
  });
  let blockH = title.height;
  const subtitleText = s.subtitle ?? spec.subtitle;
  let subtitle;
  if (subtitleText) {
    subtitle = fitText(ctx, scratch, subtitleText, { ...region, y: region.y + title.height + HERO_GAP, h: region.h * 0.3 }, {
      id: 'subtitle', role: 'subtitle', font: 'body', sizePt: theme.sizes.body, floorPt: 18, color: p.titleMuted, lineHeight: 1.25, maxLines: 3, what: 'subtitle', ...heroAlign(ctx),
    });
    blockH += HERO_GAP + subtitle.height;
  }
  const top = opticalTop(region, blockH);
  const dy = top - region.y;
  slide.add({ ...title.element, box: { ...title.element.box, y: top, h: title.height + FIT_SLACK } });
  if (subtitle) slide.add({ ...subtitle.element, box: { ...subtitle.element.box, y: subtitle.element.box.y + dy, h: subtitle.height + FIT_SLACK } });
  for (const note of scratchNotes(scratch)) slide.addNote(note);
  if (theme.master.decorations) {
    const mark = heroMarkColor(ctx);
    slide.add(rect('title-mark', { x: HERO_MARK.x, y: top + 0.05, w: HERO_MARK.w, h: Math.max(0.3, blockH - 0.1) }, mark));
    slide.add(rect('bottom-band', { x: 0, y: size.h - HERO_BOTTOM_BAND, w: size.w, h: HERO_BOTTOM_BAND }, mark));
  }
  addByline(ctx, slide, region);
  return [slide];
};

/**
 * "author  ·  date". Where Chinese meets the dot LibreOffice sets its own quarter em, so no space is
 * typed there (it would read as two), and the dot's other side gets one space to match.
 */
export function joinByline(parts: readonly (string | undefined)[]): string {
  return parts
    .filter((v): v is string => Boolean(v))
    .reduce((out, part) => {
      if (!out) return part;
      const left = meetsAtCjkLatinGap(Array.from(out).at(-1) ?? '', '·');
      const right = meetsAtCjkLatinGap('·', Array.from(part)[0] ?? '');
      const pad = left || right ? ' ' : '  ';
      return `${out}${left ? '' : pad}·${right ? '' : pad}${part}`;
    }, '');
}

function addByline(ctx: Parameters<Planner<'title'>>[0], slide: SlideBuilder, region: { x: number; w: number }): void {
  const { spec, size } = ctx;
  const byline = joinByline([spec.author, spec.date]);
  if (!byline) return;
  const fitted = fitText(ctx, slide, byline, { x: region.x, y: size.h - 1.1, w: region.w, h: 0.5 }, {
    id: 'byline', role: 'caption', font: 'body', sizePt: 18, floorPt: 14, color: ctx.theme.palette.titleMuted, lineHeight: 1.2, maxLines: 1, what: 'author and date',
  });
  slide.add(fitted.element);
}

/** Folio's hero titles are bold; a template's are as its title layout sets them (not bold unless it says so). */
function heroBold(theme: Parameters<Planner<'title'>>[0]['theme']): boolean {
  return theme.template ? (theme.template.heroTitle.bold ?? false) : true;
}

/** A template's title-slide title keeps its placeholder's alignment. */
function heroAlign(ctx: Parameters<Planner<'title'>>[0]): { align?: 'left' | 'center' | 'right' } {
  const align = ctx.theme.template?.heroTitle.align;
  return align ? { align } : {};
}

/** Notes a scratch builder collected (text cut while composing). */
function scratchNotes(scratch: SlideBuilder): string[] {
  const built = scratch.build(0);
  return built.notes ? [built.notes] : [];
}

/**
 * A section slide with a subtitle on a template whose section layout has a text placeholder below its
 * title: the title in the room above it, as the layout sets its title, and the subtitle in the
 * placeholder in the layout's style, each fitted to its own box. False when the template has none.
 */
function sectionInPlaceholders(ctx: Parameters<Planner<'section'>>[0], slide: SlideBuilder, title: string, subtitleText: string | undefined): boolean {
  const { theme, size } = ctx;
  const p = theme.palette;
  const own = theme.template?.sectionSubtitle;
  const region = themeRegion(theme.regions?.section, size);
  const sub = themeRegion(theme.regions?.sectionSubtitle, size);
  if (!own || !region || !sub || !subtitleText || sub.y - region.y < 0.8) return false;
  const titleStyle = theme.template?.section;
  const titleBox = { ...region, h: sub.y - region.y - 0.1 };
  const fitted = fitText(ctx, slide, title, titleBox, {
    id: 'title', role: 'title', font: 'heading', sizePt: titleStyle?.sizePt ?? Math.round(theme.sizes.heroTitle * 0.9), floorPt: 28, bold: titleStyle?.bold ?? false,
    color: titleStyle?.color ?? p.text, lineHeight: TITLE_LINE_HEIGHT, maxLines: 2, what: 'section title', valign: titleStyle?.valign ?? 'bottom', ...(titleStyle?.align ? { align: titleStyle.align } : {}),
  });
  slide.add({ ...fitted.element, box: titleBox });
  const subtitle = fitText(ctx, slide, subtitleText, sub, {
    id: 'subtitle', role: 'subtitle', font: 'body', sizePt: own.sizePt ?? theme.sizes.body, floorPt: 18, color: own.color ?? p.muted,
    lineHeight: 1.25, maxLines: 3, what: 'section subtitle', ...(own.align ? { align: own.align } : {}),
  });
  slide.add({ ...subtitle.element, box: { ...sub, h: Math.min(sub.h, subtitle.height + FIT_SLACK) } });
  return true;
}

export const planSection: Planner<'section'> = (ctx, s) => {
  const { theme, size } = ctx;
  const p = theme.palette;
  const slide = heroSlide(ctx, p.background);
  if (sectionInPlaceholders(ctx, slide, s.title, s.subtitle)) return [slide];
  const region = heroTextRegion(size, themeRegion(theme.regions?.section, size));
  const scratch = new SlideBuilder('plain', p.background);
  // On a template the section title is set as its section layout sets it.
  const own = theme.template?.section;
  const title = fitText(ctx, scratch, s.title, { ...region, h: region.h * 0.55 }, {
    id: 'title', role: 'title', font: 'heading', sizePt: own?.sizePt ?? Math.round(theme.sizes.heroTitle * 0.9), floorPt: 28, bold: own ? (own.bold ?? false) : heroBold(theme),
    color: own?.color ?? p.text, lineHeight: TITLE_LINE_HEIGHT, maxLines: 2, what: 'section title', ...(own?.align ? { align: own.align } : {}),
  });
  const ruleGap = 0.25;
  const ruleH = 0.07;
  let blockH = title.height + ruleGap + ruleH;
  let subtitle;
  if (s.subtitle) {
    subtitle = fitText(ctx, scratch, s.subtitle, { ...region, h: region.h * 0.35 }, {
      id: 'subtitle', role: 'subtitle', font: 'body', sizePt: theme.sizes.body, floorPt: 18, color: p.muted, maxLines: 4, what: 'section subtitle',
    });
    blockH += HERO_GAP + subtitle.height;
  }
  const top = opticalTop(region, blockH);
  if (theme.master.decorations) slide.add(rect('strip', { x: 0, y: 0, w: SECTION_STRIP, h: size.h }, p.accent));
  slide.add({ ...title.element, box: { ...region, y: top, h: title.height + FIT_SLACK } });
  const ruleY = top + title.height + ruleGap;
  if (theme.master.decorations) slide.add(rect('rule', { x: region.x, y: ruleY, w: 1.6, h: ruleH }, p.accent2));
  if (subtitle) slide.add({ ...subtitle.element, box: { ...region, y: ruleY + ruleH + HERO_GAP, h: subtitle.height + FIT_SLACK } });
  for (const note of scratchNotes(scratch)) slide.addNote(note);
  return [slide];
};

export const planClosing: Planner<'closing'> = (ctx, s) => {
  const { theme, size, spec } = ctx;
  const p = theme.palette;
  const slide = heroSlide(ctx, p.titleBackground);
  const region = centredRegion(size, themeRegion(theme.regions?.hero, size));
  const scratch = new SlideBuilder('plain', p.titleBackground);
  const zh = ctx.language.startsWith('zh');
  if (inTemplatePlaceholders(ctx, slide, s.title ?? (zh ? '谢谢' : 'Thank you'), s.subtitle ?? (joinByline([spec.author, spec.date]) || undefined), 'center', true)) return [slide];
  const title = fitText(ctx, scratch, s.title ?? (zh ? '谢谢' : 'Thank you'), { ...region, h: region.h * 0.5 }, {
    id: 'title', role: 'title', font: 'heading', sizePt: theme.sizes.heroTitle, floorPt: 28, bold: heroBold(theme), color: p.titleText,
    lineHeight: TITLE_LINE_HEIGHT, maxLines: 2, align: 'center', what: 'closing title',
  });
  const ruleGap = 0.3;
  const ruleH = 0.07;
  let blockH = title.height + ruleGap + ruleH;
  const subtitleText = s.subtitle ?? joinByline([spec.author, spec.date]);
  let subtitle;
  if (subtitleText) {
    subtitle = fitText(ctx, scratch, subtitleText, { ...region, h: region.h * 0.35 }, {
      id: 'subtitle', role: 'subtitle', font: 'body', sizePt: theme.sizes.body - 2, floorPt: 18, color: p.titleMuted, lineHeight: 1.25, maxLines: 4, align: 'center', what: 'closing subtitle',
    });
    blockH += HERO_GAP + subtitle.height;
  }
  const top = opticalTop(region, blockH);
  slide.add({ ...title.element, box: { ...region, y: top, h: title.height + FIT_SLACK } });
  const ruleY = top + title.height + ruleGap;
  if (theme.master.decorations) slide.add(rect('rule', { x: region.x + region.w / 2 - 0.8, y: ruleY, w: 1.6, h: ruleH }, heroMarkColor(ctx)));
  if (subtitle) slide.add({ ...subtitle.element, box: { ...region, y: ruleY + ruleH + HERO_GAP, h: subtitle.height + FIT_SLACK } });
  for (const note of scratchNotes(scratch)) slide.addNote(note);
  return [slide];
};

export const planQuote: Planner<'quote'> = (ctx, s) => {
  const { theme, size } = ctx;
  const p = theme.palette;
  let slide: SlideBuilder;
  let body;
  if (s.title) ({ slide, body } = contentSlide(ctx, s.title));
  else {
    slide = new SlideBuilder('content', p.background);
    body = untitledBodyRegion(size);
  }
  // A narrower measure reads better for a long quote; the opening mark hangs in the left margin.
  const markW = 0.9;
  const region = { x: body.x + markW, y: body.y, w: Math.min(body.w - 2 * markW, 9.5), h: body.h };
  const scratch = new SlideBuilder('content', p.background);
  const byH = s.by ? 0.55 : 0;
  const quote = fitText(ctx, scratch, s.quote, { ...region, h: region.h - byH }, {
    id: 'quote', role: 'quote', font: 'body', sizePt: theme.sizes.body + 4, floorPt: 18, maxPt: theme.sizes.body + 8, growFill: 0.6,
    color: p.text, lineHeight: theme.lineHeight, what: 'quote',
  });
  let blockH = quote.height;
  let by;
  if (s.by) {
    by = fitText(ctx, scratch, `— ${s.by}`, { ...region, h: byH }, {
      id: 'attribution', role: 'attribution', font: 'body', sizePt: theme.sizes.body - 4, floorPt: 14, color: p.muted, lineHeight: 1.2, maxLines: 1, what: 'quote attribution',
    });
    blockH += 0.2 + by.height;
  }
  const top = opticalTop(region, blockH);
  const markSize = Math.round((theme.sizes.body + 4) * 2.6);
  slide.add({
    kind: 'text', id: 'quote-mark', role: 'label', box: { x: body.x, y: top - 0.15, w: markW, h: markSize / 72 },
    font: 'heading', paragraphs: [{ text: '“', level: 0, bullet: 'none', sizePt: markSize, bold: true, color: p.accent, spaceAfterPt: 0 }],
    align: 'left', valign: 'top', lineHeight: 1, lines: 1,
  });
  slide.add({ ...quote.element, box: { ...region, y: top, h: quote.height + FIT_SLACK } });
  if (by) slide.add({ ...by.element, box: { ...region, y: top + quote.height + 0.2, h: by.height + FIT_SLACK } });
  for (const note of scratchNotes(scratch)) slide.addNote(note);
  ctx.report.checkWords([s.quote, s.by ?? '']);
  return [slide];
};
