// A person's own PowerPoint template (.pptx/.potx) imported as a Folio theme: what was read from it
// (masters, layouts, placeholders, colours, fonts, logo) and the theme decks are planned with. The
// main process stores it as `<data>/templates/<id>/template.json` beside the original file; the UI
// lists and previews it from the same record.
import { z } from 'zod';
import { StoredTemplateWarning } from './template-warnings';
import { ThemeSchema } from './themes';

/** Template ids are theme names: a deck spec uses one as `"theme": "<id>"`. */
export const TemplateId = z.string().regex(/^[a-z0-9][a-z0-9_-]{0,40}$/, 'template ids are lower-case letters, digits, "-" and "_"');

/** Placeholder kinds as PowerPoint names them (`<p:ph type>`); a placeholder without a type is `body`. */
export const PlaceholderInfo = z.object({
  type: z.string().max(40),
  /** Fractions of the slide (x, w of its width; y, h of its height). */
  x: z.number(),
  y: z.number(),
  w: z.number(),
  h: z.number(),
});
export type PlaceholderInfo = z.infer<typeof PlaceholderInfo>;

export const TemplateLayout = z.object({
  /** The layout's name in PowerPoint ("Title and Content"). */
  name: z.string().max(200),
  /** `<p:sldLayout type>` ("title", "obj", "secHead", "twoObj", ...); "cust" when it has none. */
  type: z.string().max(40),
  /** The part inside the template file (ppt/slideLayouts/slideLayout2.xml). */
  part: z.string().max(300),
  placeholders: z.array(PlaceholderInfo),
  /** Pictures drawn by the layout itself (a logo, a band). */
  pictures: z.number().int().min(0),
});
export type TemplateLayout = z.infer<typeof TemplateLayout>;

/**
 * One thing a template layout paints behind the text (its background, a band, a photo), fractions of
 * the slide: a colour (hex without '#') or a picture as a data: URL.
 */
export const BackdropLayer = z.object({
  x: z.number(),
  y: z.number(),
  w: z.number(),
  h: z.number(),
  color: z.string().regex(/^[0-9A-Fa-f]{6}$/).optional(),
  image: z.string().startsWith('data:image/').optional(),
});
export type BackdropLayer = z.infer<typeof BackdropLayer>;

/** Which template layout each kind of Folio slide is drawn on (parts of the template file). */
export const TemplateLayoutMap = z.object({
  title: z.string(),
  section: z.string(),
  content: z.string(),
  two_content: z.string(),
  blank: z.string(),
});
export type TemplateLayoutMap = z.infer<typeof TemplateLayoutMap>;

export const TemplateRecord = z.object({
  id: TemplateId,
  /** What the person sees: the file's title, else its name. */
  name: z.string().max(200),
  /** The imported file's name as it was given. */
  file_name: z.string().max(300),
  /** ms epoch. */
  created_at: z.number().int(),
  aspect: z.enum(['16:9', '4:3']),
  /** The template's slide size in EMU (its master is scaled from it to the deck's). */
  slide_size: z.object({ cx: z.number().int().positive(), cy: z.number().int().positive() }),
  /** The theme's colour slots as read (dk1, lt1, accent1, ...), hex without '#'. */
  colours: z.record(z.string(), z.string()),
  fonts: z.object({ major_latin: z.string(), minor_latin: z.string(), major_ea: z.string(), minor_ea: z.string() }),
  background: z.object({ kind: z.enum(['solid', 'gradient', 'picture', 'pattern', 'none']), colour: z.string().nullable() }),
  /** The master's first picture (a logo), as a part of the template file; null when it has none. */
  logo: z.object({ part: z.string(), x: z.number(), y: z.number(), w: z.number(), h: z.number() }).nullable(),
  /** The master decks are drawn on (the template's first when it has several). */
  master: z.string(),
  layouts: z.array(TemplateLayout),
  mapping: TemplateLayoutMap,
  /** The Folio theme decks are planned with (its name is the id). */
  theme: ThemeSchema,
  /** What could not be mapped, for the person. */
  warnings: z.array(StoredTemplateWarning),
  /**
   * Text the master and the mapped layouts draw themselves, outside placeholders ("Confidential", a
   * department's name), with its box in fractions of the slide: it is on every slide, so the
   * rendered-slide check does not count those words, at that place, as the deck's.
   */
  fixed_text: z
    .array(z.object({ text: z.string().max(500), x: z.number(), y: z.number(), w: z.number(), h: z.number() }))
    .max(100)
    .default([]),
});
export type TemplateRecord = z.infer<typeof TemplateRecord>;

/** A folder under `<data>/templates` whose record could not be read: named so the person can remove it; `detail` is the reader's English. */
export const UnreadableTemplate = z.object({ folder: z.string(), detail: z.string() });
export type UnreadableTemplate = z.infer<typeof UnreadableTemplate>;

/** What the contract returns for a template: the record without the theme's internals. */
export const TemplateSummary = TemplateRecord.omit({ theme: true }).extend({
  /** The palette and fonts the deck will use, for swatches in the UI. */
  palette: z.object({ background: z.string(), text: z.string(), accent: z.string(), accent2: z.string(), chart: z.array(z.string()) }),
  heading_font: z.string(),
  body_font: z.string(),
});
export type TemplateSummary = z.infer<typeof TemplateSummary>;

export function summarizeTemplate(record: TemplateRecord): TemplateSummary {
  const { theme, ...rest } = record;
  const p = theme.palette;
  return {
    ...rest,
    palette: { background: p.background, text: p.text, accent: p.accent, accent2: p.accent2, chart: p.chart },
    heading_font: theme.fonts.latinHeading,
    body_font: theme.fonts.latinBody,
  };
}
