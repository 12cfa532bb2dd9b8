// The deck spec: what an agent (or a person) writes to get a .pptx. Shared by the main-process
// renderer and the renderer's HTML preview, so it is pure TypeScript + zod.
// Objects are strict: a misspelt key is an error naming the key, not a silently ignored field.
import { z } from 'zod';
import { duplicateSlideIds, SlideId } from './slide-ids';

export const DECK_LAYOUTS = [
  'title',
  'section',
  'bullets',
  'two_column',
  'image',
  'chart',
  'table',
  'quote',
  'closing',
  // Visual layouts (deck-visual): numbers, cards, sequences and options.
  'stat',
  'cards',
  'timeline',
  'process',
  'comparison',
  // Text and picture layouts (deck-core):
  'agenda',
  'image_text',
  'full_image',
] as const;
export type DeckLayout = (typeof DECK_LAYOUTS)[number];

export const CHART_TYPES = ['bar', 'column', 'line', 'pie', 'doughnut', 'area', 'scatter'] as const;
export type ChartType = (typeof CHART_TYPES)[number];
/** Chart types where one category can be drawn in the accent colour. */
const HIGHLIGHT_TYPES: ReadonlySet<ChartType> = new Set(['bar', 'column', 'pie', 'doughnut']);

const MAX_TEXT = 2000;
const text = z.string().max(MAX_TEXT);
const requiredText = z.string().trim().min(1, 'must not be empty').max(MAX_TEXT);

/**
 * A path relative to the task folder. Absolute paths, drive letters, URLs and `..` segments are
 * rejected here; the renderer confines again after resolving symlinks.
 */
export const RelativeAssetPath = z
  .string()
  .min(1, 'must not be empty')
  .max(500)
  .refine((p) => !/^[/\\]/.test(p) && !/^[A-Za-z]:/.test(p), {
    message: 'must be relative to the task folder (no absolute path)',
  })
  .refine((p) => !/^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(p), { message: 'must be a file in the task folder, not a URL' })
  .refine((p) => !p.split(/[/\\]/).includes('..'), { message: 'must not contain ".." segments' });

export const BulletItem = z.union([z.string().max(MAX_TEXT), z.strictObject({ text, sub: z.array(text).max(20) })]);
export type BulletItem = z.infer<typeof BulletItem>;

/** One side of a two_column slide: exactly one of bullets, image or text. */
export const ColumnContent = z
  .strictObject({
    bullets: z.array(BulletItem).max(100).optional(),
    image: RelativeAssetPath.optional(),
    caption: text.optional(),
    text: text.optional(),
  })
  .superRefine((col, ctx) => {
    const kinds = (['bullets', 'image', 'text'] as const).filter((k) => col[k] !== undefined);
    if (kinds.length !== 1) {
      ctx.addIssue({
        code: 'custom',
        message:
          kinds.length === 0
            ? 'expected one of {bullets}, {image, caption?} or {text}'
            : `expected only one of bullets, image, text; got ${kinds.join(' and ')}`,
      });
    }
    if (col.caption !== undefined && col.image === undefined) {
      ctx.addIssue({ code: 'custom', path: ['caption'], message: 'caption is only allowed with image' });
    }
  });
export type ColumnContent = z.infer<typeof ColumnContent>;

export const ChartSeries = z.strictObject({
  name: requiredText,
  values: z.array(z.number().finite()).max(500),
});

export const ChartSpec = z
  .strictObject({
    type: z.enum(CHART_TYPES),
    title: text.optional(),
    categories: z.array(z.string().max(200)).min(1).max(500),
    series: z.array(ChartSeries).min(1).max(20),
    x_title: text.optional(),
    y_title: text.optional(),
    unit: z.string().max(20).optional(),
    /** A category drawn in the accent colour (the one bar or slice that matters); others recede. */
    highlight: z.string().max(200).optional(),
  })
  .superRefine((chart, ctx) => {
    const n = chart.categories.length;
    chart.series.forEach((s, i) => {
      if (s.values.length === 0) {
        ctx.addIssue({ code: 'custom', path: ['series', i, 'values'], message: 'empty series: give one number per category' });
      } else if (s.values.length !== n) {
        ctx.addIssue({
          code: 'custom',
          path: ['series', i, 'values'],
          message: `expected ${n} numbers, got ${s.values.length}`,
        });
      }
    });
    if (chart.highlight !== undefined) {
      if (!chart.categories.includes(chart.highlight)) {
        ctx.addIssue({
          code: 'custom',
          path: ['highlight'],
          message: `"${chart.highlight}" is not a category; the categories are: ${chart.categories.slice(0, 12).join(', ')}`,
        });
      } else if (!HIGHLIGHT_TYPES.has(chart.type) || chart.series.length !== 1) {
        ctx.addIssue({
          code: 'custom',
          path: ['highlight'],
          message: 'highlight needs a bar, column, pie or doughnut chart with one series',
        });
      }
    }
    if ((chart.type === 'pie' || chart.type === 'doughnut') && chart.series.length !== 1) {
      ctx.addIssue({
        code: 'custom',
        path: ['series'],
        message: `a ${chart.type} chart shows exactly one series, got ${chart.series.length}`,
      });
    }
    if (chart.type === 'scatter' && chart.categories.some((c) => !Number.isFinite(Number(c)) || c.trim() === '')) {
      ctx.addIssue({
        code: 'custom',
        path: ['categories'],
        message: 'a scatter chart needs numeric categories (they are the x values)',
      });
    }
  });
export type ChartSpec = z.infer<typeof ChartSpec>;

export const TableSpec = z
  .strictObject({
    header: z.array(z.string().max(500)).min(1).max(12),
    rows: z.array(z.array(z.string().max(MAX_TEXT))).max(1000),
  })
  .superRefine((table, ctx) => {
    const n = table.header.length;
    table.rows.forEach((row, i) => {
      if (row.length !== n) {
        ctx.addIssue({ code: 'custom', path: ['rows', i], message: `expected ${n} cells (one per header), got ${row.length}` });
      }
    });
  });
export type TableSpec = z.infer<typeof TableSpec>;

const notes = z.string().max(20_000).optional();
/** Stable across edits (see slide-ids.ts); render_deck gives slides without one the next free sN. */
const slideId = SlideId.optional();

export const TitleSlide = z.strictObject({
  layout: z.literal('title'),
  id: slideId,
  title: text.optional(),
  subtitle: text.optional(),
  notes,
});
export const SectionSlide = z.strictObject({
  layout: z.literal('section'),
  id: slideId,
  title: requiredText,
  subtitle: text.optional(),
  notes,
});
export const BulletsSlide = z.strictObject({
  layout: z.literal('bullets'),
  id: slideId,
  title: requiredText,
  bullets: z.array(BulletItem).max(500),
  notes,
});
export const TwoColumnSlide = z.strictObject({
  layout: z.literal('two_column'),
  id: slideId,
  title: requiredText,
  left: ColumnContent,
  right: ColumnContent,
  notes,
});
export const ImageSlide = z.strictObject({
  layout: z.literal('image'),
  id: slideId,
  title: requiredText,
  image: RelativeAssetPath,
  caption: text.optional(),
  notes,
});
export const ChartSlide = z.strictObject({
  layout: z.literal('chart'),
  id: slideId,
  title: requiredText,
  chart: ChartSpec,
  notes,
});
export const TableSlide = z.strictObject({
  layout: z.literal('table'),
  id: slideId,
  title: requiredText,
  table: TableSpec,
  notes,
});
export const QuoteSlide = z.strictObject({
  layout: z.literal('quote'),
  id: slideId,
  title: text.optional(),
  quote: requiredText,
  by: text.optional(),
  notes,
});
export const ClosingSlide = z.strictObject({
  layout: z.literal('closing'),
  id: slideId,
  title: text.optional(),
  subtitle: text.optional(),
  notes,
});

// Visual layouts (deck-visual): one block, so each layout's fields are read in one place.

/** A Lucide icon name ("rocket", "chart-line"); the renderer checks it against the icon set. */
export const IconName = z
  .string()
  .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'icon names are Lucide names in kebab-case, like "chart-line" (see lucide.dev/icons)');

const shortText = z.string().trim().min(1, 'must not be empty').max(300);

export const StatItem = z.strictObject({
  /** The number as it should read: "42%", "3.2×", "¥1.2亿", "12 ms". */
  value: z.string().trim().min(1, 'must not be empty').max(24),
  label: shortText,
  /** A short line under the label: the comparison or the source. */
  detail: text.optional(),
});
export const StatSlide = z.strictObject({
  layout: z.literal('stat'),
  id: slideId,
  title: requiredText,
  stats: z.array(StatItem).min(1).max(3, 'at most 3 numbers on one slide; use a chart or table for more'),
  notes,
});

export const CardItem = z.strictObject({
  title: shortText,
  text: text.optional(),
  icon: IconName.optional(),
});
export const CardsSlide = z.strictObject({
  layout: z.literal('cards'),
  id: slideId,
  title: requiredText,
  cards: z.array(CardItem).min(2).max(4, 'at most 4 cards; split the slide or use bullets'),
  notes,
});

export const TimelineItem = z.strictObject({
  /** "2021", "Q3 2024", "3月": short, it is set large on the line. */
  date: z.string().trim().min(1, 'must not be empty').max(40),
  title: shortText,
  text: text.optional(),
});
export const TimelineSlide = z.strictObject({
  layout: z.literal('timeline'),
  id: slideId,
  title: requiredText,
  events: z.array(TimelineItem).min(2).max(6, 'at most 6 dated steps on one slide'),
  notes,
});

export const ProcessStep = z.strictObject({
  title: shortText,
  text: text.optional(),
  icon: IconName.optional(),
});
export const ProcessSlide = z.strictObject({
  layout: z.literal('process'),
  id: slideId,
  title: requiredText,
  steps: z.array(ProcessStep).min(2).max(5, 'at most 5 steps on one slide'),
  notes,
});

export const ComparisonOption = z.strictObject({
  name: shortText,
  /** Short points, one per line. */
  points: z.array(z.string().trim().min(1).max(300)).max(6),
  /** The one-line verdict for this option, shown in the verdict row. */
  verdict: text.optional(),
});
export const ComparisonSlide = z
  .strictObject({
    layout: z.literal('comparison'),
    id: slideId,
    title: requiredText,
    options: z.array(ComparisonOption).min(2).max(3, 'compare two or three options'),
    /** The option the slide recommends (by name): its column gets the accent. */
    recommended: z.string().max(300).optional(),
    notes,
  })
  .superRefine((s, ctx) => {
    if (s.recommended !== undefined && !s.options.some((o) => o.name === s.recommended)) {
      ctx.addIssue({ code: 'custom', path: ['recommended'], message: `"${s.recommended}" is not one of the options' names` });
    }
  });
export const AgendaSlide = z.strictObject({
  layout: z.literal('agenda'),
  id: slideId,
  /** Defaults to "Agenda" (目录 in Chinese decks). */
  title: text.optional(),
  items: z.array(requiredText).min(1, 'an agenda needs at least one item').max(12),
  notes,
});
export const ImageTextSlide = z
  .strictObject({
    layout: z.literal('image_text'),
    id: slideId,
    title: requiredText,
    image: RelativeAssetPath,
    caption: text.optional(),
    /** Beside the picture: a paragraph or bullets (exactly one). */
    text: text.optional(),
    bullets: z.array(BulletItem).max(12).optional(),
    image_side: z.enum(['left', 'right']).default('left'),
    notes,
  })
  .superRefine((s, ctx) => {
    if ((s.text === undefined) === (s.bullets === undefined)) {
      ctx.addIssue({ code: 'custom', message: 'expected exactly one of text or bullets beside the image' });
    }
  });
export const FullImageSlide = z.strictObject({
  layout: z.literal('full_image'),
  id: slideId,
  image: RelativeAssetPath,
  /** Set in the caption band over the bottom of the picture. */
  title: text.optional(),
  caption: text.optional(),
  notes,
});

export const DeckSlide = z.discriminatedUnion('layout', [
  TitleSlide,
  SectionSlide,
  BulletsSlide,
  TwoColumnSlide,
  ImageSlide,
  ChartSlide,
  TableSlide,
  QuoteSlide,
  ClosingSlide,
  StatSlide,
  CardsSlide,
  TimelineSlide,
  ProcessSlide,
  ComparisonSlide,
  AgendaSlide,
  ImageTextSlide,
  FullImageSlide,
]);
export type DeckSlide = z.infer<typeof DeckSlide>;

export const DeckSpecSchema = z.strictObject({
  title: requiredText,
  subtitle: text.optional(),
  author: text.optional(),
  date: text.optional(),
  theme: z
    .string()
    .regex(/^[a-z0-9][a-z0-9_-]{0,40}$/, 'theme names are lower-case letters, digits, "-" and "_"')
    .default('academic'),
  aspect: z.enum(['16:9', '4:3']).default('16:9'),
  language: z
    .string()
    .regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, 'expected a language tag like "zh-CN" or "en"')
    .optional(),
  footer: z.string().max(200).optional(),
  slides: z
    .array(DeckSlide)
    .min(1, 'a deck needs at least one slide')
    .max(300)
    .superRefine((slides, ctx) => {
      for (const [i, first] of duplicateSlideIds(slides.map((s) => s.id))) {
        ctx.addIssue({ code: 'custom', path: [i, 'id'], message: `"${slides[i]?.id ?? ''}" is also the id of slides[${first}]; slide ids must be unique` });
      }
    }),
});
/** A validated spec: defaults (theme, aspect) are filled in. */
export type DeckSpec = z.infer<typeof DeckSpecSchema>;
/** What a caller may write: theme and aspect may be left out. */
export type DeckSpecInput = z.input<typeof DeckSpecSchema>;

export type DeckValidation = { ok: true; spec: DeckSpec } | { ok: false; errors: string[] };

export function validateDeckSpec(input: unknown): DeckValidation {
  const parsed = DeckSpecSchema.safeParse(input);
  if (parsed.success) return { ok: true, spec: parsed.data };
  const errors = flattenIssues(parsed.error.issues, input).slice(0, 30);
  return { ok: false, errors };
}

/** The JSON Schema of what a caller may write (defaults are optional), for LLM tool definitions. */
export function deckJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(DeckSpecSchema, { io: 'input', unrepresentable: 'any' });
}

// The quality report every render returns (also shown in the UI next to the preview).

export const QUALITY_ISSUE_KINDS = [
  'shrunk',
  'split',
  'dropped',
  'overflow_risk',
  'empty',
  'near_empty',
  'too_many_words',
  'missing_image',
  // A slide whose content cannot be drawn (a chart of nothing but zeros): a framed placeholder says why.
  'placeholder',
  'low_contrast',
  // Found by reading the rendered slides back (LibreOffice → PDF → word positions):
  'off_slide',
  'outside_box',
  'in_footer',
  'overlap',
  'title_lines',
  'underfilled',
  'upscaled_image',
  // Found in the plan: a chart series or slice drawn but invisible (its legend entry names nothing seen):
  'hidden_series',
  // Typography and fonts:
  'font_fallback',
  'emoji_font',
  'restructured',
] as const;
export const QualityIssueKind = z.enum(QUALITY_ISSUE_KINDS);
export type QualityIssueKind = z.infer<typeof QualityIssueKind>;
export const QualityIssue = z.object({ kind: QualityIssueKind, message: z.string() });
export type QualityIssue = z.infer<typeof QualityIssue>;
export const SlideQuality = z.object({
  /** 0-based index into spec.slides (as in validation errors: `slides[4]`). */
  index: z.number().int().min(0),
  /** 1-based numbers of the slides in the .pptx made from this spec slide (as PowerPoint numbers them). */
  output_slides: z.array(z.number().int().min(1)),
  issues: z.array(QualityIssue),
});
export type SlideQuality = z.infer<typeof SlideQuality>;
/**
 * Where the report's findings come from: 'rendered' when the slides were converted with LibreOffice
 * and every word's position read back, 'estimated' when they could not be (reason says why) and the
 * report rests on the layout's measurements alone. Absent in reports written before the check
 * existed, which are estimates too.
 */
export const ReportCheck = z.object({ mode: z.enum(['rendered', 'estimated']), reason: z.string().optional() });
export type ReportCheck = z.infer<typeof ReportCheck>;
export const QualityReport = z.object({
  slides: z.array(SlideQuality),
  summary: z.object({ slides_in: z.number().int(), slides_out: z.number().int(), issues: z.number().int() }),
  checked: ReportCheck.optional(),
});
export type QualityReport = z.infer<typeof QualityReport>;

type Issue = z.core.$ZodIssue;
type PathPart = PropertyKey;

export function formatIssuePath(path: readonly PathPart[]): string {
  return path
    .map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? String(p) : `.${String(p)}`))
    .join('');
}

function valueAt(root: unknown, path: readonly PathPart[]): unknown {
  let cur = root;
  for (const part of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[part];
  }
  return cur;
}

/**
 * Turns zod issues into "path: message" lines. Unions are unwrapped to the branch the input most
 * likely meant (the one that did not fail on its type at the root), so a bad sub-bullet says
 * `slides[2].bullets[1].sub[0]: ...` rather than "Invalid input".
 */
function flattenIssues(issues: readonly Issue[], root: unknown, base: readonly PathPart[] = []): string[] {
  const out: string[] = [];
  for (const issue of issues) {
    const path = [...base, ...issue.path];
    if (issue.code === 'invalid_union' && issue.discriminator === 'layout' && issue.errors.length === 0) {
      const value = valueAt(root, path);
      const got = value === undefined ? 'missing' : `unknown layout ${JSON.stringify(value)}`;
      out.push(`${formatIssuePath(path)}: ${got}; the layouts are: ${DECK_LAYOUTS.join(', ')}`);
      continue;
    }
    if (issue.code === 'invalid_union' && issue.errors.length > 0) {
      const plausible = issue.errors.filter((branch) => !branch.some((b) => b.code === 'invalid_type' && b.path.length === 0));
      if (plausible.length === 1 && plausible[0]) {
        out.push(...flattenIssues(plausible[0], root, path));
        continue;
      }
      const where = formatIssuePath(path);
      const isBullet = path.some((p) => p === 'bullets');
      const msg = isBullet ? 'expected a string or {text, sub: string[]}' : issue.message;
      out.push(where ? `${where}: ${msg}` : msg);
      continue;
    }
    let message = issue.message;
    if (issue.code === 'unrecognized_keys') message = `unknown field(s) ${issue.keys.map((k) => JSON.stringify(k)).join(', ')}`;
    if (issue.code === 'invalid_type' && valueAt(root, path) === undefined) message = 'required';
    const where = formatIssuePath(path);
    out.push(where ? `${where}: ${message}` : message);
  }
  return out;
}

// Text classification shared by the renderer (font choice, fitting) and the HTML preview.

const CJK_CHAR =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Bopomofo}\u3000-\u303F\u30FC\uFF00-\uFFEF\uFE30-\uFE4F\u3200-\u33FF]/u;
/** Typographic quotes, dashes and ellipsis belong to whichever script surrounds them. */
const NEUTRAL_CHAR = /[\s\u2010-\u2027\u00B7]/u;

export function isCjkChar(ch: string): boolean {
  return CJK_CHAR.test(ch);
}

export function containsCjk(s: string): boolean {
  for (const ch of s) if (CJK_CHAR.test(ch)) return true;
  return false;
}

export interface ScriptRun {
  text: string;
  cjk: boolean;
}

/**
 * Splits text into runs of one script each, so each run can carry the right font (pptxgenjs
 * writes one face into latin/ea/cs of a run). Neutral characters (spaces, curly quotes, dashes)
 * join the run before them, or the next one at the start of the text.
 */
export function splitRunsByScript(s: string): ScriptRun[] {
  const runs: ScriptRun[] = [];
  let pendingNeutral = '';
  for (const ch of s) {
    if (NEUTRAL_CHAR.test(ch)) {
      const last = runs[runs.length - 1];
      if (last) last.text += ch;
      else pendingNeutral += ch;
      continue;
    }
    const cjk = CJK_CHAR.test(ch);
    const last = runs[runs.length - 1];
    if (last && last.cjk === cjk) last.text += ch;
    else {
      runs.push({ text: pendingNeutral + ch, cjk });
      pendingNeutral = '';
    }
  }
  if (pendingNeutral) runs.push({ text: pendingNeutral, cjk: false });
  return runs;
}

/**
 * Words as a reader feels them: each Latin word counts 1, and two CJK characters count 1 (a
 * Chinese word averages about two characters).
 */
export function countWords(s: string): number {
  let cjk = 0;
  const latinOnly = Array.from(s, (ch) => {
    if (!CJK_CHAR.test(ch)) return ch;
    if (/[\p{L}\p{N}]/u.test(ch)) cjk++;
    return ' ';
  }).join('');
  const latin = latinOnly.match(/[\p{L}\p{N}]+(?:['’._-][\p{L}\p{N}]+)*/gu)?.length ?? 0;
  return latin + Math.ceil(cjk / 2);
}

export function isChineseLanguage(language: string | undefined): boolean {
  return language !== undefined && /^zh\b/i.test(language);
}

/** The deck's language: as given, else zh-CN when the title is Chinese, else en. */
export function deckLanguage(spec: Pick<DeckSpec, 'language' | 'title'>): string {
  if (spec.language) return spec.language;
  return containsCjk(spec.title) ? 'zh-CN' : 'en';
}

export function continuationTitle(title: string, language: string): string {
  return isCjkLanguage(language) ? `${title}（续）` : `${title} (cont.)`;
}

function isCjkLanguage(language: string): boolean {
  return /^(zh|ja|ko)\b/i.test(language);
}
