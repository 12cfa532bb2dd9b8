// Where a long Latin run inside justified Chinese text may break. Word and LibreOffice break Chinese
// between any two characters but never inside a URL or a Latin word: when one does not fit at the end
// of a line it moves down whole, and the Chinese line above is letter-spaced to fill the measure. A
// typesetter breaks the URL after a slash or before a dot, and hyphenates the word.

// The file, not the folder: the built app loads packages with Node's ESM resolver, which does not read folders.
import enUs from 'hyphen/en-us/index.js';

/** U+200B ZERO WIDTH SPACE: a break opportunity that prints nothing. */
export const ZERO_WIDTH_SPACE = '\u200B';
/** U+00AD SOFT HYPHEN: a break opportunity that prints a hyphen only at a line end. */
export const SOFT_HYPHEN = '\u00AD';

/** A URL runs until whitespace, a quote or bracket, or Chinese text or punctuation. */
const URL = /(?:https?:\/\/|www\.)[^\s<>"'()[\]{}\u3000-\u303f\u3400-\u9fff\uf900-\ufaff\uff00-\uffef]+/giu;
/** Inside a URL: after a slash, before a dot, hyphen, underscore, query or fragment mark (Chicago 7.42), and between the syllables of long parts. */
const URL_BREAK = /(?<=\/)(?=[^/])|(?<=[^/.\-_?#&=])(?=[.\-_?#&=])/gu;
/** A plain word (lower case, or capitalised) long enough to leave a gap worth filling; names like LayoutLMv3 are left whole. */
const LONG_WORD = /(?<![\p{Script=Latin}\p{N}])[A-Z]?[a-z]{6,}(?![\p{Script=Latin}\p{N}])/gu;

/**
 * A Chinese comma, stop or closing mark right before a Latin letter or digit. clreq lets a line break after it,
 * but LibreOffice holds it with the word that follows ("FUNSD、CORD" moves down whole), so the break is made explicit.
 */
const CJK_MARK_BEFORE_LATIN = /[、，。；：！？）」』”’](?=[\p{Script=Latin}\p{N}])/gu;

/**
 * A name written in camel case (LayoutLMv3, FinBERT, PubLayNet): clreq breaks a Western word only where Western
 * typesetting would, and a name's case boundary is where its parts join, so it may break there with a hyphen
 * rather than move down whole and letter-space the Chinese line above. Each part keeps three characters or more.
 */
const CAMEL_NAME = /(?<![\p{Script=Latin}\p{N}])[\p{Script=Latin}\p{N}]{6,}(?![\p{Script=Latin}\p{N}])/gu;
const CASE_BOUNDARY = /(?<=\p{Ll})(?=\p{Lu})/gu;

function hyphenateName(name: string): string {
  return name.replace(CASE_BOUNDARY, (_empty, at: number) => (at >= 3 && name.length - at >= 3 ? SOFT_HYPHEN : ''));
}

/** A run of letters inside a URL long enough that what it leaves at a line end would still letter-space the line. */
const URL_LONG_PART = /[a-z]{7,}/giu;

function breakUrl(url: string): string {
  // A trailing full stop or comma belongs to the sentence, not the URL.
  const tail = /[.,;:!?]+$/u.exec(url)?.[0] ?? '';
  const body = url.slice(0, url.length - tail.length);
  // Long parts break between syllables too, with no hyphen (one would read as part of the URL).
  const parts = body.replace(URL_LONG_PART, (part) => enUs.hyphenateSync(part, { hyphenChar: ZERO_WIDTH_SPACE, minWordLength: 7 }));
  return parts.replace(URL_BREAK, ZERO_WIDTH_SPACE) + tail;
}

/**
 * `text` with break opportunities in its URLs (zero-width spaces) and long plain words (soft hyphens,
 * by the en-US Liang patterns). Both print nothing unless a line breaks there.
 */
export function withBreakOpportunities(text: string): string {
  let out = '';
  let at = 0;
  for (const match of text.matchAll(URL)) {
    out += hyphenateWords(text.slice(at, match.index)) + breakUrl(match[0]);
    at = match.index + match[0].length;
  }
  return out + hyphenateWords(text.slice(at));
}

function hyphenateWords(text: string): string {
  return text
    .replace(LONG_WORD, (word) => enUs.hyphenateSync(word, { hyphenChar: SOFT_HYPHEN }))
    .replace(CAMEL_NAME, hyphenateName)
    .replace(CJK_MARK_BEFORE_LATIN, `$&${ZERO_WIDTH_SPACE}`);
}
