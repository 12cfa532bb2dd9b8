// Where a long Latin run inside justified Chinese text may break. Word and LibreOffice break Chinese
// between any two characters but never inside a URL or a Latin word: when one does not fit at the end
// of a line it moves down whole, and the Chinese line above is letter-spaced to fill the measure. A
// typesetter breaks the URL after a slash or before a dot, never inside a word of it, and hyphenates the word,
// but a hyphenated compound only at its own hyphen.

// The file, not the folder: the built app loads packages with Node's ESM resolver, which does not read folders.
import enUs from 'hyphen/en-us/index.js';
import { WORD_JOINER } from './name-hyphens';

/** U+200B ZERO WIDTH SPACE: a break opportunity that prints nothing. */
export const ZERO_WIDTH_SPACE = '\u200B';
/** U+00AD SOFT HYPHEN: a break opportunity that prints a hyphen only at a line end. */
export const SOFT_HYPHEN = '\u00AD';

/** A URL runs until whitespace, a quote or bracket, or Chinese text or punctuation. */
const URL = /(?:https?:\/\/|www\.)[^\s<>"'()[\]{}\u3000-\u303f\u3400-\u9fff\uf900-\ufaff\uff00-\uffef]+/giu;
/** Inside a URL: after a slash, before a dot, hyphen, underscore, query or fragment mark (Chicago 7.42); never inside a word ("hug|gingface"). */
const URL_BREAK = /(?<=\/)(?=[^/])|(?<=[^/.\-_?#&=])(?=[.\-_?#&=])/gu;
/**
 * A plain word (lower case, or capitalised) long enough to leave a gap worth filling; names like LayoutLMv3 are left
 * whole, and so is each part of a hyphenated compound ("Retrieval-Augmented" breaks at its own hyphen, not "Aug-mented").
 */
const LONG_WORD = /(?<![\p{Script=Latin}\p{N}-])[A-Z]?[a-z]{6,}(?![\p{Script=Latin}\p{N}-])/gu;

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
const CAMEL_NAME = /(?<![\p{Script=Latin}\p{N}-])[\p{Script=Latin}\p{N}]{6,}(?![\p{Script=Latin}\p{N}-])/gu;
const CASE_BOUNDARY = /(?<=\p{Ll})(?=\p{Lu})/gu;

function hyphenateName(name: string): string {
  return name.replace(CASE_BOUNDARY, (_empty, at: number) => (at >= 3 && name.length - at >= 3 ? SOFT_HYPHEN : ''));
}

/** A URL's hyphen: LibreOffice breaks after a hyphen by default, which in a URL reads as a hyphenation (Chicago breaks before it). */
const URL_HYPHEN = /-/gu;

function breakUrl(url: string): string {
  // A trailing full stop or comma belongs to the sentence, not the URL.
  const tail = /[.,;:!?]+$/u.exec(url)?.[0] ?? '';
  const body = url.slice(0, url.length - tail.length).replace(URL_BREAK, ZERO_WIDTH_SPACE);
  return body.replace(URL_HYPHEN, `-${WORD_JOINER}`) + tail;
}

/**
 * `text` with break opportunities in its URLs (zero-width spaces) and long plain words (soft hyphens,
 * by the en-US Liang patterns). Both print nothing unless a line breaks there.
 */
export function withBreakOpportunities(text: string): string {
  return withUrlBreaks(text, hyphenateWords);
}

/**
 * `text` with break opportunities in its URLs only: for text set ragged right (the reference list), where a word
 * that moves down leaves no gap inside the line, so no word is hyphenated.
 */
export function withUrlBreaks(text: string, between: (text: string) => string = (t) => t): string {
  let out = '';
  let at = 0;
  for (const match of text.matchAll(URL)) {
    out += between(text.slice(at, match.index)) + breakUrl(match[0]);
    at = match.index + match[0].length;
  }
  return out + between(text.slice(at));
}

function hyphenateWords(text: string): string {
  return text
    .replace(LONG_WORD, (word) => enUs.hyphenateSync(word, { hyphenChar: SOFT_HYPHEN }))
    .replace(CAMEL_NAME, hyphenateName)
    .replace(CJK_MARK_BEFORE_LATIN, `$&${ZERO_WIDTH_SPACE}`);
}
