// Deck themes: palette, fonts, sizes and master elements. Shared with the HTML preview, which draws
// thumbnails from the same theme. Colours are 6-digit hex without '#', as pptxgenjs takes them.
import { z } from 'zod';

const Hex = z.string().regex(/^[0-9A-Fa-f]{6}$/, 'expected a 6-digit hex colour without "#", like "1F4E79"');
const FontName = z.string().min(1).max(64).regex(/^[^<>"&]+$/, 'font names cannot contain <, >, " or &');

const Fraction = z.number().min(0).max(1);
const FractionBox = z.strictObject({ x: Fraction, y: Fraction, w: Fraction.positive(), h: Fraction.positive() });
export type FractionBox = z.infer<typeof FractionBox>;

/** A template placeholder's text style, as its master and layout give it (inheritance resolved). */
const TemplateTextStyle = z.strictObject({
  color: Hex.optional(),
  sizePt: z.number().min(8).max(96).optional(),
  face: FontName.optional(),
  bold: z.boolean().optional(),
  align: z.enum(['left', 'center', 'right']).optional(),
  valign: z.enum(['top', 'middle', 'bottom']).optional(),
});
export type TemplateTextStyle = z.infer<typeof TemplateTextStyle>;

/** A bullet level of a template's body text: its character (null: none or numbered) and where the text starts, points from the box's left edge. */
const TemplateBullet = z.strictObject({ char: z.string().min(1).max(4).nullable(), marginPt: z.number().min(0).max(600) });
export type TemplateBullet = z.infer<typeof TemplateBullet>;

/**
 * Something a template's master or layout paints behind the slide's text (its background, a title
 * bar, a band, a picture), fractions of the slide; `color` null when it is a picture.
 */
const PictureSamples = z.strictObject({ cols: z.number().int().min(1).max(64), rows: z.number().int().min(1).max(64), colors: z.array(Hex).max(4096) });
/** A picture's colours as a grid of cell averages (row by row), read from its pixels at import. */
export type PictureSamples = z.infer<typeof PictureSamples>;
const Backdrop = z.strictObject({ x: z.number(), y: z.number(), w: z.number(), h: z.number(), color: Hex.nullable(), samples: PictureSamples.optional() });
export type Backdrop = z.infer<typeof Backdrop>;

// The defaults ThemeSchema fills in, named once so the built-in themes can be completed without a
// parse (see BUILTIN_THEMES).
export const DEFAULT_SIZES = { heroTitle: 44, title: 32, body: 24, table: 18, caption: 14, footer: 10 };
const DEFAULT_LINE_HEIGHT = 1.3;
const DEFAULT_MASTER = { footer: '', slideNumber: true, titleMark: 'bar' as 'bar' | 'underline' | 'none', decorations: true };

export const ThemeSchema = z.strictObject({
  name: z.string().regex(/^[a-z0-9][a-z0-9_-]{0,40}$/, 'theme names are lower-case letters, digits, "-" and "_"'),
  label: z.string().min(1).max(80),
  palette: z.strictObject({
    background: Hex,
    text: Hex,
    muted: Hex,
    accent: Hex,
    accent2: Hex,
    /** Text drawn on an accent fill. */
    onAccent: Hex,
    /** Title, section and closing slides. */
    titleBackground: Hex,
    titleText: Hex,
    titleMuted: Hex,
    /** Panels: quote box, image placeholder. */
    surface: Hex,
    tableHeader: Hex,
    tableHeaderText: Hex,
    tableZebra: Hex,
    tableBorder: Hex,
    /** A template's table body: its text colour and cell fill, when they differ from the slide's. */
    tableText: Hex.optional(),
    tableFill: Hex.optional(),
    chart: z.array(Hex).min(3).max(12),
  }),
  fonts: z.strictObject({
    latinHeading: FontName,
    latinBody: FontName,
    /** One face that LibreOffice (Debian fonts-noto-cjk) resolves; see docs/deck-spec.md. */
    cjkHeading: FontName,
    cjkBody: FontName,
  }),
  /** Point sizes before fitting shrinks them. */
  sizes: z
    .strictObject({
      heroTitle: z.number().min(24).max(72),
      title: z.number().min(20).max(48),
      body: z.number().min(14).max(36),
      table: z.number().min(10).max(28),
      caption: z.number().min(10).max(24),
      footer: z.number().min(8).max(16),
    })
    .default(DEFAULT_SIZES),
  /** Line height as a multiple of the font size; written as exact spacing so fitting is predictable. */
  lineHeight: z.number().min(1.1).max(2).default(DEFAULT_LINE_HEIGHT),
  master: z
    .strictObject({
      /** Footer text when the deck gives none. */
      footer: z.string().max(200).default(DEFAULT_MASTER.footer),
      slideNumber: z.boolean().default(DEFAULT_MASTER.slideNumber),
      /** The accent mark beside content-slide titles. */
      titleMark: z.enum(['bar', 'underline', 'none']).default(DEFAULT_MASTER.titleMark),
      /** Folio's own marks on title, section and closing slides (accent bars, strips, rules); off when a template's master draws the look. */
      decorations: z.boolean().default(DEFAULT_MASTER.decorations),
    })
    .default(DEFAULT_MASTER),
  /**
   * Where a template's placeholders put things, overriding Folio's geometry for that region only
   * (deck-geometry.ts reads them). Fractions of the slide: x and w of its width, y and h of its height.
   */
  regions: z
    .strictObject({
      /** Content slides: the title placeholder of the template's content layout. */
      title: FractionBox.optional(),
      /** Content slides: its body placeholder (the footer band still bounds it). */
      body: FractionBox.optional(),
      /** Two-column slides: the two body placeholders of the two-content layout. */
      columns: z.tuple([FractionBox, FractionBox]).optional(),
      /** Title and closing slides: the title and subtitle placeholders together. */
      hero: FractionBox.optional(),
      /** Title and closing slides: the subtitle placeholder alone (the title goes above it). */
      subtitle: FractionBox.optional(),
      /** Section slides: the section header's title and text placeholders together. */
      section: FractionBox.optional(),
      /** Section slides: the section layout's text placeholder below its title (the subtitle goes in it). */
      sectionSubtitle: FractionBox.optional(),
    })
    .optional(),
  /** What a template's master and layouts draw themselves, which Folio's text must follow and read on. */
  template: z
    .strictObject({
      /** Content-slide titles: the content layout's title placeholder style. */
      title: TemplateTextStyle,
      /** Title and closing slides: the title layout's title placeholder style. */
      heroTitle: TemplateTextStyle,
      /** Section slides: the section layout's title placeholder style (absent in templates imported before it was read). */
      section: TemplateTextStyle.optional(),
      /** Body text: the content layout's body placeholder style, level 1 (absent in templates imported before it was read). */
      body: TemplateTextStyle.optional(),
      /** Title and closing slides' subtitles: the title layout's subtitle placeholder style, when it has one. */
      subtitle: TemplateTextStyle.optional(),
      /** Section slides' subtitles: the section layout's text placeholder style, when it has one. */
      sectionSubtitle: TemplateTextStyle.optional(),
      /** Body text's bullets per level (level 1 first), as the content layout's body placeholder sets them (absent in templates imported before they were read). */
      bullets: z.array(TemplateBullet).max(9).optional(),
      /** Painted behind the text, back to front, per kind of slide (the first is the background). */
      backdrops: z.strictObject({ content: z.array(Backdrop).max(60), title: z.array(Backdrop).max(60), section: z.array(Backdrop).max(60) }),
      /** The master draws its own footer text: Folio draws none. */
      ownFooter: z.boolean(),
      /** Where the slide number goes: the template's slide-number placeholder, clear of the logo. */
      number: FractionBox.optional(),
      /** The master's logo: no text is placed over it. */
      logo: FractionBox.optional(),
    })
    .optional(),
  /** A theme made from a template fixes the slide shape (its master is drawn for it). */
  aspect: z.enum(['16:9', '4:3']).optional(),
});
export type Theme = z.infer<typeof ThemeSchema>;
export type ThemeInput = z.input<typeof ThemeSchema>;

// Latin faces are ones with metric-compatible free twins (Arial → Liberation Sans, Times New Roman →
// Liberation Serif), so fitting measured here holds in PowerPoint and in LibreOffice alike.
const NOTO_SANS_SC = 'Noto Sans CJK SC';
const NOTO_SERIF_SC = 'Noto Serif CJK SC';

const builtinInputs: ThemeInput[] = [
  {
    name: 'academic',
    label: 'Academic',
    palette: {
      background: 'FFFFFF',
      text: '1F2933',
      muted: '52606D',
      accent: '1F4E79',
      accent2: 'B7791F',
      onAccent: 'FFFFFF',
      titleBackground: '1F4E79',
      titleText: 'FFFFFF',
      titleMuted: 'D9E2EC',
      surface: 'F0F4F8',
      tableHeader: '1F4E79',
      tableHeaderText: 'FFFFFF',
      tableZebra: 'F0F4F8',
      tableBorder: 'CBD2D9',
      chart: ['1F4E79', 'B7791F', '4A90C2', '8E3B46', '5B8C5A', '7B6FA6'],
    },
    fonts: { latinHeading: 'Times New Roman', latinBody: 'Arial', cjkHeading: NOTO_SERIF_SC, cjkBody: NOTO_SANS_SC },
    master: { titleMark: 'bar' },
  },
  {
    name: 'business',
    label: 'Business',
    palette: {
      background: 'FFFFFF',
      text: '1E293B',
      muted: '556274',
      accent: 'EA580C',
      accent2: '0F766E',
      onAccent: 'FFFFFF',
      titleBackground: '1E293B',
      titleText: 'FFFFFF',
      titleMuted: 'CBD5E1',
      surface: 'F1F5F9',
      tableHeader: '1E293B',
      tableHeaderText: 'FFFFFF',
      tableZebra: 'F1F5F9',
      tableBorder: 'CBD5E1',
      chart: ['1E293B', 'EA580C', '0F766E', '64748B', 'CA8A04', '7C3AED'],
    },
    fonts: { latinHeading: 'Arial', latinBody: 'Arial', cjkHeading: NOTO_SANS_SC, cjkBody: NOTO_SANS_SC },
    master: { titleMark: 'underline' },
  },
  {
    name: 'minimal',
    label: 'Minimal',
    palette: {
      background: 'FFFFFF',
      text: '111111',
      muted: '5C5C5C',
      accent: '2563EB',
      accent2: '111111',
      onAccent: 'FFFFFF',
      titleBackground: 'FFFFFF',
      titleText: '111111',
      titleMuted: '5C5C5C',
      surface: 'F5F5F5',
      tableHeader: '111111',
      tableHeaderText: 'FFFFFF',
      tableZebra: 'F5F5F5',
      tableBorder: 'DDDDDD',
      chart: ['2563EB', '111111', '9CA3AF', '60A5FA', '374151', 'D1D5DB'],
    },
    fonts: { latinHeading: 'Arial', latinBody: 'Arial', cjkHeading: NOTO_SANS_SC, cjkBody: NOTO_SANS_SC },
    master: { titleMark: 'none' },
  },
  {
    name: 'dark',
    label: 'Dark',
    palette: {
      background: '111827',
      text: 'F3F4F6',
      muted: 'A3ACB9',
      accent: '38BDF8',
      accent2: 'FBBF24',
      onAccent: '0B1220',
      titleBackground: '0B1220',
      titleText: 'FFFFFF',
      titleMuted: 'A3ACB9',
      surface: '1F2937',
      tableHeader: '38BDF8',
      tableHeaderText: '0B1220',
      tableZebra: '1A2332',
      tableBorder: '374151',
      chart: ['38BDF8', 'FBBF24', 'F472B6', '34D399', 'A78BFA', 'F87171'],
    },
    fonts: { latinHeading: 'Arial', latinBody: 'Arial', cjkHeading: NOTO_SANS_SC, cjkBody: NOTO_SANS_SC },
    master: { titleMark: 'bar' },
  },
];

/**
 * The built-in themes with ThemeSchema's defaults filled in. Not parsed at import: this module is in
 * start-up's import graph (the contract), and the parse was a few milliseconds of it. themes.test.ts
 * checks that ThemeSchema.parse gives exactly these objects.
 */
export function completeTheme(input: ThemeInput): Theme {
  const { sizes, lineHeight, master, ...rest } = input;
  return {
    ...rest,
    sizes: { ...DEFAULT_SIZES, ...sizes },
    lineHeight: lineHeight ?? DEFAULT_LINE_HEIGHT,
    master: { ...DEFAULT_MASTER, ...master },
  };
}

export const BUILTIN_THEMES: readonly Theme[] = builtinInputs.map(completeTheme);
export const DEFAULT_THEME_NAME = 'academic';

export function findTheme(name: string, extra: readonly Theme[] = []): Theme | undefined {
  return BUILTIN_THEMES.find((t) => t.name === name) ?? extra.find((t) => t.name === name);
}

/** What text is set as: a theme's heading or body faces, or code. */
export type FaceRole = 'heading' | 'body' | 'code';

/**
 * Code's Latin face: a monospace every PowerPoint machine has, which fontconfig answers with its
 * metric twin Liberation Mono on Linux (so LibreOffice's lines are the measured ones). Chinese in
 * code (comments, strings) falls back to the theme's CJK body face, whose characters are 1 em.
 */
export const CODE_LATIN_FACE = 'Courier New';

export function fontFaceFor(theme: Theme, role: FaceRole, cjk: boolean): string {
  if (role === 'code') return cjk ? theme.fonts.cjkBody : CODE_LATIN_FACE;
  if (cjk) return role === 'heading' ? theme.fonts.cjkHeading : theme.fonts.cjkBody;
  return role === 'heading' ? theme.fonts.latinHeading : theme.fonts.latinBody;
}

/** Families known to carry Chinese glyphs; a run with CJK text must use one of these (or a theme's CJK face). */
const CJK_FAMILY_PATTERNS = [
  /^Noto (Sans|Serif) CJK/i,
  /^Noto (Sans|Serif) (SC|TC|JP|KR|HK)\b/i,
  /^Source Han (Sans|Serif)/i,
  /^(Microsoft YaHei|Microsoft JhengHei|DengXian|SimSun|SimHei|NSimSun|KaiTi|FangSong)\b/i,
  /^(PingFang|Hiragino|Heiti|Songti|STHeiti|STSong|STKaiti)\b/i,
  /^(WenQuanYi|AR PL|Droid Sans Fallback|Yu Gothic|Meiryo|MS Gothic|MS Mincho|Malgun Gothic)\b/i,
  /^(微软雅黑|宋体|黑体|等线|楷体)/,
];

export function isCjkCapableFace(face: string, themes: readonly Theme[] = BUILTIN_THEMES): boolean {
  if (CJK_FAMILY_PATTERNS.some((re) => re.test(face))) return true;
  return themes.some((t) => t.fonts.cjkBody === face || t.fonts.cjkHeading === face);
}

/** WCAG 2.x relative luminance of a hex colour. */
export function relativeLuminance(hex: string): number {
  const channel = (i: number): number => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(0) + 0.7152 * channel(2) + 0.0722 * channel(4);
}

/** WCAG contrast ratio, 1 (none) to 21 (black on white). */
export function contrastRatio(a: string, b: string): number {
  const la = relativeLuminance(a);
  const lb = relativeLuminance(b);
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

export const MIN_TEXT_CONTRAST = 4.5;
/** WCAG 2 AA for large text (18 pt and up, or 14 pt bold). */
export const MIN_LARGE_TEXT_CONTRAST = 3;

/**
 * What is painted behind a box (fractions of the slide): the frontmost backdrop holding its centre.
 * Undefined when none does (a theme without a template: the slide's own background is behind).
 */
export function backdropBehind(backdrops: readonly Backdrop[] | undefined, box: { x: number; y: number; w: number; h: number }): Backdrop | undefined {
  if (!backdrops) return undefined;
  const cx = box.x + box.w / 2;
  const cy = box.y + box.h / 2;
  for (let i = backdrops.length - 1; i >= 0; i--) {
    const b = backdrops[i];
    if (b && cx >= b.x && cx <= b.x + b.w && cy >= b.y && cy <= b.y + b.h) return b;
  }
  return undefined;
}
