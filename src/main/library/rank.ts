// Ranking helpers of hybrid search: reciprocal rank fusion of the text and semantic rankings, and
// cosine similarity. The text ranking itself is the store's (store/library-match.ts: BM25).

/** The constant of reciprocal rank fusion (Cormack et al. 2009): 1/(k + rank). */
export const RRF_K = 60;

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
