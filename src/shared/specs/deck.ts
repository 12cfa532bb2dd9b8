// The deck spec: what an agent (or a person) writes to get a .pptx. Shared by the main-process
// renderer and the renderer's HTML preview, so it is pure TypeScript + zod.
// Objects are strict: a misspelt key is an error naming the key, not a silently ignored field.
import { z } from 'zod';
import { BulletItem, ChartSpec, ColumnContent, RelativeAssetPath, TableSpec, requiredText, text } from './deck-fields';
import { containsCjk } from './deck-text';
import { duplicateSlideIds, SlideId } from './slide-ids';
import { type SpecIssue, specProblem } from './spec-issues';

// The spec's parts live beside it; importers keep one entry point.
export * from './deck-fields';
export * from './deck-quality';
export * from './deck-text';

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

/** A spec that fails: `errors` in English for the model, `issues` the same as data for a person's screen. */
export type DeckValidation = { ok: true; spec: DeckSpec } | { ok: false; errors: string[]; issues: SpecIssue[] };

export function validateDeckSpec(input: unknown): DeckValidation {
  const parsed = DeckSpecSchema.safeParse(input);
  if (parsed.success) return { ok: true, spec: parsed.data };
  const found = flattenIssues(parsed.error.issues, input).slice(0, 30);
  return { ok: false, errors: found.map((f) => f.line), issues: found.map((f) => f.issue) };
}

/** The JSON Schema of what a caller may write (defaults are optional), for LLM tool definitions. */
export function deckJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(DeckSpecSchema, { io: 'input', unrepresentable: 'any' });
}

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
function flattenIssues(issues: readonly Issue[], root: unknown, base: readonly PathPart[] = []): { line: string; issue: SpecIssue }[] {
  const out: { line: string; issue: SpecIssue }[] = [];
  const add = (where: string, message: string, issue: Omit<SpecIssue, 'path'>) => out.push({ line: where ? `${where}: ${message}` : message, issue: { path: where, ...issue } });
  for (const issue of issues) {
    const path = [...base, ...issue.path];
    const where = formatIssuePath(path);
    if (issue.code === 'invalid_union' && issue.discriminator === 'layout' && issue.errors.length === 0) {
      const value = valueAt(root, path);
      const got = value === undefined ? 'missing' : `unknown layout ${JSON.stringify(value)}`;
      out.push({ line: `${where}: ${got}; the layouts are: ${DECK_LAYOUTS.join(', ')}`, issue: value === undefined ? { path: where, problem: 'missing' } : { path: where, problem: 'unknown_layout', value: JSON.stringify(value) } });
      continue;
    }
    if (issue.code === 'invalid_union' && issue.errors.length > 0) {
      const plausible = issue.errors.filter((branch) => !branch.some((b) => b.code === 'invalid_type' && b.path.length === 0));
      if (plausible.length === 1 && plausible[0]) {
        out.push(...flattenIssues(plausible[0], root, path));
        continue;
      }
      const isBullet = path.some((p) => p === 'bullets');
      add(where, isBullet ? 'expected a string or {text, sub: string[]}' : issue.message, { problem: isBullet ? 'wrong_type' : 'invalid' });
      continue;
    }
    const missing = issue.code === 'invalid_type' && valueAt(root, path) === undefined;
    let message = issue.message;
    if (issue.code === 'unrecognized_keys') message = `unknown field(s) ${issue.keys.map((k) => JSON.stringify(k)).join(', ')}`;
    if (missing) message = 'required';
    add(where, message, { problem: specProblem(issue, missing), ...(issue.code === 'unrecognized_keys' ? { value: issue.keys.join(', ') } : {}) });
  }
  return out;
}

/** The deck's language: as given, else zh-CN when the title is Chinese, else en. */
export function deckLanguage(spec: Pick<DeckSpec, 'language' | 'title'>): string {
  if (spec.language) return spec.language;
  return containsCjk(spec.title) ? 'zh-CN' : 'en';
}
