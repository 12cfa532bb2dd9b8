// Projects and libraries: a project groups tasks with standing instructions, defaults and
// a library of sources that every task of the project reads under `library/`. The personal library
// is shared by every task; its id in routes is `personal`.
import { z } from 'zod';
import { ApprovalMode, Id, TaskMode } from './entities';
import { PERSONAL_LIBRARY } from './library-id';

export { PERSONAL_LIBRARY };

export const ProjectName = z.string().trim().min(1).max(200);
/** Standing instructions, added to the system prompt of each of the project's tasks. */
export const ProjectInstructions = z.string().max(20_000);

export const Project = z.object({
  id: Id,
  name: z.string(),
  instructions: z.string(),
  /** The model profile new tasks of the project start with; null: the usual choice. */
  default_model: z.string().nullable(),
  /** The mode new tasks of the project start in when the request names none; null: the request's. */
  default_mode: TaskMode.nullable(),
  /** The approval mode new tasks of the project start with; null: the app's default ('ask'). */
  default_approval_mode: ApprovalMode.nullable(),
  archived: z.boolean(),
  /** Counts at read time (not stored). */
  task_count: z.number().int(),
  file_count: z.number().int(),
  created_at: z.number().int(),
  updated_at: z.number().int(),
});
export type Project = z.infer<typeof Project>;

/** A library: a project's id, or `personal`. */
export const LibraryId = z.union([z.literal(PERSONAL_LIBRARY), Id]);
export type LibraryId = z.infer<typeof LibraryId>;

/** Where a task sees a library (read-only): `library/project/<path>` and `library/personal/<path>`. */
export const LIBRARY_PREFIX = 'library';
export const LIBRARY_SCOPES = { project: 'project', personal: 'personal' } as const;

/**
 * pending: waiting to be (re)indexed; indexing: being extracted now; ok: text indexed; scanned: pages
 * without a text layer (nothing to search until OCR); image / error as for task sources.
 */
export const LibraryFileStatus = z.enum(['pending', 'indexing', 'ok', 'scanned', 'image', 'error']);
export type LibraryFileStatus = z.infer<typeof LibraryFileStatus>;

export const LibraryFile = z.object({
  library: LibraryId,
  /** Relative to the library's folder, e.g. `papers/rag-survey.pdf`. */
  path: z.string(),
  /** How a task reads it: `library/project/<path>` or `library/personal/<path>`. */
  task_path: z.string(),
  size: z.number().int(),
  sha256: z.string(),
  status: LibraryFileStatus,
  /** Pages (or page-sized parts) in the index; null until indexed. */
  pages: z.number().int().nullable(),
  /** Why the file is in error / has no text; null otherwise. */
  message: z.string().nullable(),
  created_at: z.number().int(),
  updated_at: z.number().int(),
});
export type LibraryFile = z.infer<typeof LibraryFile>;

/** Measured from the index, not estimated: files per status and pages indexed so far. */
export const IndexProgress = z.object({
  total_files: z.number().int(),
  /** Files still pending or indexing. */
  queued_files: z.number().int(),
  indexed_pages: z.number().int(),
  /** Pages with an embedding vector (0 without an embedding profile). */
  embedded_pages: z.number().int(),
});
export type IndexProgress = z.infer<typeof IndexProgress>;

export const SearchQuery = z.string().trim().min(1).max(500);

export const LibraryHit = z.object({
  library: LibraryId,
  path: z.string(),
  task_path: z.string(),
  /** 1-based page number (for PDFs, the PDF page; for other files, the extraction's page-sized part). */
  page: z.number().int().min(1),
  /** A window of the page's text around the match. */
  snippet: z.string(),
  /** Matched ranges in `snippet`, as [start, end) UTF-16 offsets, for highlighting. */
  highlights: z.array(z.tuple([z.number().int(), z.number().int()])),
  /** Higher is better; comparable within one answer only. */
  score: z.number(),
  /** Which ranking found it: full text, the embedding, or both (fused by reciprocal rank). */
  matched_by: z.enum(['text', 'semantic', 'both']),
});
export type LibraryHit = z.infer<typeof LibraryHit>;

export const LibrarySearchResult = z.object({
  hits: z.array(LibraryHit),
  /** 'text' without an embedding profile (or when it failed: see `note`), 'hybrid' with one. */
  mode: z.enum(['text', 'hybrid']),
  /** Why semantic search was not used when it is configured (e.g. the endpoint failed); null otherwise. */
  note: z.string().nullable(),
});
export type LibrarySearchResult = z.infer<typeof LibrarySearchResult>;
