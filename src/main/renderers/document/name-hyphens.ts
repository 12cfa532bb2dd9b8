// Names with a number (GPT-4, COVID-19, 数据集-1) stay on one line: clreq keeps a name and its number together.

/** A hyphen between a letter and a digit: Word's and LibreOffice's lines may break after any other. */
const NAME_HYPHEN = /(?<=\p{L})-(?=\p{N})/gu;
/** U+2060 WORD JOINER: no line break on either side, no width, no glyph. */
export const WORD_JOINER = '\u2060';

/**
 * The text with each name hyphen held between word joiners, so "GPT-" never ends a line with "4" starting
 * the next. Measured in LibreOffice: Word's non-breaking hyphen (w:noBreakHyphen, which it imports as U+2011)
 * and U+2011 itself still break after the hyphen in Chinese text, joiners or not; the plain hyphen between
 * joiners holds, and keeps the face's own hyphen glyph.
 */
export function joinNameHyphens(text: string): string {
  return text.replace(NAME_HYPHEN, `${WORD_JOINER}-${WORD_JOINER}`);
}
