// Numbers written with spaces between their digit groups (10 000, 1 234 567, as SI and GB/T 8170 write them)
// stay whole on a line. Measured in LibreOffice 7.4 in a narrow table cell: a plain space breaks "10 / 000";
// a no-break space (U+00A0) made it break inside the digits ("10 00 / 0"); a narrow no-break space (U+202F,
// the thin group separator ISO 80000 asks for, which Word also keeps unbroken) moves the number down whole.

/** U+202F NARROW NO-BREAK SPACE. */
export const NARROW_NO_BREAK_SPACE = '\u202F';

/** A space between a group of one to three digits (itself first, or after such a space) and a group of exactly three. */
const GROUP_SPACE = /(?<=(?<![\d.,])\d{1,3}(?: \d{3})*) (?=\d{3}(?!\d))/gu;

/** The text with the spaces between a number's digit groups made narrow no-break spaces. */
export function joinDigitGroups(text: string): string {
  return text.replace(GROUP_SPACE, NARROW_NO_BREAK_SPACE);
}
