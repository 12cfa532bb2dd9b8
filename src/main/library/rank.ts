// Ranking helpers: BM25 for pages found by substring scan (terms too short for the trigram index, so
// FTS5's bm25() cannot score them), and reciprocal rank fusion of the text and semantic rankings.

/** The constant of reciprocal rank fusion (Cormack et al. 2009): 1/(k + rank). */
export const RRF_K = 60;
const BM25_K1 = 1.2;
const BM25_B = 0.75;

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

/** Fuses rankings (each best first) by reciprocal rank; returns keys best first with their fused score. */
export function reciprocalRankFusion<K>(rankings: readonly (readonly K[])[], k = RRF_K): { key: K; score: number; in: number[] }[] {
  const fused = new Map<K, { score: number; in: number[] }>();
  rankings.forEach((ranking, which) => {
    ranking.forEach((key, rank) => {
      const entry = fused.get(key) ?? { score: 0, in: [] };
      entry.score += 1 / (k + rank + 1);
      entry.in.push(which);
      fused.set(key, entry);
    });
  });
  return [...fused.entries()].map(([key, v]) => ({ key, ...v })).sort((a, b) => b.score - a.score);
}

/** Cosine similarity of two vectors of the same length; 0 when either is all zeros. */
export function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}
