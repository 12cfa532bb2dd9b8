// Library search on SQLite: an external-content FTS5 table with the trigram tokenizer
// (`library_fts`, migration 7) ranked by bm25(), and a bounded substring scan for terms of 1–2
// characters the trigram index cannot match, ranked by BM25 over counts SQLite works out. The
// PostgreSQL twin is postgres/library-search.ts; what they share is library-match.ts.
import type Database from 'better-sqlite3';
import type { FoundPage, LibraryRepo, PageToEmbed, PageVector, RankedPage, SearchScope } from './library-types';
import { isTrigramTerm, likeContains, rankScanned, SCAN_LIMIT } from './library-match';

type SearchMethods = Pick<LibraryRepo, 'matchPages' | 'pagesWithVectors' | 'foundPages' | 'pagesToEmbed' | 'storeVectors'>;

const SCOPE_SQL = `(f.project_id IN (SELECT value FROM json_each(@projects)) OR (@personal AND f.project_id IS NULL))`;

function scopeParams(scope: SearchScope): { projects: string; personal: number } {
  return { projects: JSON.stringify(scope.projects), personal: scope.personal ? 1 : 0 };
}

/** An FTS5 string literal: double quotes inside are doubled, so nothing in it is syntax. */
export function ftsString(term: string): string {
  return `"${term.replace(/"/gu, '""')}"`;
}

/** Every term required (FTS5's implicit AND), or any of them. */
export function ftsMatch(terms: readonly string[], op: 'all' | 'any'): string {
  return terms.map(ftsString).join(op === 'all' ? ' ' : ' OR ');
}

/** Whether case folding can matter: SQLite's LIKE and lower() fold ASCII letters only. */
function hasAsciiLetter(term: string): boolean {
  return /[A-Za-z]/u.test(term);
}

/** SQLite's lower() folds ASCII only; the scan's counts must fold the terms the same way. */
function asciiLower(s: string): string {
  return s.replace(/[A-Z]/gu, (c) => c.toLowerCase());
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

export function sqliteLibrarySearch(db: Database.Database): SearchMethods {
  /** Pages matching the long terms through the index, filtered by the short ones; bm25 order. */
  const ftsRanking = (scope: SearchScope, match: string, shortTerms: readonly string[], limit: number): RankedPage[] => {
    const params: Record<string, unknown> = { ...scopeParams(scope), match, want: limit };
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
  };

  /** Pages containing the terms (all or any) by substring scan, ranked by BM25 over counts SQLite works out. */
  const scanRanking = (scope: SearchScope, terms: readonly string[], joiner: 'AND' | 'OR', limit: number): RankedPage[] => {
    const params: Record<string, unknown> = { ...scopeParams(scope), cap: SCAN_LIMIT };
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
    return rankScanned(rows, terms.length, limit);
  };

  const storeVector = db.prepare('UPDATE library_pages SET embedding = ?, embedding_model = ? WHERE id = ? AND text = ?');
  const storeAll = db.transaction((model: string, vectors: readonly (PageToEmbed & { embedding: Uint8Array })[]) =>
    vectors.reduce((n, v) => n + storeVector.run(v.embedding, model, v.id, v.text).changes, 0),
  );

  return {
    matchPages(scope, terms, op, limit) {
      if (terms.length === 0) return [];
      const long = terms.filter(isTrigramTerm);
      const short = terms.filter((t) => !isTrigramTerm(t));
      if (long.length === 0) return scanRanking(scope, short, op === 'all' ? 'AND' : 'OR', limit);
      // Short terms cannot join an FTS5 OR: with `any` the long ones decide (see the port's contract).
      return ftsRanking(scope, ftsMatch(long, op), op === 'all' ? short : [], limit);
    },
    pagesWithVectors(scope, model) {
      // raw(): arrays instead of objects; reading the blobs is most of the cost (see bench/library).
      const rows = db
        .prepare<Record<string, unknown>, [number, Buffer]>(
          `SELECT p.id, p.embedding FROM library_pages p JOIN library_files f ON f.id = p.file_id
            WHERE ${SCOPE_SQL} AND p.embedding_model = @model AND p.embedding IS NOT NULL`,
        )
        .raw()
        .all({ ...scopeParams(scope), model });
      return rows.map(([id, embedding]): PageVector => ({ id, embedding }));
    },
    foundPages(ids) {
      return db
        .prepare<[string], FoundPage>(
          `SELECT p.id, f.project_id, f.path, p.page, p.text FROM library_pages p JOIN library_files f ON f.id = p.file_id
            WHERE p.id IN (SELECT value FROM json_each(?))`,
        )
        .all(JSON.stringify(ids));
    },
    pagesToEmbed(model, after, n) {
      return db
        .prepare<{ model: string; after: number; n: number }, PageToEmbed>(
          `SELECT id, text FROM library_pages
            WHERE id > @after AND (embedding IS NULL OR embedding_model IS NOT @model) AND length(trim(text)) > 0
            ORDER BY id LIMIT @n`,
        )
        .all({ model, after, n });
    },
    storeVectors: (model, vectors) => storeAll(model, vectors),
  };
}
