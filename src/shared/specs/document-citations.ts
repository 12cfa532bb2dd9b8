// Citations in a document folder's Markdown, in pandoc's syntax: `[@key]`, `[@a; @b]` name entries of the
// folder's bibliography (`[@tbl:…]` / `[@fig:…]` are cross-references, not citations). Entries are numbered
// in the order they are first cited (GB/T 7714 顺序编码制, Vancouver), and a group of numbers is written
// `[1,3-5]`. Pure functions over mdast, shared by the .docx engine and the preview.
import type { Nodes, Root } from 'mdast';
import type { CitationStyleName } from './document';

const KEY = '[\\p{L}\\p{N}_][\\p{L}\\p{N}_:.#$%&+?<>~/-]*';
/** `[@key]`, `[@a; @b]`, `[@a, @b]`; the keys must not be cross-reference ids. */
export const CITATION = new RegExp(`\\[(@(?!tbl:|fig:)${KEY}(?:\\s*[;,]\\s*@(?!tbl:|fig:)${KEY})*)\\]`, 'gu');

export function citedKeys(match: RegExpMatchArray): string[] {
  return (match[1] ?? '')
    .split(/\s*[;,]\s*/u)
    .map((part) => part.replace(/^@/u, '').replace(/[.:]+$/u, ''))
    .filter((key) => key !== '');
}

/** Every cited key, in the order first cited (reading order through the sections; footnotes where they are defined). */
export function citationOrder(roots: readonly Root[]): string[] {
  const order: string[] = [];
  const seen = new Set<string>();
  const walk = (node: Nodes): void => {
    if (node.type === 'text') {
      for (const match of node.value.matchAll(CITATION)) {
        for (const key of citedKeys(match)) {
          if (!seen.has(key)) {
            seen.add(key);
            order.push(key);
          }
        }
      }
      return;
    }
    if ('children' in node) for (const child of node.children as Nodes[]) walk(child);
  };
  for (const root of roots) walk(root);
  return order;
}

export type CitationLook = {
  /** GB/T 7714 sets the numbers as a superscript; Vancouver in the line. */
  superscript: boolean;
  /** Between numbers: `,` in GB/T 7714, `, ` in Vancouver. */
  separator: string;
  range: string;
};

export const citationLooks: Record<CitationStyleName, CitationLook> = {
  'gb-t-7714-2015': { superscript: true, separator: ',', range: '-' },
  vancouver: { superscript: false, separator: ', ', range: '–' },
};

export function defaultCitationStyle(language: string): CitationStyleName {
  return language.toLowerCase().startsWith('zh') ? 'gb-t-7714-2015' : 'vancouver';
}

/** `[1,3-5]`: numbers sorted, runs of three or more collapsed; `?` for an unknown key. */
export function citationLabel(numbers: readonly (number | null)[], look: CitationLook): string {
  const known = [...new Set(numbers.filter((n): n is number => n !== null))].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < known.length; ) {
    let j = i;
    while (j + 1 < known.length && known[j + 1] === (known[j] ?? 0) + 1) j++;
    const first = known[i] ?? 0;
    const last = known[j] ?? 0;
    if (j - i >= 2) parts.push(`${first}${look.range}${last}`);
    else for (let k = i; k <= j; k++) parts.push(String(known[k]));
    i = j + 1;
  }
  if (numbers.some((n) => n === null)) parts.push('?');
  return `[${parts.join(look.separator)}]`;
}

/** The heading the generated list gets when the text has no references heading of its own. */
export function referencesHeadingTitle(chinese: boolean): string {
  return chinese ? '参考文献' : 'References';
}

/** The prefix of a citation key that names a file of the task's library (search_library gives it with each hit). */
export const LIBRARY_KEY_PREFIX = 'lib:';

/**
 * The citation key of a library file, from its path inside the library without the extension:
 * `papers/RAG survey.pdf` → `lib:papers/RAG-survey`. Characters a key may not hold become `-`.
 */
export function libraryCitationKey(pathInLibrary: string): string {
  const stem = pathInLibrary.replace(/\.[^./]+$/u, '');
  const cleaned = stem
    .replace(/[^\p{L}\p{N}_:.#$%&+?<>~/-]+/gu, '-')
    .replace(/^[^\p{L}\p{N}_]+/u, '')
    .replace(/[.:-]+$/u, '');
  return `${LIBRARY_KEY_PREFIX}${cleaned || 'file'}`;
}
