// Page arithmetic over page-marked markdown: which lines belong to which page, and what a page
// range like "1,4,9-10" means.
import { PAGE_MARKER } from './formats/markdown';

export class PageRangeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PageRangeError';
  }
}

/** Pages named by `spec` ("3", "3-7", "1,4,9-10"), ascending and without repeats. */
export function parsePageSpec(spec: string, pageCount: number): number[] {
  const trimmed = spec.replace(/\s+/gu, '');
  if (!/^\d+(-\d+)?(,\d+(-\d+)?)*$/u.test(trimmed)) {
    throw new PageRangeError(`pages ${JSON.stringify(spec)} is not a page list; use e.g. "3", "3-7" or "1,4,9-10".`);
  }
  const pages = new Set<number>();
  for (const part of trimmed.split(',')) {
    const [a = '', b] = part.split('-');
    const from = Number(a);
    const to = b === undefined ? from : Number(b);
    if (from < 1 || to < from) throw new PageRangeError(`pages ${JSON.stringify(part)} is not a valid range (pages start at 1; write the lower page first).`);
    if (to > pageCount) {
      throw new PageRangeError(`pages ${JSON.stringify(part)} is out of range: the document has ${pageCount} page${pageCount === 1 ? '' : 's'}.`);
    }
    for (let p = from; p <= to; p += 1) pages.add(p);
  }
  return [...pages].sort((x, y) => x - y);
}

/** The page of each line: the nearest preceding marker's number, or null before the first marker. */
export function pageOfEachLine(lines: readonly string[]): (number | null)[] {
  let page: number | null = null;
  return lines.map((line) => {
    const m = PAGE_MARKER.exec(line);
    if (m) page = Number(m[1]);
    return page;
  });
}

export interface PageSlice {
  page: number;
  /** 0-based index of the marker line in the whole document. */
  start: number;
  /** Lines of the page, starting with its marker. */
  lines: string[];
}

export function slicePages(lines: readonly string[], wanted: readonly number[]): PageSlice[] {
  const want = new Set(wanted);
  const pageOf = pageOfEachLine(lines);
  const out: PageSlice[] = [];
  for (let i = 0; i < lines.length; i += 1) {
    const page = pageOf[i];
    if (page === null || page === undefined || !want.has(page)) continue;
    const last = out[out.length - 1];
    if (last && last.page === page) last.lines.push(lines[i] ?? '');
    else out.push({ page, start: i, lines: [lines[i] ?? ''] });
  }
  // The blank lines that separate one page from the next belong to neither.
  for (const slice of out) while (slice.lines.length > 1 && slice.lines[slice.lines.length - 1]?.trim() === '') slice.lines.pop();
  return out;
}

/** Compresses page numbers for messages: [3,4,5,9] → "3-5,9". */
export function formatPageList(pages: readonly number[]): string {
  const parts: string[] = [];
  let i = 0;
  while (i < pages.length) {
    let j = i;
    while (j + 1 < pages.length && pages[j + 1] === (pages[j] ?? 0) + 1) j += 1;
    parts.push(i === j ? `${pages[i]}` : `${pages[i]}-${pages[j]}`);
    i = j + 1;
  }
  return parts.join(',');
}
