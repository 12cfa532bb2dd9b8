// A hit's snippet: the window of the page where most of the query's terms sit close together, with
// whitespace runs collapsed (extracted pages are full of line breaks) and the matched ranges as
// [start, end) UTF-16 offsets into the snippet, for highlighting. Matching is case-insensitive like
// the index; accent-insensitive matches the index finds but this does not are shown unhighlighted.

export const SNIPPET_CHARS = 200;
/** How much text before the first match the window shows. */
const LEAD_CHARS = 60;
/** Occurrences looked at per term: a page repeating a word 10,000 times must not cost 10,000 steps. */
const MAX_OCCURRENCES = 64;

export interface Snippet {
  snippet: string;
  highlights: [number, number][];
}

interface Occurrence {
  start: number;
  end: number;
  term: number;
}

/** Lower case with the same UTF-16 length as the input, so offsets carry over. */
export function foldCase(s: string): string {
  const lower = s.toLowerCase();
  if (lower.length === s.length) return lower;
  let out = '';
  for (const ch of s) {
    const l = ch.toLowerCase();
    out += l.length === ch.length ? l : ch;
  }
  return out;
}

function occurrences(folded: string, terms: readonly string[]): Occurrence[] {
  const found: Occurrence[] = [];
  terms.forEach((term, i) => {
    const t = foldCase(term);
    if (t === '') return;
    let at = folded.indexOf(t);
    for (let n = 0; at >= 0 && n < MAX_OCCURRENCES; n++) {
      found.push({ start: at, end: at + t.length, term: i });
      at = folded.indexOf(t, at + t.length);
    }
  });
  return found.sort((a, b) => a.start - b.start);
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

function bestWindow(text: string, found: readonly Occurrence[]): [number, number] {
  let best: [number, number] = [0, Math.min(text.length, SNIPPET_CHARS)];
  let bestKey = [-1, -1];
  let j = 0;
  for (let i = 0; i < found.length; i++) {
    const anchor = found[i];
    if (anchor === undefined) continue;
    const end = anchor.start + SNIPPET_CHARS - LEAD_CHARS;
    const distinct = new Set<number>();
    let total = 0;
    for (j = i; j < found.length; j++) {
      const o = found[j];
      if (o === undefined || o.end > end) break;
      distinct.add(o.term);
      total++;
    }
    const key = [distinct.size, total];
    if (key[0] > bestKey[0] || (key[0] === bestKey[0] && key[1] > bestKey[1])) {
      bestKey = key;
      const start = Math.max(0, anchor.start - LEAD_CHARS);
      best = [start, Math.min(text.length, start + SNIPPET_CHARS)];
    }
  }
  let [start, end] = best;
  if (start > 0 && isLowSurrogate(text.charCodeAt(start))) start--;
  if (end < text.length && isLowSurrogate(text.charCodeAt(end))) end++;
  return [start, end];
}

function mergeRanges(ranges: [number, number][]): [number, number][] {
  const out: [number, number][] = [];
  for (const r of ranges.sort((a, b) => a[0] - b[0])) {
    const prev = out[out.length - 1];
    if (prev !== undefined && r[0] <= prev[1]) prev[1] = Math.max(prev[1], r[1]);
    else out.push([r[0], r[1]]);
  }
  return out;
}

export function buildSnippet(text: string, terms: readonly string[]): Snippet {
  const found = occurrences(foldCase(text), terms);
  const [start, end] = bestWindow(text, found);
  const inWindow = mergeRanges(found.filter((o) => o.start >= start && o.end <= end).map((o) => [o.start, o.end]));

  // Collapse whitespace and map each raw offset to its offset in the snippet.
  const prefix = start > 0 ? '…' : '';
  let out = prefix;
  const map = new Array<number>(end - start + 1);
  let inSpace = false;
  for (let k = start; k < end; k++) {
    map[k - start] = out.length;
    const ch = text[k] ?? '';
    if (/\s/u.test(ch)) {
      if (!inSpace && out.length > prefix.length) out += ' ';
      inSpace = true;
    } else {
      out += ch;
      inSpace = false;
    }
  }
  map[end - start] = out.length;
  out = out.trimEnd();
  const highlights = inWindow
    .map(([s, e]): [number, number] => [map[s - start] ?? 0, Math.min(map[e - start] ?? out.length, out.length)])
    .filter(([s, e]) => e > s);
  if (end < text.length) out += '…';
  return { snippet: out, highlights };
}
