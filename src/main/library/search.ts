// Ranked search over library pages (issue 14): full text through the FTS5 trigram index (bm25), a
// bounded substring scan for terms of 1–2 characters the trigram index cannot match, and, with an
// embedding profile, cosine similarity over the pages' vectors fused with the text ranking by
// reciprocal rank. A failing embedding endpoint never fails a search: the text ranking answers alone
// and `note` says why.
import type Database from 'better-sqlite3';
import { LIBRARY_PREFIX, PERSONAL_LIBRARY, type LibraryHit, type LibraryId, type LibrarySearchResult } from '../../shared/contract/projects';
import { fromBlob } from './vectors';
import { ftsMatch, likeContains, parseQuery, type QueryTerms } from './query';
import { bm25Scores, cosine, reciprocalRankFusion } from './rank';
import { buildSnippet } from './snippet';

/** Turns text into a vector (an OpenAI-compatible /embeddings endpoint); null: no embedding profile. */
export interface Embedder {
  /** Names the vector space: pages embedded under another model (or dimensions) are not compared. */
  readonly model: string;
  embed(texts: string[], signal?: AbortSignal): Promise<Float32Array[]>;
}

export interface LibrarySearchInput {
  /** The libraries to search: a project's id and/or `personal`. */
  libraries: LibraryId[];
  query: string;
  limit: number;
}

/** How many pages each ranking contributes to the fusion (and the most a text search ranks). */
const CANDIDATES = 50;
/** Pages a substring scan reads at most (short terms only): bounds the cost on a huge library. */
export const SCAN_LIMIT = 20_000;

interface Scope {
  projects: string;
  personal: number;
}

const SCOPE_SQL = `(f.project_id IN (SELECT value FROM json_each(@projects)) OR (@personal AND f.project_id IS NULL))`;

interface Ranked {
  id: number;
  score: number;
}

interface PageRow {
  id: number;
  project_id: string | null;
  path: string;
  page: number;
  text: string;
}

export function taskPathOf(library: LibraryId, path: string): string {
  return `${LIBRARY_PREFIX}/${library === PERSONAL_LIBRARY ? 'personal' : 'project'}/${path}`;
}

/** Whether case folding can matter: SQLite's LIKE and lower() fold ASCII letters only. */
function hasAsciiLetter(term: string): boolean {
  return /[A-Za-z]/u.test(term);
}

/** Substring conditions: instr() where case cannot matter (most CJK terms: faster), else LIKE. */
function likeFilters(terms: readonly string[], joiner: 'AND' | 'OR', params: Record<string, unknown>): string {
  const parts = terms.map((term, i) => {
    if (!hasAsciiLetter(term)) {
      params[`lit${i}`] = term;
      return `instr(p.text, @lit${i}) > 0`;
    }
    params[`like${i}`] = likeContains(term);
    return `p.text LIKE @like${i} ESCAPE '\\'`;
  });
  return parts.length === 0 ? '' : `(${parts.join(` ${joiner} `)})`;
}

/** Pages matching the long terms through the index, filtered by the short ones; bm25 order. */
function ftsRanking(db: Database.Database, scope: Scope, match: string, shortTerms: readonly string[]): Ranked[] {
  const params: Record<string, unknown> = { ...scope, match, want: CANDIDATES };
  const short = likeFilters(shortTerms, 'AND', params);
  const rows = db
    .prepare<Record<string, unknown>, { id: number; rank: number }>(
      `SELECT p.id, bm25(library_fts) AS rank
         FROM library_fts JOIN library_pages p ON p.id = library_fts.rowid JOIN library_files f ON f.id = p.file_id
        WHERE library_fts MATCH @match AND ${SCOPE_SQL} ${short === '' ? '' : `AND ${short}`}
        ORDER BY rank LIMIT @want`,
    )
    .all(params);
  // bm25() is lower-is-better; hits say higher is better.
  return rows.map((r) => ({ id: r.id, score: -r.rank }));
}

/** SQLite's lower() folds ASCII only; the scan's counts must fold the terms the same way. */
function asciiLower(s: string): string {
  return s.replace(/[A-Z]/gu, (c) => c.toLowerCase());
}

/**
 * Pages containing the terms (all or any) by substring scan, ranked by BM25 computed here from
 * occurrence counts SQLite works out (so page texts never cross into JS).
 */
function scanRanking(db: Database.Database, scope: Scope, terms: readonly string[], joiner: 'AND' | 'OR'): Ranked[] {
  const params: Record<string, unknown> = { ...scope, cap: SCAN_LIMIT };
  const counts = terms.map((term, i) => {
    params[`term${i}`] = asciiLower(term);
    const text = hasAsciiLetter(term) ? 'lower(p.text)' : 'p.text';
    return `(length(p.text) - length(replace(${text}, @term${i}, ''))) / length(@term${i}) AS c${i}`;
  });
  const rows = db
    .prepare<Record<string, unknown>, Record<string, number>>(
      `SELECT p.id, length(p.text) AS len, ${counts.join(', ')} FROM library_pages p JOIN library_files f ON f.id = p.file_id
        WHERE ${SCOPE_SQL} AND ${likeFilters(terms, joiner, params)} LIMIT @cap`,
    )
    .all(params);
  const scores = bm25Scores(rows.map((r) => ({ length: r.len ?? 0, counts: terms.map((_, i) => r[`c${i}`] ?? 0) })));
  return rows
    .map((r, i) => ({ id: r.id ?? 0, score: scores[i] ?? 0 }))
    .sort((a, b) => b.score - a.score)
    .slice(0, CANDIDATES);
}

/** Every term required first; when nothing has them all, pages with any of them. */
export function textRanking(db: Database.Database, scope: Scope, terms: QueryTerms): Ranked[] {
  if (terms.all.length === 0) return [];
  const all = terms.long.length > 0 ? ftsRanking(db, scope, ftsMatch(terms.long, 'all'), terms.short) : scanRanking(db, scope, terms.short, 'AND');
  if (all.length > 0 || terms.all.length === 1) return all;
  // Short terms cannot join an FTS OR; when long terms exist they alone decide "any".
  return terms.long.length > 0 ? ftsRanking(db, scope, ftsMatch(terms.long, 'any'), []) : scanRanking(db, scope, terms.short, 'OR');
}

/** Pages with a vector of `model` in scope, by cosine similarity to the query's vector. */
export function semanticRanking(db: Database.Database, scope: Scope, model: string, query: Float32Array): { ranked: Ranked[]; embedded: number } {
  // raw(): arrays instead of objects; reading the blobs is most of the cost (see bench/library).
  const rows = db
    .prepare<Record<string, unknown>, [number, Buffer]>(
      `SELECT p.id, p.embedding FROM library_pages p JOIN library_files f ON f.id = p.file_id
        WHERE ${SCOPE_SQL} AND p.embedding_model = @model AND p.embedding IS NOT NULL`,
    )
    .raw()
    .all({ ...scope, model });
  const ranked = rows
    .map(([id, blob]) => ({ id, score: cosine(query, fromBlob(blob)) }))
    .sort((a, b) => b.score - a.score)
    .slice(0, CANDIDATES);
  return { ranked, embedded: rows.length };
}

function loadPages(db: Database.Database, ids: readonly number[]): Map<number, PageRow> {
  const rows = db
    .prepare<[string], PageRow>(
      `SELECT p.id, f.project_id, f.path, p.page, p.text FROM library_pages p JOIN library_files f ON f.id = p.file_id
        WHERE p.id IN (SELECT value FROM json_each(?))`,
    )
    .all(JSON.stringify(ids));
  return new Map(rows.map((r) => [r.id, r]));
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export async function searchLibrary(
  db: Database.Database,
  input: LibrarySearchInput,
  embedder: Embedder | null,
  signal?: AbortSignal,
): Promise<LibrarySearchResult> {
  const scope: Scope = {
    projects: JSON.stringify(input.libraries.filter((l) => l !== PERSONAL_LIBRARY)),
    personal: input.libraries.includes(PERSONAL_LIBRARY) ? 1 : 0,
  };
  const terms = parseQuery(input.query);

  let semantic: Ranked[] | null = null;
  let note: string | null = null;
  if (embedder !== null) {
    try {
      const [vector] = await embedder.embed([input.query], signal);
      if (vector === undefined) throw new Error('the endpoint returned no vector');
      const found = semanticRanking(db, scope, embedder.model, vector);
      if (found.embedded > 0) semantic = found.ranked;
      else note = `No page has an embedding for ${embedder.model} yet; full-text results only.`;
    } catch (err) {
      if (signal?.aborted) throw err;
      note = `Semantic search failed (${errorText(err)}); full-text results only.`;
    }
  }

  const text = textRanking(db, scope, terms);
  let ranked: { id: number; score: number; matched_by: LibraryHit['matched_by'] }[];
  if (semantic === null) {
    ranked = text.slice(0, input.limit).map((r) => ({ ...r, matched_by: 'text' }));
  } else {
    ranked = reciprocalRankFusion([text.map((r) => r.id), semantic.map((r) => r.id)])
      .slice(0, input.limit)
      .map((f) => ({ id: f.key, score: f.score, matched_by: f.in.length === 2 ? 'both' : f.in[0] === 0 ? 'text' : 'semantic' }));
  }

  const pages = loadPages(db, ranked.map((r) => r.id));
  const hits: LibraryHit[] = [];
  for (const r of ranked) {
    const page = pages.get(r.id);
    if (page === undefined) continue;
    const library = page.project_id ?? PERSONAL_LIBRARY;
    const { snippet, highlights } = buildSnippet(page.text, terms.all);
    hits.push({ library, path: page.path, task_path: taskPathOf(library, page.path), page: page.page, snippet, highlights, score: r.score, matched_by: r.matched_by });
  }
  return { hits, mode: semantic === null ? 'text' : 'hybrid', note };
}
