// Citations in an answer, as the system prompt asks the model to write them: "来源：x.pdf 第 3 页" or
// "Source: x.pdf, p. 3". Each becomes a chip that opens the file at that page.
export interface Citation {
  file: string;
  page: number;
}

export type CitationPart = { kind: 'text'; text: string } | { kind: 'cite'; text: string; citation: Citation };

const FILE = String.raw`([^\s，,；;：:（）()\[\]]+?\.(?:pdf|docx|pptx|md|txt|csv|xlsx))`;
const PATTERN = new RegExp(String.raw`(?:来源[:：]\s*${FILE}\s*[，,]?\s*第\s*(\d{1,5})\s*页)|(?:Source:\s*${FILE}\s*,?\s*(?:p\.|pp\.|page)\s*(\d{1,5}))`, 'giu');

/** Splits text into plain runs and citations (none: one text part). */
export function splitCitations(text: string): CitationPart[] {
  const parts: CitationPart[] = [];
  let last = 0;
  for (const m of text.matchAll(PATTERN)) {
    const file = m[1] ?? m[3];
    const page = Number(m[2] ?? m[4]);
    if (!file || !Number.isInteger(page) || page < 1) continue;
    if (m.index > last) parts.push({ kind: 'text', text: text.slice(last, m.index) });
    parts.push({ kind: 'cite', text: m[0], citation: { file, page } });
    last = m.index + m[0].length;
  }
  if (last < text.length) parts.push({ kind: 'text', text: text.slice(last) });
  return parts;
}

/** The task file a citation names: the exact path, else the one file with that name (sources first). */
export function resolveCitedFile(file: string, paths: readonly string[]): string | null {
  if (paths.includes(file)) return file;
  const name = file.split('/').pop() ?? file;
  const matches = paths.filter((p) => p === name || p.endsWith(`/${name}`));
  return matches.find((p) => p.startsWith('source/')) ?? matches[0] ?? null;
}
