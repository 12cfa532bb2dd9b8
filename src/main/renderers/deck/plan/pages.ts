// Splitting a sequence of items (bullets, table rows) over slides: as few slides as fit, of similar
// height, so a split never leaves a lone item or a nearly empty continuation slide.

/** Pages of consecutive items whose heights sum to at most `capacity`, filled in order. */
function greedy(heights: readonly number[], capacity: number): number[][] {
  const pages: number[][] = [];
  let cur: number[] = [];
  let used = 0;
  heights.forEach((h, i) => {
    if (cur.length > 0 && used + h > capacity + 1e-9) {
      pages.push(cur);
      cur = [];
      used = 0;
    }
    cur.push(i);
    used += h;
  });
  if (cur.length > 0) pages.push(cur);
  return pages;
}

/**
 * The fewest pages that hold `heights` within `capacity`, balanced: the smallest capacity giving that
 * many pages, so pages come out of similar height (never a lone item after full pages).
 */
export function balancedPages(heights: readonly number[], capacity: number): number[][] {
  if (heights.length === 0) return [[]];
  const count = greedy(heights, capacity).length;
  let lo = Math.max(...heights, heights.reduce((a, b) => a + b, 0) / count);
  let hi = Math.max(lo, capacity);
  for (let i = 0; i < 40 && hi - lo > 1e-4; i++) {
    const mid = (lo + hi) / 2;
    if (greedy(heights, mid).length <= count) hi = mid;
    else lo = mid;
  }
  return greedy(heights, hi);
}
