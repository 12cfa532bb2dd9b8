// The deck outline: the storyline a person agrees before any slide is rendered. One row per slide:
// its takeaway title, the layout it will use, a few key points and the source pages it rests on.
// The agent proposes it (propose_outline), the person edits and approves it in the app, and the
// spec then follows it row by row; a row's `id` is the id the slide carries in the spec.
// Shared by main (the tool, the service, the prompt) and the renderer (the editor), so pure zod.
import { z } from 'zod';
import { DECK_LAYOUTS, RelativeAssetPath } from './deck';
import { assignSlideIds, SlideId } from './slide-ids';

/** The spec's own slide id, so a row's id is copied onto its slide unchanged. */
export const OutlineSlideId = SlideId;

/** Pages as the read tool takes them: "3", "3-7", "1, 4, 9-10". */
export const OutlinePages = z
  .string()
  .trim()
  .max(100)
  .regex(/^\d+(\s*-\s*\d+)?(\s*,\s*\d+(\s*-\s*\d+)?)*$/, 'pages are numbers and ranges like "3", "3-7" or "1, 4, 9-10"');

export const OutlineSource = z.strictObject({
  /** A file in the task folder, usually under source/. */
  file: RelativeAssetPath,
  pages: OutlinePages.optional(),
});
export type OutlineSource = z.infer<typeof OutlineSource>;

/** Enough for a storyline of a long lecture; a deck beyond this is several decks. */
export const MAX_OUTLINE_ROWS = 150;
/** Key points per row: "two or three", with room for a list-shaped slide; none for a title or section. */
export const MAX_OUTLINE_POINTS = 6;

const rowFields = {
  /** The takeaway, as the slide's title will state it. */
  title: z.string().trim().min(1, 'must not be empty').max(300),
  layout: z.enum(DECK_LAYOUTS),
  points: z
    .array(z.string().trim().min(1, 'must not be empty').max(300))
    .max(MAX_OUTLINE_POINTS, `at most ${MAX_OUTLINE_POINTS} key points; the detail belongs in the spec`)
    .default([]),
  sources: z.array(OutlineSource).max(10).default([]),
};

export const OutlineRow = z.strictObject({ id: OutlineSlideId, ...rowFields });
export type OutlineRow = z.infer<typeof OutlineRow>;

/** A row as the agent or the editor sends it: a new row has no id yet (main assigns one). */
export const OutlineRowInput = z.strictObject({ id: OutlineSlideId.optional(), ...rowFields });
export type OutlineRowInput = z.input<typeof OutlineRowInput>;

function uniqueIds(rows: readonly { id?: string | undefined }[], ctx: z.RefinementCtx): void {
  const seen = new Map<string, number>();
  rows.forEach((row, i) => {
    if (row.id === undefined) return;
    const first = seen.get(row.id);
    if (first !== undefined) ctx.addIssue({ code: 'custom', path: [i, 'id'], message: `duplicate id "${row.id}" (also slides[${first}])` });
    else seen.set(row.id, i);
  });
}

export const OutlineRowsInput = z
  .array(OutlineRowInput)
  .min(1, 'an outline needs at least one slide')
  .max(MAX_OUTLINE_ROWS, `at most ${MAX_OUTLINE_ROWS} slides in one outline`)
  .superRefine(uniqueIds);

export const OUTLINE_STATUSES = ['proposed', 'approved'] as const;
export type OutlineStatus = (typeof OUTLINE_STATUSES)[number];

export const DeckOutline = z.strictObject({
  status: z.enum(OUTLINE_STATUSES),
  /** When the person approved this version (ms epoch); null while proposed. */
  approved_at: z.number().int().nullable(),
  /** When it was last written, by the agent or the person (ms epoch). */
  updated_at: z.number().int(),
  slides: z.array(OutlineRow).min(1).max(MAX_OUTLINE_ROWS).superRefine(uniqueIds),
});
export type DeckOutline = z.infer<typeof DeckOutline>;

/**
 * Gives every row without an id a fresh one, as the spec does (slide-ids.ts): rows keep the ids they
 * had (a slide keeps its id through reorders and edits) and new rows get new ones.
 */
export function assignOutlineIds(rows: readonly z.output<typeof OutlineRowInput>[]): OutlineRow[] {
  const { ids } = assignSlideIds(rows.map((row) => row.id));
  return rows.map((row, i) => ({ ...row, id: ids[i] ?? `s${i + 1}` }));
}
