// What both dialects' library search share (PostgreSQL since the team service): which
// terms an index of trigrams can look up, LIKE patterns, and BM25 over occurrence counts the
// database works out, so page texts never cross into JS to be ranked.

/** Terms shorter than this many characters (code points) cannot be looked up in a trigram index. */
export const TRIGRAM_MIN = 3;
/** Pages a substring scan reads at most: bounds the cost of a short or common term on a huge library. */
export const SCAN_LIMIT = 20_000;

const BM25_K1 = 1.2;
const BM25_B = 0.75;

export function charLength(s: string): number {
  return [...s].length;
}

/** Whether a trigram index (FTS5's trigram tokenizer, pg_trgm) can match the term. */
export function isTrigramTerm(term: string): boolean {
  return charLength(term) >= TRIGRAM_MIN;
}

/** A LIKE pattern matching `term` anywhere, with `\` as the escape for %, _ and itself. */
export function likeContains(term: string): string {
  return `%${term.replace(/[\\%_]/gu, (c) => `\\${c}`)}%`;
}

export interface ScannedPage {
  length: number;
  /** Occurrences of each term on the page. */
  counts: number[];
}

/**
 * BM25 over the scanned pages, with document frequencies taken from those pages. The scan is
 * bounded, so on a huge library the frequencies are those of the pages scanned: good enough to
 * order pages that all contain the terms.
 */
export function bm25Scores(pages: readonly ScannedPage[]): number[] {
  const n = pages.length;
  if (n === 0) return [];
  const avgLength = pages.reduce((s, p) => s + p.length, 0) / n || 1;
  const terms = pages[0]?.counts.length ?? 0;
  const idf: number[] = [];
  for (let t = 0; t < terms; t++) {
    const df = pages.filter((p) => (p.counts[t] ?? 0) > 0).length;
    // The +1 inside the log keeps a term present on every page positive (Lucene's variant).
    idf.push(Math.log(1 + (n - df + 0.5) / (df + 0.5)));
  }
  return pages.map((p) =>
    p.counts.reduce((score, tf, t) => {
      if (tf === 0) return score;
      const norm = tf + BM25_K1 * (1 - BM25_B + (BM25_B * p.length) / avgLength);
      return score + (idf[t] ?? 0) * ((tf * (BM25_K1 + 1)) / norm);
    }, 0),
  );
}

/** Scanned pages (`len` and one count column `c<i>` per term) ranked by BM25, best `limit` first. */
export function rankScanned(rows: readonly Record<string, number>[], terms: number, limit: number): { id: number; score: number }[] {
  const scores = bm25Scores(rows.map((r) => ({ length: r.len ?? 0, counts: Array.from({ length: terms }, (_, i) => r[`c${i}`] ?? 0) })));
  return rows
    .map((r, i) => ({ id: r.id ?? 0, score: scores[i] ?? 0 }))
    .sort((a, b) => b.score - a.score)
    .slice(0, limit);
}
