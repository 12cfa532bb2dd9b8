// `[@lib:…]` citations in a document folder: each names a file of the task's library (search_library gives the
// key with every hit), and its reference entry is made from that file, so citing a library hit needs no
// .bib. An entry with the same key in the folder's own bibliography wins (the way to give the authors, year and
// venue the file's text does not state reliably).
import type { CslItem } from '@citation-js/core';
import { CITATION, citedKeys, LIBRARY_KEY_PREFIX, libraryCitationKey } from '../../shared/specs/document-citations';
import type { LibraryDoc, LibraryPort } from './types';

const PAGE_MARKER = /^<!--\s*page\s+\d+\s*-->$/u;
/** Lines at the top of a paper that are not its title: identifiers, licences, page furniture. */
const NOT_A_TITLE = /arxiv|doi[:.]|https?:|www\.|©|copyright|preprint|journal of|proceedings|vol\.|issn|^\d+$/iu;
const MAX_TITLE_CHARS = 200;

/** Every `[@lib:…]` key the sections cite, in order, once each. */
export function citedLibraryKeys(markdown: readonly string[]): string[] {
  const keys = new Set<string>();
  for (const text of markdown) {
    for (const match of text.matchAll(CITATION)) for (const key of citedKeys(match)) if (key.startsWith(LIBRARY_KEY_PREFIX)) keys.add(key);
  }
  return [...keys];
}

/** The title a library file's first page shows (its first line that reads like one), else the file's name. */
export function libraryTitle(doc: Pick<LibraryDoc, 'path'>, markdown: string): string {
  const lines = markdown
    .split(/\r?\n/u)
    .map((line) => line.replace(/^#+\s*/u, '').trim())
    .filter((line) => line !== '' && !PAGE_MARKER.test(line));
  const title = lines
    .slice(0, 12)
    .find((line) => line.length >= 4 && line.length <= MAX_TITLE_CHARS && /\p{L}{2}/u.test(line) && !NOT_A_TITLE.test(line));
  const name = doc.path.slice(doc.path.lastIndexOf('/') + 1).replace(/\.[^.]+$/u, '');
  return title ?? name;
}

/** The reference entries of the cited library files; keys naming no library file are left for the report. */
export async function libraryEntries(port: LibraryPort | undefined, markdown: readonly string[]): Promise<CslItem[]> {
  const wanted = citedLibraryKeys(markdown);
  if (!port || wanted.length === 0) return [];
  const docs = [...(await port.list('project')), ...(await port.list('personal'))];
  const byKey = new Map<string, LibraryDoc>();
  for (const doc of docs) if (!byKey.has(libraryCitationKey(doc.path))) byKey.set(libraryCitationKey(doc.path), doc);
  const out: CslItem[] = [];
  for (const key of wanted) {
    const doc = byKey.get(key);
    if (!doc) continue;
    const read = await port.read(doc.scope, doc.path);
    out.push({ id: key, type: 'document', title: libraryTitle(doc, read?.markdown ?? '') });
  }
  return out;
}
