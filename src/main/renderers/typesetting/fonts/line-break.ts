// Where a paragraph may break, as a Chinese typesetter breaks it: between words, never inside one
// (jieba's segmentation, word-segmenter.ts), with clreq's prohibitions (no closing mark at a line
// start, no opening mark at a line end), numbers kept with their units and formulas like "p < 0.01"
// kept whole. Paragraphs with CJK text are drawn with these breaks written in (draw/text.ts), so
// the renderer draws the lines planned; elsewhere the rules are a little stricter than
// LibreOffice's and PowerPoint's (ICU/UAX #14 plus kinsoku): a break we allow that the renderer does
// not would make us predict fewer lines than it draws, while a break we refuse costs a line early.
import { isCjkChar } from '../../../../shared/specs/deck';
import { wordBoundaries } from './word-segmenter';

/** clreq/JIS X 4051: characters that may not start a line (closing marks, stops, small kana…). */
export const NO_LINE_START = new Set(
  [
    '）］｝〕〉》」』】〙〗〟｠’”»›)]}',
    '。．，、：；！？｡､.,;:!?‼⁇⁈⁉',
    '々〻ゝゞヽヾーぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶㇰㇱㇲㇳㇴㇵㇶㇷㇸㇹㇺㇻㇼㇽㇾㇿ',
    '・･‥…—–‐゠〜～',
    '%％‰‱℃℉°′″',
  ]
    .join('')
    .split(''),
);

/** clreq: characters that may not end a line (opening brackets and quotes, prefix currency). */
export const NO_LINE_END = new Set('（［｛〔〈《「『【〘〖〝｟‘“«‹([{$¥£€＄￥￡#＃'.split(''));

/** Quotation marks: UAX #14 class QU, no break on either side of them. */
const QUOTE = new Set('"\'‘’“”'.split(''));

/** Runs that must not be split: "……" and "——" are one mark in Chinese. */
const DOUBLED = new Set(['…', '—', '─']);

/** A space the renderers break at; no-break spaces (U+00A0, U+202F) are not here. */
function isBreakSpace(ch: string): boolean {
  return ch === ' ' || ch === '\t' || ch === '\u200B';
}

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
const LETTER = /\p{L}/u;

/** Units kept on the same line as the number before them ("12 GB", "3.5 %", "200 ms", "5 亿"). */
const UNIT_AFTER_NUMBER =
  /^(?:%|‰|°[CF]?|℃|℉|[kKMGTP]i?B\b|[kMG]bps\b|[kMG]?Hz\b|[mµnk]?s\b|ms\b|min\b|hrs?\b|h\b|[mck]?m\b|mm\b|km\b|kg\b|mg\b|g\b|lbs?\b|ft\b|mi\b|px\b|pt\b|dpi\b|fps\b|[kMGT]?W\b|kWh\b|V\b|x\b|×|USD\b|EUR\b|CNY\b|RMB\b|GBP\b|JPY\b|pp\b|bps\b|毫米|厘米|千米|公里|公斤|千克|毫秒|小时|分钟|平方米|立方米|毫升|公顷|摄氏度|个百分点|百分点|[万亿千百个元倍年月日天次人家件台秒分章节页条项位名篇度米克吨岁周])/u;
/** Currency signs kept on the same line as the number after them ("$ 5", "¥ 100"). */
const CURRENCY_BEFORE_NUMBER = /[$¥£€￥＄]$/;

/** Comparison and equality signs: "p < 0.01", "n = 12", "r ≥ 0.8" read as one unit. */
const RELATION = /^[<>=≤≥≈≠~∼±]$/u;
/** A short number after a CJK label ("方法 1", "图 3"): the label and its number stay together. */
const SHORT_NUMBER_AFTER = /^[\p{N}][\p{N}.]{0,3}(?![\p{N}.])/u;

/** Indices of spaces that join a number to its unit (and the like), so they are not break opportunities. */
function gluedSpaces(chars: readonly string[]): Set<number> {
  const glued = new Set<number>();
  for (let i = 1; i < chars.length - 1; i++) {
    if (chars[i] !== ' ') continue;
    const before = chars[i - 1] ?? '';
    const after = chars[i + 1] ?? '';
    if (/\p{N}/u.test(before) && UNIT_AFTER_NUMBER.test(chars.slice(i + 1, i + 8).join(''))) glued.add(i);
    else if (CURRENCY_BEFORE_NUMBER.test(before) && /\p{N}/u.test(after)) glued.add(i);
    else if (RELATION.test(before) || RELATION.test(after)) glued.add(i);
    else if (isLabelNumber(chars, i + 1, before)) glued.add(i);
    else if (continuesDate(before, chars.slice(i + 1, i + 6).join(''))) glued.add(i);
  }
  return glued;
}

/**
 * The paragraph with the spaces that join a number to its unit or hold a formula together ("12 GB",
 * "p < 0.01", "n = 120") written as no-break spaces (U+00A0), for a client that wraps the paragraph
 * itself (Latin text is left to LibreOffice and PowerPoint): it then keeps them together as the plan did.
 */
export function withNoBreakSpaces(text: string): string {
  const chars = Array.from(text);
  const glued = gluedSpaces(chars);
  return glued.size === 0 ? text : chars.map((ch, i) => (glued.has(i) ? '\u00A0' : ch)).join('');
}

/**
 * Whether a label's number starts at `at` after the CJK label character `before` ("方法 1", "图3"),
 * not a quantity: a quantity stays with its unit instead ("了 / 0.8 °C").
 */
function isLabelNumber(chars: readonly string[], at: number, before: string): boolean {
  if (!isCjkChar(before) || NO_LINE_START.has(before)) return false;
  const rest = chars.slice(at, at + 13).join('');
  const number = SHORT_NUMBER_AFTER.exec(rest)?.[0];
  return number !== undefined && !UNIT_AFTER_NUMBER.test(rest.slice(number.length).replace(/^ /, ''));
}

/** "2023 年 7 月 5 日" reads as one date: no break after 年 or 月 before the month's or day's number. */
function continuesDate(before: string, rest: string): boolean {
  return (before === '年' && /^\d{1,2} ?月/u.test(rest)) || (before === '月' && /^\d{1,2} ?[日号]/u.test(rest));
}

/** A number and the Chinese unit after it ("201.9毫米", "5亿"). */
function unitFollows(prev: string, rest: string): boolean {
  return /\p{N}/u.test(prev) && isCjkChar(rest[0] ?? '') && UNIT_AFTER_NUMBER.test(rest);
}

/** Is `i` inside a Chinese unit of several characters after a number ("4.2 个百分点", "3小时")? */
function insideUnit(chars: readonly string[], i: number): boolean {
  for (let start = i - 1; start >= Math.max(1, i - 4); start--) {
    const before = chars[start - 1] === ' ' ? chars[start - 2] : chars[start - 1];
    if (!/\p{N}/u.test(before ?? '')) continue;
    const unit = UNIT_AFTER_NUMBER.exec(chars.slice(start, start + 5).join(''))?.[0];
    if (unit !== undefined && isCjkChar(unit[0] ?? '') && Array.from(unit).length > i - start) return true;
  }
  return false;
}

const HAN = /\p{Script=Han}/u;

/** May a line break between `prev` and `cur` (neither a space)? `inWord`: both are inside one Chinese word. */
function mayBreakBetween(prev: string, cur: string, beforePrev: string | undefined, afterCur: string | undefined, inWord: boolean): boolean {
  if (NO_LINE_START.has(cur) || NO_LINE_END.has(prev)) return false;
  if (QUOTE.has(prev) || QUOTE.has(cur)) return false;
  if (DOUBLED.has(prev) && prev === cur) return false;
  if (inWord) return false;
  if (isCjkChar(prev) || isCjkChar(cur)) return true;
  // Latin: after a hyphen between two letters ("state-of-the-art"), never before a digit ("GPT-4").
  if ((prev === '-' || prev === '\u2010') && beforePrev !== undefined && LETTER_OR_DIGIT.test(beforePrev)) {
    return LETTER.test(cur) && afterCur !== undefined;
  }
  return false;
}

/**
 * Splits a paragraph into the pieces a line may not break inside (`byWord` false: Chinese words may
 * break too, for a word longer than the line). Each piece carries the spaces
 * after it (a line may end in spaces, which hang past the margin); joining the pieces gives back
 * the paragraph exactly.
 */
export function breakSegments(text: string, byWord = true): string[] {
  const chars = Array.from(text);
  const glued = gluedSpaces(chars);
  const words = byWord ? wordBoundaries(text) : null;
  const segments: string[] = [];
  let current = '';
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i] ?? '';
    const prev = chars[i - 1];
    let breakBefore = false;
    if (prev !== undefined && current !== '') {
      if (isBreakSpace(prev)) breakBefore = !isBreakSpace(ch) && !glued.has(i - 1) && !NO_LINE_START.has(ch);
      else if (!isBreakSpace(ch)) {
        const inWord = words !== null && HAN.test(prev) && HAN.test(ch) && !words.has(i);
        const rest = chars.slice(i, i + 6).join('');
        breakBefore = mayBreakBetween(prev, ch, chars[i - 2], chars[i + 1], inWord) && !isLabelNumber(chars, i, prev) && !continuesDate(prev, rest) && !unitFollows(prev, rest) && !insideUnit(chars, i);
      }
    }
    if (breakBefore) {
      segments.push(current);
      current = '';
    }
    current += ch;
  }
  if (current !== '') segments.push(current);
  return segments;
}

/**
 * A piece longer than the line, split at every space inside it, the glued ones too ("（p < 0.01），"
 * into "（p < ", "0.01），"): a typesetter breaks a formula after a relation (never before one) or
 * between terms before breaking a number or leaving a closing mark at a line start. Joining the
 * pieces gives back the text exactly.
 */
export function spaceSegments(text: string): string[] {
  const chars = Array.from(text);
  const segments: string[] = [];
  let current = '';
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i] ?? '';
    const prev = chars[i - 1];
    if (prev !== undefined && current.trim() !== '' && isBreakSpace(prev) && !isBreakSpace(ch) && !NO_LINE_START.has(ch) && !RELATION.test(ch)) {
      segments.push(current);
      current = '';
    }
    current += ch;
  }
  if (current !== '') segments.push(current);
  return segments;
}

/** The segment without the spaces it ends with (what must fit on the line). */
export function withoutTrailingSpaces(segment: string): string {
  let end = segment.length;
  while (end > 0 && isBreakSpace(segment[end - 1] ?? '')) end--;
  return end === segment.length ? segment : segment.slice(0, end);
}
