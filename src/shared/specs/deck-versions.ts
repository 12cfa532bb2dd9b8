// The versions of one deck: `name.pptx`, `name-v2.pptx`, ... (render_deck never overwrites). Each
// render records in its preview sidecar where it came from and a hash per slide of what was drawn,
// so versions can be compared slide by slide without opening the .pptx files.
import { z } from 'zod';

/** What a render records about itself (in the artifact's preview sidecar). */
export const DeckVersionSource = z.object({
  /** The spec file it was rendered from (task-relative); null for a spec given inline. */
  spec_path: z.string().nullable(),
  /** One per spec slide, in order: its id and a hash of the slides drawn for it (its plan). */
  slides: z.array(z.object({ id: z.string(), hash: z.string() })),
  /** Set when a person went back to an earlier version: that version's path. */
  restored_from: z.string().nullable().default(null),
});
export type DeckVersionSource = z.infer<typeof DeckVersionSource>;

export const SLIDE_CHANGES = ['added', 'changed', 'unchanged'] as const;
export const SlideChange = z.enum(SLIDE_CHANGES);
export type SlideChange = z.infer<typeof SlideChange>;

export const DeckVersionSlide = z.object({
  id: z.string(),
  /** 1-based number of its first slide in this version's file. */
  number: z.number().int().min(1),
  /** Compared with the previous version (the first version's slides are all 'added'). */
  change: SlideChange,
});
export type DeckVersionSlide = z.infer<typeof DeckVersionSlide>;

export const DeckVersion = z.object({
  path: z.string(),
  /** 1 for name.pptx, N for name-vN.pptx. */
  version: z.number().int().min(1),
  /** When the file was written (ms since the epoch). */
  created_at: z.number(),
  spec_path: z.string().nullable(),
  restored_from: z.string().nullable(),
  /** False for a file without version data (rendered before versions were recorded, or not by Folio): no comparison. */
  comparable: z.boolean(),
  slides: z.array(DeckVersionSlide),
  /** Ids of the previous version's slides this one no longer has. */
  removed: z.array(z.string()),
});
export type DeckVersion = z.infer<typeof DeckVersion>;

export const DeckVersionList = z.object({
  /** Oldest first. */
  versions: z.array(DeckVersion),
});
export type DeckVersionList = z.infer<typeof DeckVersionList>;
