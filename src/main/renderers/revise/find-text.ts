// Finds are matched on the text a reader sees: invisible formatting characters are ignored on both
// sides, and a match found that way is moved back onto the document's own text.
import { joinNameHyphens, WORD_JOINER } from '../document/name-hyphens';
import type { Hunk } from './word-diff';

export interface FindableText {
  /** Visible text, paragraphs joined by "\n". */
  text: string;
  /** `text` without the invisible formatting characters finds are matched on. */
  plain: string;
  /** For each character of `plain` its index in `text`; one more entry: text.length. */
  plainAt: number[];
  /** The document holds name hyphens between word joiners (Folio wrote it): inserted text is held alike. */
  joinsNames: boolean;
}

/**
 * Characters that change line breaking or shaping but draw nothing: soft hyphen, zero-width space and
 * (non-)joiners, word joiner and the invisible operators, byte-order mark. Folio's own documents hold
 * name hyphens between word joiners ("GPT⁠-⁠4"), and a model copies what it sees: finds ignore them on both sides.
 */
export const INVISIBLE = /[\u00AD\u200B-\u200D\u2060-\u2064\uFEFF]/u;
const INVISIBLE_ALL = /[\u00AD\u200B-\u200D\u2060-\u2064\uFEFF]/gu;

/**
 * No-break spaces a typist writes as a space: Folio holds a number's digit groups with U+202F ("10 000"), and
 * Word writes U+00A0 for Ctrl+Shift+Space. Finds match them as spaces; the document keeps its own.
 */
const NO_BREAK_SPACE = /[\u00A0\u202F]/gu;
export const asTyped = (find: string): string => find.replace(NO_BREAK_SPACE, ' ');

function withoutInvisible(text: string): { plain: string; at: number[] } {
  let plain = '';
  const at: number[] = [];
  for (let i = 0; i < text.length; i++) {
    if (INVISIBLE.test(text[i] ?? '')) continue;
    plain += asTyped(text[i] ?? '');
    at.push(i);
  }
  at.push(text.length);
  return { plain, at };
}

export const visibleOnly = (text: string): string => text.replace(INVISIBLE_ALL, '');

/** Starts and ends in `text` of each occurrence of `find` (already visible-only) in `plain`. */
export function occurrences(part: FindableText, find: string): { at: number; end: number }[] {
  const found: { at: number; end: number }[] = [];
  for (let p = part.plain.indexOf(find); p >= 0; p = part.plain.indexOf(find, p + 1)) {
    found.push({ at: part.plainAt[p] ?? 0, end: (part.plainAt[p + find.length - 1] ?? 0) + 1 });
  }
  return found;
}

/** A hunk found on the visible-only text, moved onto the part's text (invisible characters inside a deletion go with it). */
export function onText(part: FindableText, start: number, hunk: Hunk, findEnd: number): Hunk {
  const p = part.plain.length === 0 ? 0 : plainIndex(part, start);
  const pos = (offset: number): number => part.plainAt[p + offset] ?? part.text.length;
  const insert = part.joinsNames ? joinNameHyphens(hunk.insert) : hunk.insert;
  if (hunk.from === hunk.to) {
    const at = p + hunk.from < part.plain.length ? pos(hunk.from) : part.text.length;
    return { from: Math.min(at, findEnd) - start, to: Math.min(at, findEnd) - start, insert };
  }
  return { from: pos(hunk.from) - start, to: pos(hunk.to - 1) + 1 - start, insert };
}

function plainIndex(part: FindableText, textIndex: number): number {
  let lo = 0;
  let hi = part.plainAt.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((part.plainAt[mid] ?? 0) < textIndex) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export function findable(text: string): FindableText {
  const { plain, at } = withoutInvisible(text);
  return { text, plain, plainAt: at, joinsNames: text.includes(WORD_JOINER) };
}
