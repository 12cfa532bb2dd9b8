// Small helpers shared by the benches: timing and the median of repeated runs.

export function median(values: readonly number[]): number {
  if (values.length === 0) throw new Error('median of no values');
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Milliseconds since an earlier `performance.now()` reading. */
export const elapsedMs = (since: number): number => performance.now() - since;
