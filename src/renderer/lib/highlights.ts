// A search hit's snippet with its matched ranges, split into plain and marked parts so the UI renders
// <mark> elements from data (never HTML from the server).

export interface SnippetPart {
  text: string;
  marked: boolean;
}

/**
 * Splits `snippet` at the [start, end) UTF-16 ranges. Ranges may come unsorted, overlapping or out of
 * bounds (they are computed elsewhere and a stale one must not break the list): they are clamped to the
 * snippet, sorted and merged; empty ones are dropped.
 */
export function splitHighlights(snippet: string, ranges: readonly (readonly [number, number])[]): SnippetPart[] {
  const clamp = (n: number) => Math.max(0, Math.min(snippet.length, Math.trunc(n)));
  const sorted = ranges
    .map(([start, end]) => [clamp(start), clamp(end)] as [number, number])
    .filter(([start, end]) => end > start)
    .sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const range of sorted) {
    const last = merged[merged.length - 1];
    if (last && range[0] <= last[1]) last[1] = Math.max(last[1], range[1]);
    else merged.push([range[0], range[1]]);
  }
  const parts: SnippetPart[] = [];
  let at = 0;
  for (const [start, end] of merged) {
    if (start > at) parts.push({ text: snippet.slice(at, start), marked: false });
    parts.push({ text: snippet.slice(start, end), marked: true });
    at = end;
  }
  if (at < snippet.length || parts.length === 0) parts.push({ text: snippet.slice(at), marked: false });
  return parts;
}
