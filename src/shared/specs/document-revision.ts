// What the preview shows of a revised Word document: its body as paragraphs of text in which every tracked
// insertion and deletion is marked with its author, and the comments anchored in each paragraph. Read from
// the .docx itself, so another reviewer's changes show as well as Folio's.
import { z } from 'zod';

export const RevisionSegment = z.object({
  text: z.string(),
  /** null: unchanged text. */
  change: z.enum(['ins', 'del']).nullable(),
  author: z.string().nullable(),
});
export type RevisionSegment = z.infer<typeof RevisionSegment>;

export const RevisionComment = z.object({ id: z.string(), author: z.string(), text: z.string() });
export type RevisionComment = z.infer<typeof RevisionComment>;

export const RevisionParagraph = z.object({
  /** A heading (Word's Heading/Title styles or an outline level): drawn bold. */
  heading: z.boolean(),
  /** The number Word prints before the paragraph (一、 （一） 1. ①, a bullet) with the space after it, if it is numbered. */
  number: z.string().optional(),
  segments: z.array(RevisionSegment),
  /** Comments whose range starts in this paragraph. */
  comments: z.array(RevisionComment),
  /**
   * A table row instead of a paragraph: each cell's text (its paragraphs joined by line breaks), so the
   * preview draws the table as a table. `segments` is then empty.
   */
  cells: z.array(z.array(RevisionSegment)).optional(),
});
export type RevisionParagraph = z.infer<typeof RevisionParagraph>;

export const RevisedDocument = z.object({
  /** The document the revision was made from (task-relative), when Folio made it. */
  source: z.string().nullable(),
  paragraphs: z.array(RevisionParagraph),
  /** The body has more paragraphs than the preview carries. */
  truncated: z.boolean(),
  /** Tracked changes in the body, counted per author. */
  changes: z.array(z.object({ author: z.string(), insertions: z.number().int(), deletions: z.number().int() })),
});
export type RevisedDocument = z.infer<typeof RevisedDocument>;
