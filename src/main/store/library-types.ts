// The library's rows and the repository's interface, shared by the SQLite repository
// (library-repo.ts), its search half (library-search.ts) and the PostgreSQL port.
import type { IndexProgress, LibraryFileStatus } from '../../shared/contract/projects';

export interface LibraryFileRow {
  id: string;
  /** null: the personal library. */
  project_id: string | null;
  path: string;
  size: number;
  mtime_ms: number;
  sha256: string;
  status: LibraryFileStatus;
  pages: number | null;
  message: string | null;
  /** The sha256 the stored pages were extracted from; null until indexed. */
  indexed_sha256: string | null;
  created_at: number;
  updated_at: number;
}

export interface NewLibraryFile {
  id: string;
  project_id: string | null;
  path: string;
  size: number;
  mtime_ms: number;
  sha256: string;
}

export interface IndexedResult {
  status: Exclude<LibraryFileStatus, 'pending' | 'indexing'>;
  pages: number | null;
  message: string | null;
  /** The bytes the pages come from. */
  sha256: string;
}

export interface PageText {
  page: number;
  text: string;
}

/** The libraries a search covers: these projects' and, with `personal`, the personal one. */
export interface SearchScope {
  projects: readonly string[];
  personal: boolean;
}

/** A page found by a search; higher scores are better. */
export interface RankedPage {
  id: number;
  score: number;
}

/** A page as a hit shows it: its text and which library file it is from. */
export interface FoundPage {
  id: number;
  /** null: the personal library. */
  project_id: string | null;
  path: string;
  page: number;
  text: string;
}

export interface PageVector {
  id: number;
  /** Little-endian Float32 (library/vectors.ts). */
  embedding: Uint8Array;
}

export interface PageToEmbed {
  id: number;
  text: string;
}

export interface LibraryRepo {
  /** Throws `conflict` when the library already has a file at that path. */
  add(file: NewLibraryFile): LibraryFileRow;
  get(projectId: string | null, path: string): LibraryFileRow | undefined;
  byId(id: string): LibraryFileRow | undefined;
  /** Sorted by path. */
  list(projectId: string | null): LibraryFileRow[];
  /** Every file of every library (the start-up rescan). */
  all(): LibraryFileRow[];
  /** The library's files with these bytes (adding identical bytes again is a no-op). */
  findBySha(projectId: string | null, sha256: string): LibraryFileRow | undefined;
  /** Files waiting for the indexer (pending, or indexing when a run was cut off), oldest first. */
  queued(): LibraryFileRow[];
  /** New bytes on disk: recorded and queued again (the old pages stay searchable until replaced). */
  changed(id: string, stat: { size: number; mtime_ms: number; sha256: string }): void;
  /** Same bytes, a new mtime (a copy, a touch): remembered so the next rescan does not hash again. */
  touched(id: string, mtimeMs: number): void;
  setStatus(id: string, status: 'pending' | 'indexing'): void;
  /**
   * The file's pages replaced by `pages` and its status set, in one transaction. False (nothing
   * written) when the file was deleted meanwhile or changed since `result.sha256` was read.
   */
  replacePages(id: string, pages: readonly PageText[], result: IndexedResult): boolean;
  pages(id: string): PageText[];
  delete(projectId: string | null, path: string): boolean;
  /** Measured from the tables: files per state, pages indexed and embedded. */
  progress(projectId: string | null): IndexProgress;
  /** How many files the library holds (a task is offered search_library only when it sees one). */
  fileCount(projectId: string | null): number;

  // Search: each dialect has its own index (library-search.ts, postgres/library-search.ts)
  /**
   * Pages in scope containing every term (`all`) or any of them (`any`), as case-insensitive
   * substrings (a term is text, never query syntax), best first, at most `limit`. The score orders
   * pages with more and denser occurrences first (BM25). `any` is asked with terms of one kind: all
   * of TRIGRAM_MIN+ characters, or all shorter.
   */
  matchPages(scope: SearchScope, terms: readonly string[], op: 'all' | 'any', limit: number): RankedPage[];
  /** Pages in scope with a vector of `model` (an embedding space, library/embeddings.ts). */
  pagesWithVectors(scope: SearchScope, model: string): PageVector[];
  /** The pages with these ids (ids not found, or not this tenant's, are left out). */
  foundPages(ids: readonly number[]): FoundPage[];
  /** Up to `n` pages of any library with text but no vector of `model`, ids after `after`, by id. */
  pagesToEmbed(model: string, after: number, n: number): PageToEmbed[];
  /** The vectors stored, in one transaction, for pages whose text is still the one embedded; how many were. */
  storeVectors(model: string, vectors: readonly (PageToEmbed & { embedding: Uint8Array })[]): number;
}
