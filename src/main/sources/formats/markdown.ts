// The page-marked markdown every extractor writes. A marker line precedes each page's text so that
// `read` can cut pages out and `grep` can say which page a line is on.

export function pageMarker(page: number): string {
  return `<!-- page ${page} -->`;
}

export const PAGE_MARKER = /^<!-- page (\d+) -->$/u;

function escapeCell(value: string): string {
  return value.replace(/\|/gu, '\\|').replace(/\r?\n/gu, '<br>').trim();
}

/** A GitHub-style table; the first row is the header. Rows are padded to the widest row. */
export function markdownTable(rows: readonly (readonly string[])[]): string {
  if (rows.length === 0) return '_(empty table)_';
  const width = Math.max(1, ...rows.map((r) => r.length));
  const line = (row: readonly string[]) => `| ${Array.from({ length: width }, (_, i) => escapeCell(row[i] ?? '')).join(' | ')} |`;
  const [header = [], ...body] = rows;
  return [line(header), `|${' --- |'.repeat(width)}`, ...body.map(line)].join('\n');
}
