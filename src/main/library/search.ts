// Ranked search over library pages: the store's text ranking (store/library-search.ts on
// SQLite: FTS5 trigram + bm25; store/postgres/library-search.ts: pg_trgm-backed ILIKE + BM25 over
// counts; both scan for terms of 1–2 characters the trigram index cannot match), and, with an
// embedding profile, cosine similarity over the pages' vectors fused with the text ranking by
// reciprocal rank. Snippets are built here, once for both stores. A failing embedding endpoint
// never fails a search: the text ranking answers alone and `note` says why.
import { LIBRARY_PREFIX, PERSONAL_LIBRARY, type LibraryHit, type LibraryId, type LibrarySearchResult } from '../../shared/contract/projects';
import type { RankedPage, SearchScope } from '../store/library-repo';
import type { StorePort } from '../store/port';
import { fromBlob } from './vectors';
import { parseQuery, type QueryTerms } from './query';
import { cosine, reciprocalRankFusion } from './rank';
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

export function taskPathOf(library: LibraryId, path: string): string {
  return `${LIBRARY_PREFIX}/${library === PERSONAL_LIBRARY ? 'personal' : 'project'}/${path}`;
}

/** Every term required first; when nothing has them all, pages with any of them. */
export async function textRanking(store: StorePort, scope: SearchScope, terms: QueryTerms): Promise<RankedPage[]> {
  if (terms.all.length === 0) return [];
  const all = await store.library.matchPages(scope, terms.all, 'all', CANDIDATES);
  if (all.length > 0 || terms.all.length === 1) return all;
  // Short terms cannot join the index's OR (FTS5): when long terms exist they alone decide "any".
  return store.library.matchPages(scope, terms.long.length > 0 ? terms.long : terms.short, 'any', CANDIDATES);
}

/** Pages with a vector of `model` in scope, by cosine similarity to the query's vector. */
export async function semanticRanking(store: StorePort, scope: SearchScope, model: string, query: Float32Array): Promise<{ ranked: RankedPage[]; embedded: number }> {
  const rows = await store.library.pagesWithVectors(scope, model);
  const ranked = rows
    .map((r) => ({ id: r.id, score: cosine(query, fromBlob(r.embedding)) }))
    .sort((a, b) => b.score - a.score)
    .slice(0, CANDIDATES);
  return { ranked, embedded: rows.length };
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export async function searchLibrary(store: StorePort, input: LibrarySearchInput, embedder: Embedder | null, signal?: AbortSignal): Promise<LibrarySearchResult> {
  const scope: SearchScope = {
    projects: input.libraries.filter((l) => l !== PERSONAL_LIBRARY),
    personal: input.libraries.includes(PERSONAL_LIBRARY),
  };
  const terms = parseQuery(input.query);

  let semantic: RankedPage[] | null = null;
  let note: string | null = null;
  if (embedder !== null) {
    try {
      const [vector] = await embedder.embed([input.query], signal);
      if (vector === undefined) throw new Error('the endpoint returned no vector');
      const found = await semanticRanking(store, scope, embedder.model, vector);
      if (found.embedded > 0) semantic = found.ranked;
      else note = `No page has an embedding for ${embedder.model} yet; full-text results only.`;
    } catch (err) {
      if (signal?.aborted) throw err;
      note = `Semantic search failed (${errorText(err)}); full-text results only.`;
    }
  }

  const text = await textRanking(store, scope, terms);
  let ranked: { id: number; score: number; matched_by: LibraryHit['matched_by'] }[];
  if (semantic === null) {
    ranked = text.slice(0, input.limit).map((r) => ({ ...r, matched_by: 'text' }));
  } else {
    ranked = reciprocalRankFusion([text.map((r) => r.id), semantic.map((r) => r.id)])
      .slice(0, input.limit)
      .map((f) => ({ id: f.key, score: f.score, matched_by: f.in.length === 2 ? 'both' : f.in[0] === 0 ? 'text' : 'semantic' }));
  }

  const pages = new Map((await store.library.foundPages(ranked.map((r) => r.id))).map((p) => [p.id, p]));
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
