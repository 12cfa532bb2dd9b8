// A template's colour and font schemes and placeholder positions mapped onto Folio's theme fields.
// Text colours are chosen from the template's own slots by contrast with its backgrounds, so a
// dark template gets light text without anyone saying so; what Folio needs and the template does
// not have (muted text, table zebra) is mixed from the template's colours.
import { backdropBehind, DEFAULT_SIZES, type FractionBox, contrastRatio, isCjkCapableFace, MIN_LARGE_TEXT_CONTRAST, MIN_TEXT_CONTRAST, type TemplateTextStyle, type Theme, ThemeSchema } from '../../../../shared/specs/themes';
import { footerRegion, slideSize } from '../../../../shared/specs/deck-geometry';
import { type PlaceholderInfo, type TemplateLayout } from '../../../../shared/specs/templates';
import type { FontRole, TemplateWarning, TitleRole } from '../../../../shared/specs/template-warnings';
import { mix } from './colours';
import { type ParsedTemplate } from './read';

const NOTO_SANS_SC = 'Noto Sans CJK SC';
const FALLBACK_LATIN = 'Arial';
const FALLBACK_CHART = ['1F4E79', 'B7791F', '4A90C2', '8E3B46', '5B8C5A', '7B6FA6'];
const FONT_NAME = /^[^<>"&]{1,64}$/;
/** Hero regions (fractions of the slide height): at least this tall, and ending above this line. */
const HERO_MIN_H = 0.4;
const HERO_BOTTOM = 0.85;
/** The first candidate readable on `bg`; else black or white, whichever reads better. */
function readableOn(bg: string, candidates: readonly (string | undefined)[]): string {
  for (const c of candidates) if (c && contrastRatio(c, bg) >= MIN_TEXT_CONTRAST) return c;
  return contrastRatio('000000', bg) >= contrastRatio('FFFFFF', bg) ? '000000' : 'FFFFFF';
}

/** `text` faded toward `bg` as far as it stays readable (for secondary text). */
function mutedOn(text: string, bg: string): string {
  for (const t of [0.35, 0.25, 0.15, 0.05]) {
    const c = mix(text, bg, t);
    if (contrastRatio(c, bg) >= MIN_TEXT_CONTRAST) return c;
  }
  return text;
}

function latinFace(face: string, role: FontRole, warnings: TemplateWarning[]): string {
  if (!face) return FALLBACK_LATIN;
  if (face.startsWith('+') || !FONT_NAME.test(face)) {
    warnings.push({ kind: 'latin_font_unusable', role, face: face.slice(0, 40), fallback: FALLBACK_LATIN });
    return FALLBACK_LATIN;
  }
  return face;
}

function cjkFace(face: string, role: FontRole, warnings: TemplateWarning[]): string {
  if (!face) return NOTO_SANS_SC;
  if (!FONT_NAME.test(face) || !isCjkCapableFace(face)) {
    warnings.push({ kind: 'cjk_font_unknown', role, face: face.slice(0, 40), fallback: NOTO_SANS_SC });
    return NOTO_SANS_SC;
  }
  return face;
}

function union(boxes: readonly PlaceholderInfo[]): FractionBox | undefined {
  if (boxes.length === 0) return undefined;
  const x = Math.min(...boxes.map((b) => b.x));
  const y = Math.min(...boxes.map((b) => b.y));
  const r = Math.max(...boxes.map((b) => b.x + b.w));
  const b = Math.max(...boxes.map((p) => p.y + p.h));
  return clampBox({ x, y, w: r - x, h: b - y });
}

/** Inside the slide, and big enough to hold text (a placeholder dragged half off the slide is clipped). */
function clampBox(box: { x: number; y: number; w: number; h: number }): FractionBox | undefined {
  const x = Math.max(0, box.x);
  const y = Math.max(0, box.y);
  const w = Math.min(1, box.x + box.w) - x;
  const h = Math.min(1, box.y + box.h) - y;
  return w >= 0.15 && h >= 0.05 ? { x, y, w, h } : undefined;
}

function layoutByPart(layouts: readonly TemplateLayout[], part: string): TemplateLayout | undefined {
  return layouts.find((l) => l.part === part);
}

const isTitle = (p: PlaceholderInfo): boolean => p.type === 'title' || p.type === 'ctrTitle';
const isBody = (p: PlaceholderInfo): boolean => p.type === 'body' || p.type === 'obj';

/** Folio regions from the placeholders of the layouts each kind of slide is drawn on. */
export function templateRegions(t: ParsedTemplate, warnings: TemplateWarning[]): NonNullable<Theme['regions']> {
  const regions: NonNullable<Theme['regions']> = {};
  const content = layoutByPart(t.layouts, t.mapping.content);
  const titleBox = content?.placeholders.find(isTitle);
  if (titleBox) regions.title = clampBox(titleBox);
  const body = content?.placeholders.filter(isBody).sort((a, b) => b.w * b.h - a.w * a.h)[0];
  if (body) {
    const clamped = clampBox(body);
    // A body placeholder shallower than a quarter of the slide cannot hold Folio's layouts.
    if (clamped && clamped.h >= 0.25) regions.body = clamped;
    else warnings.push({ kind: 'body_region_small', layout: content?.name ?? '' });
  }
  if (t.mapping.two_content !== t.mapping.content) {
    const two = layoutByPart(t.layouts, t.mapping.two_content);
    const cols = two?.placeholders.filter(isBody).sort((a, b) => a.x - b.x).map(clampBox);
    if (cols?.length === 2 && cols[0] && cols[1] && cols[0].x + cols[0].w <= cols[1].x) regions.columns = [cols[0], cols[1]];
  }
  const title = layoutByPart(t.layouts, t.mapping.title);
  const hero = roomBelow(union(title?.placeholders.filter((p) => isTitle(p) || p.type === 'subTitle') ?? []));
  if (hero) regions.hero = hero;
  // A subtitle placeholder below the title's: the subtitle is set in it, the title above it.
  const subtitle = title?.placeholders.find((p) => p.type === 'subTitle');
  const subtitleBox = subtitle ? clampBox(subtitle) : undefined;
  const titleTop = title?.placeholders.find(isTitle)?.y;
  if (hero && subtitleBox && titleTop !== undefined && subtitleBox.y > titleTop) regions.subtitle = subtitleBox;
  const section = layoutByPart(t.layouts, t.mapping.section);
  const sec = roomBelow(union(section?.placeholders.filter((p) => isTitle(p) || isBody(p)) ?? []));
  if (sec) regions.section = sec;
  // Its text placeholder below the title (a subtitle, or a section header's text): the subtitle goes in it.
  const secTitleTop = section?.placeholders.find(isTitle)?.y;
  const secSub = section?.placeholders.find((p) => p.type === 'subTitle' || (section.type === 'secHead' && p.type === 'body'));
  const secSubBox = secSub ? clampBox(secSub) : undefined;
  if (sec && secSubBox && secTitleTop !== undefined && secSubBox.y > secTitleTop) regions.sectionSubtitle = secSubBox;
  return regions;
}

/** Title slides compose a title, a subtitle and a byline: a lone title placeholder gets room under it. */
function roomBelow(box: FractionBox | undefined): FractionBox | undefined {
  if (!box || box.h >= HERO_MIN_H) return box;
  return { ...box, h: Math.max(box.h, Math.min(HERO_MIN_H, HERO_BOTTOM - box.y)) };
}

/** A region that would run under the logo ends before it (or starts after it): no word over the logo. */
function clearOfLogo(region: FractionBox, logo: FractionBox): FractionBox {
  const gap = 0.01;
  const overlaps = logo.x < region.x + region.w && logo.x + logo.w > region.x && logo.y < region.y + region.h && logo.y + logo.h > region.y;
  if (!overlaps) return region;
  const left = logo.x - gap - region.x;
  const right = region.x + region.w - (logo.x + logo.w + gap);
  if (left >= right) return clampBox({ ...region, w: left }) ?? region;
  return clampBox({ ...region, x: logo.x + logo.w + gap, w: right }) ?? region;
}

/** A title colour the template asks for, kept when it reads on what is behind it (large text: 3:1). */
function titleColour(style: TemplateTextStyle, behind: string, fallbacks: readonly (string | undefined)[], title: TitleRole, warnings: TemplateWarning[]): string {
  if (style.color && contrastRatio(style.color, behind) >= MIN_LARGE_TEXT_CONTRAST) return style.color;
  const chosen = readableOn(behind, fallbacks);
  if (style.color) warnings.push({ kind: 'title_colour_hard', title, colour: style.color, behind, chosen });
  return chosen;
}

/** A subtitle colour the template asks for, kept when it reads (3:1 from 18 pt, else 4.5:1); else none (Folio's muted title colour). */
function subtitleColour(style: TemplateTextStyle, behind: string, warnings: TemplateWarning[]): string | undefined {
  const need = (style.sizePt ?? DEFAULT_SIZES.body) >= 18 ? MIN_LARGE_TEXT_CONTRAST : MIN_TEXT_CONTRAST;
  if (style.color && contrastRatio(style.color, behind) >= need) return style.color;
  if (style.color) warnings.push({ kind: 'subtitle_colour_hard', colour: style.color, behind });
  return undefined;
}

const clampSize = (pt: number | undefined, min: number, max: number): number | undefined => (pt === undefined ? undefined : Math.min(max, Math.max(min, Math.round(pt))));

/** The slide number's box: the template's slide-number placeholder (else Folio's), moved left of the logo when they would touch. */
function numberBox(t: ParsedTemplate): FractionBox | undefined {
  const size = slideSize(t.aspect);
  const folio = footerRegion(size).number;
  const box = t.paint.number ?? { x: folio.x / size.w, y: folio.y / size.h, w: folio.w / size.w, h: folio.h / size.h };
  const logo = t.logo;
  const gap = 0.015;
  const touches = logo && box.x < logo.x + logo.w + gap && logo.x < box.x + box.w + gap && box.y < logo.y + logo.h + gap && logo.y < box.y + box.h + gap;
  if (!touches || !logo) return onSlide(box);
  const w = Math.min(box.w, 0.12);
  return onSlide({ x: Math.max(0, logo.x - gap - w), y: box.y, w, h: box.h });
}

/** A mark's box (a logo, a slide number) cut to the slide; undefined when nothing is left. */
function onSlide(box: { x: number; y: number; w: number; h: number }): FractionBox | undefined {
  const x = Math.max(0, box.x);
  const y = Math.max(0, box.y);
  const w = Math.min(1, box.x + box.w) - x;
  const h = Math.min(1, box.y + box.h) - y;
  return w > 0 && h > 0 ? { x, y, w, h } : undefined;
}

type TableColours = Pick<Theme['palette'], 'tableHeader' | 'tableHeaderText' | 'tableZebra' | 'tableText' | 'tableFill'>;

/**
 * Table colours a brand designer would accept: the template's own table style when it defines one
 * (its text colours kept where they read on its fills); else a header in the template's title colour,
 * or the bar its titles sit on, or dk2, whichever stands out from the slide (3:1), with body rows in
 * the body text colour. The theme's accent1 is often a bright highlight, not a header colour.
 */
function tableColours(t: ParsedTemplate, on: { background: string; text: string; title: string | undefined; titleBehind: string }, warnings: TemplateWarning[]): TableColours {
  const { background, text } = on;
  const style = t.paint.table;
  const s = t.scheme;
  const derived = [on.title, on.titleBehind, s.dk2, s.dk1].find((c): c is string => Boolean(c) && contrastRatio(c as string, background) >= MIN_LARGE_TEXT_CONTRAST) ?? text;
  const header = style?.headerFill ?? derived;
  const headerText = readableOn(header, [style?.headerText, background, s.lt1, 'FFFFFF', '000000']);
  if (style?.headerText && headerText !== style.headerText) warnings.push({ kind: 'table_header_colour_hard', style: style.name, colour: style.headerText, behind: header, chosen: headerText });
  const fill = style?.bodyFill;
  const body = readableOn(fill ?? background, [style?.bodyText, text, s.dk1, s.lt1]);
  if (style?.bodyText && body !== style.bodyText) warnings.push({ kind: 'table_text_colour_hard', style: style.name, colour: style.bodyText, behind: fill ?? background, chosen: body });
  // A band the template defines only where the body text still reads on it.
  const band = style?.bandFill && contrastRatio(body, style.bandFill) >= MIN_TEXT_CONTRAST ? style.bandFill : mix(fill ?? background, header, 0.08);
  return { tableHeader: header, tableHeaderText: headerText, tableZebra: band, ...(body !== text ? { tableText: body } : {}), ...(fill ? { tableFill: fill } : {}) };
}

export function templateTheme(id: string, label: string, t: ParsedTemplate, warnings: TemplateWarning[]): Theme {
  const s = t.scheme;
  const light = s.lt1 ?? 'FFFFFF';
  const background = t.contentBackground ?? light;
  const tx1 = s[t.textSlot];
  const regions = templateRegions(t, warnings);
  if (regions.title && t.logo) regions.title = clearOfLogo(regions.title, t.logo);
  const paint = t.paint;
  // Text is set in the colour that reads on what the layout paints behind its placeholder (a band,
  // a picture's colour is unknown: the slide background then), not on the slide background alone.
  const behind = (kind: keyof ParsedTemplate['paint']['backdrops'], box: FractionBox | undefined, otherwise: string): string =>
    (box ? backdropBehind(paint.backdrops[kind], box)?.color : undefined) ?? otherwise;
  const bodyBehind = behind('content', regions.body, background);
  // Body text in the template's body colour when it reads there (4.5:1), else the first slot that does.
  const text = readableOn(bodyBehind, [paint.body.color, tx1, s.dk1, s.dk2, s.lt1, s.lt2]);
  if (paint.body.color && text !== paint.body.color) warnings.push({ kind: 'body_colour_hard', colour: paint.body.color, behind: bodyBehind, chosen: text });
  // Folio sets big numbers, marks and quote marks in the accent: the template's first accent that
  // reads on its background (3:1, large text), so a red accent1 on a dark green master gives way.
  const accents = ['accent1', 'accent2', 'accent3', 'accent4', 'accent5', 'accent6'].map((k) => s[k]).filter((c): c is string => Boolean(c));
  // Accent-coloured numbers and marks are large text or graphics: WCAG's 3:1.
  const accent = accents.find((c) => contrastRatio(c, background) >= MIN_LARGE_TEXT_CONTRAST) ?? s.accent1 ?? text;
  if (s.accent1 && accent !== s.accent1) warnings.push({ kind: 'accent_colour_hard', colour: s.accent1, chosen: accent });
  const onAccent = readableOn(accent, ['FFFFFF', '000000']);
  const titleBackground = t.titleBackground ?? background;
  const heroBehind = behind('title', regions.hero, titleBackground);
  const titleText = titleColour(paint.heroTitle, heroBehind, [tx1, s.dk2, s.dk1, s.lt1, s.lt2], 'hero', warnings);
  const subtitleStyle = paint.subtitle && regions.subtitle ? { ...paint.subtitle, color: subtitleColour(paint.subtitle, behind('title', regions.subtitle, titleBackground), warnings) } : undefined;
  const sectionSubtitle = paint.sectionSubtitle && regions.sectionSubtitle ? { ...paint.sectionSubtitle, color: subtitleColour(paint.sectionSubtitle, behind('section', regions.sectionSubtitle, titleBackground), warnings) } : undefined;
  const sectionText = titleColour(paint.section, behind('section', regions.section, titleBackground), [tx1, s.dk2, s.dk1, s.lt1, s.lt2], 'section', warnings);
  const contentTitle = titleColour(paint.title, behind('content', regions.title, background), [text, tx1, s.dk2, s.dk1, s.lt1, s.lt2], 'content', warnings);
  const headingFace = latinFace(paint.title.face ?? t.fonts.major_latin, 'heading', warnings);
  const logo = t.logo ? onSlide(t.logo) : undefined;
  const number = numberBox(t);
  const titleSize = clampSize(paint.title.sizePt, 20, 48);
  const heroSize = clampSize(paint.heroTitle.sizePt, 24, 72);
  const bodySize = clampSize(paint.body.sizePt, 14, 36);
  const bodyFace = latinFace(paint.body.face ?? t.fonts.minor_latin, 'body', warnings);
  const chart = accents.length >= 3 ? accents : [...accents, ...FALLBACK_CHART].slice(0, 6);
  return ThemeSchema.parse({
    name: id,
    label: label.slice(0, 80) || id,
    palette: {
      background,
      text,
      muted: mutedOn(text, background),
      accent,
      accent2: accents.find((c) => c !== accent) ?? accent,
      onAccent,
      titleBackground,
      titleText,
      titleMuted: mutedOn(titleText, heroBehind),
      surface: mix(background, text, 0.06),
      ...tableColours(t, { background, text, title: paint.title.color, titleBehind: behind('content', regions.title, background) }, warnings),
      tableBorder: mix(background, text, 0.2),
      chart,
    },
    fonts: {
      latinHeading: headingFace,
      latinBody: bodyFace,
      cjkHeading: cjkFace(t.fonts.major_ea || t.fonts.minor_ea, 'heading', warnings),
      cjkBody: cjkFace(t.fonts.minor_ea || t.fonts.major_ea, 'body', warnings),
    },
    ...(titleSize !== undefined || heroSize !== undefined || bodySize !== undefined
      ? { sizes: { ...DEFAULT_SIZES, heroTitle: heroSize ?? DEFAULT_SIZES.heroTitle, title: titleSize ?? DEFAULT_SIZES.title, body: bodySize ?? DEFAULT_SIZES.body } }
      : {}),
    master: { footer: '', slideNumber: true, titleMark: 'none', decorations: false },
    regions,
    template: {
      title: { ...paint.title, color: contentTitle, face: headingFace },
      heroTitle: { ...paint.heroTitle, color: titleText, face: latinFace(paint.heroTitle.face ?? t.fonts.major_latin, 'heading', []) },
      section: { ...paint.section, color: sectionText, face: latinFace(paint.section.face ?? t.fonts.major_latin, 'heading', []) },
      body: { ...paint.body, color: text, face: bodyFace },
      ...(subtitleStyle ? { subtitle: { ...subtitleStyle, face: latinFace(subtitleStyle.face ?? t.fonts.minor_latin, 'body', []) } } : {}),
      ...(sectionSubtitle ? { sectionSubtitle: { ...sectionSubtitle, face: latinFace(sectionSubtitle.face ?? t.fonts.minor_latin, 'body', []) } } : {}),
      ...(paint.bullets.length > 0 ? { bullets: paint.bullets } : {}),
      backdrops: paint.backdrops,
      ownFooter: paint.ownFooter,
      ...(number ? { number } : {}),
      ...(logo ? { logo } : {}),
    },
    aspect: t.aspect,
  });
}
