// Page-marked markdown ↔ the pages stored for a library file. Extraction marks each page with
// `<!-- page N -->`; text without markers (plain text files) is cut into page-sized parts at line
// breaks, so a hit still names a small place to read.
import { PAGE_MARKER, pageMarker } from '../sources/formats/markdown';
import type { PageText } from '../store';

/** Characters per part for text that has no pages of its own (about one printed page). */
export const PART_CHARS = 3000;

export function splitPages(markdown: string): PageText[] {
  const lines = markdown.split(/\r?\n/u);
  if (!lines.some((l) => PAGE_MARKER.test(l))) return splitParts(lines);
  const pages: PageText[] = [];
  let current: { page: number; lines: string[] } | null = null;
  for (const line of lines) {
    const m = PAGE_MARKER.exec(line);
    if (m) {
      if (current) pages.push({ page: current.page, text: current.lines.join('\n').trim() });
      current = { page: Number(m[1]), lines: [] };
    } else if (current) current.lines.push(line);
  }
  if (current) pages.push({ page: current.page, text: current.lines.join('\n').trim() });
  // A page number seen twice (never from our extractors) keeps its first text: (file_id, page) is unique.
  const seen = new Set<number>();
  return pages.filter((p) => !seen.has(p.page) && seen.add(p.page));
}

function splitParts(lines: readonly string[]): PageText[] {
  const parts: PageText[] = [];
  let buf: string[] = [];
  let size = 0;
  const flush = () => {
    const text = buf.join('\n').trim();
    if (text) parts.push({ page: parts.length + 1, text });
    buf = [];
    size = 0;
  };
  for (const line of lines) {
    if (size > 0 && size + line.length > PART_CHARS) flush();
    buf.push(line);
    size += line.length + 1;
  }
  flush();
  return parts;
}

/** The stored pages as the page-marked markdown `read` and `grep` understand. */
export function joinPages(pages: readonly PageText[]): string {
  return pages.map((p) => `${pageMarker(p.page)}\n${p.text}`).join('\n\n') + (pages.length > 0 ? '\n' : '');
}
