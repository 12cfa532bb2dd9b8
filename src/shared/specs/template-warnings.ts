// What could not be taken from an imported template as it was, as data: each warning by its kind with
// the names and colours it needs, so each screen says it in its person's language
// (src/shared/template-warning-text.ts); the importer builds no sentence.
import { z } from 'zod';

const Name = z.string().max(200);
/** A colour as hex without '#'. */
const Hex = z.string().max(8);
export const FontRole = z.enum(['heading', 'body']);
export type FontRole = z.infer<typeof FontRole>;
/** Which title a colour is for: the title slide's, a section slide's, a content slide's. */
export const TitleRole = z.enum(['hero', 'section', 'content']);
export type TitleRole = z.infer<typeof TitleRole>;

export const TemplateWarning = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('no_title_layout') }),
  z.object({ kind: z.literal('no_section_layout'), layout: Name }),
  z.object({ kind: z.literal('no_two_content_layout'), layout: Name }),
  z.object({ kind: z.literal('content_layout_no_title'), layout: Name }),
  /** Inches, as shown (two decimals). */
  z.object({ kind: z.literal('odd_slide_size'), width: z.string(), height: z.string(), aspect: z.enum(['16:9', '4:3']) }),
  z.object({ kind: z.literal('several_masters'), count: z.number().int(), master: Name }),
  z.object({ kind: z.literal('theme_colours_missing'), slots: z.array(z.string()) }),
  z.object({ kind: z.literal('unfilled_placeholders'), types: z.array(z.string()) }),
  z.object({ kind: z.literal('picture_background') }),
  z.object({ kind: z.literal('gradient_background') }),
  z.object({ kind: z.literal('no_east_asian_font') }),
  z.object({ kind: z.literal('latin_font_unusable'), role: FontRole, face: Name, fallback: Name }),
  z.object({ kind: z.literal('cjk_font_unknown'), role: FontRole, face: Name, fallback: Name }),
  z.object({ kind: z.literal('body_region_small'), layout: Name }),
  z.object({ kind: z.literal('title_colour_hard'), title: TitleRole, colour: Hex, behind: Hex, chosen: Hex }),
  z.object({ kind: z.literal('subtitle_colour_hard'), colour: Hex, behind: Hex }),
  z.object({ kind: z.literal('table_header_colour_hard'), style: Name, colour: Hex, behind: Hex, chosen: Hex }),
  z.object({ kind: z.literal('table_text_colour_hard'), style: Name, colour: Hex, behind: Hex, chosen: Hex }),
  z.object({ kind: z.literal('body_colour_hard'), colour: Hex, behind: Hex, chosen: Hex }),
  z.object({ kind: z.literal('accent_colour_hard'), colour: Hex, chosen: Hex }),
  /** A warning of a template imported before warnings were typed: its English sentence as stored. */
  z.object({ kind: z.literal('legacy'), text: z.string() }),
]);
export type TemplateWarning = z.infer<typeof TemplateWarning>;

/** A stored record's warning: typed, or the English sentence a record written before kept. */
export const StoredTemplateWarning = z.preprocess((value) => (typeof value === 'string' ? { kind: 'legacy', text: value } : value), TemplateWarning);
