// Text classification shared by the renderer (font choice, fitting) and the HTML preview: which
// script a character is, runs of one script, words as a reader counts them.

const CJK_CHAR =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Bopomofo}\u3000-\u303F\u30FC\uFF00-\uFFEF\uFE30-\uFE4F\u3200-\u33FF]/u;
/** Typographic quotes, dashes and ellipsis belong to whichever script surrounds them. */
const NEUTRAL_CHAR = /[\s\u2010-\u2027\u00B7]/u;

export function isCjkChar(ch: string): boolean {
  return CJK_CHAR.test(ch);
}

export function containsCjk(s: string): boolean {
  for (const ch of s) if (CJK_CHAR.test(ch)) return true;
  return false;
}

/** Chinese and Japanese characters and CJK punctuation (not Hangul: Korean spaces words as Latin does). */
const HAN_KANA_CHAR = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Bopomofo}\u3000-\u303F\u30FC\uFF00-\uFFEF\uFE30-\uFE4F]/u;
/**
 * What LibreOffice sets as Latin script beside CJK, and so puts its CJK–Latin gap against (measured:
 * ASCII, Latin-1 such as "·", Greek, Cyrillic, Latin Extended; not the dashes and curly quotes of
 * General Punctuation, which take the script of their neighbour).
 */
const LATIN_SCRIPT_CHAR = /[\u0021-\u007E\u00A1-\u058F\u1E00-\u1FFF]/u;
const TYPED_GAP = /[ \t\u00A0\u2002-\u200A\u202F]+/gu;

/**
 * Full-width punctuation, and the curly quotes, dashes and ellipsis a CJK face draws a full em wide:
 * the mark carries its own blank, so clreq puts no CJK–Latin gap beside it ("检索：BM25", not
 * "检索：␣BM25"). 〇 is a numeral, not a mark.
 */
const FULL_WIDTH_MARK = /[\u3000-\u3006\u3008-\u303F\u30FB\uFE30-\uFE4F\uFF01-\uFF0F\uFF1A-\uFF20\uFF3B-\uFF40\uFF5B-\uFF65\u2014\u2018\u2019\u201C\u201D\u2026]/u;

/** Whether `ch`, set in a CJK face, is a full-width mark (see FULL_WIDTH_MARK). */
export function isFullWidthMark(ch: string): boolean {
  return FULL_WIDTH_MARK.test(ch);
}

/**
 * Full-width opening brackets. A CJK face draws each in the right half of its em, the left half
 * blank; at a line start clreq and JIS X 4051 set it half width, so its ink lines up with the other
 * lines' first characters instead of sitting half an em in (the .pptx: draw/line-start-brackets.ts;
 * the preview: SlideView). Quotes are left out: beside Latin text they are set in the Latin face.
 */
export const OPENING_BRACKETS = '（［｛｟〈《「『【〔〖〘〚';

/** Whether `line` starts with a full-width opening bracket, whose blank half a line start drops. */
export function startsWithOpeningBracket(line: string): boolean {
  return OPENING_BRACKETS.includes(Array.from(line)[0] ?? '\n');
}

/** How far such a line starts further left, in em of the bracket's size: its glyph's blank half. */
export const LINE_START_BRACKET_TRIM_EM = 0.5;

/** Which lines of a paragraph start LINE_START_BRACKET_TRIM_EM sooner when they start with an opening bracket. */
export interface LineStartTrim {
  first: boolean;
  rest: boolean;
}

/**
 * Which of a paragraph's lines the slide sets half an em sooner when they start with an opening bracket (the file:
 * deck/line-start-brackets.ts; the preview: SlideView): flush-left text only, and a bulleted first line only after
 * the default bullet, which still fits in the room left.
 */
export function lineStartTrim(align: 'left' | 'center' | 'right' | 'justify', p: { bullet: string; level: number; marginPt?: number }): LineStartTrim {
  const flushLeft = align === 'left' || align === 'justify';
  const defaultBullet = p.bullet === 'disc' && p.level === 0 && p.marginPt === undefined;
  return { first: flushLeft && (p.bullet === 'none' || defaultBullet), rest: flushLeft };
}

/**
 * Whether a space typed between these two characters would be a second gap: where CJK meets Latin,
 * LibreOffice adds its own quarter em (clreq's gap), and beside a full-width mark the mark's blank
 * is the gap.
 */
export function meetsAtCjkLatinGap(before: string, after: string): boolean {
  return (HAN_KANA_CHAR.test(before) && LATIN_SCRIPT_CHAR.test(after)) || (LATIN_SCRIPT_CHAR.test(before) && HAN_KANA_CHAR.test(after));
}

/**
 * The text with the spaces typed between Chinese (or Japanese) and Latin letters, digits or ASCII
 * marks taken out: LibreOffice puts a quarter em there itself (clreq's gap), and a typed space on
 * top of it reads as two ("基于 Transformer" drawn "基于  Transformer"). PowerPoint adds no gap of
 * its own, so there the two scripts touch; the rendered PDF, the preview and the check are
 * LibreOffice's.
 */
export function withoutTypedCjkGaps(s: string): string {
  if (!s.includes(' ') && !/[\t\u00A0\u2002-\u200A\u202F]/u.test(s)) return s;
  return s.replace(TYPED_GAP, (gap, at: number) => {
    const prev = Array.from(s.slice(Math.max(0, at - 2), at)).at(-1) ?? ' ';
    const next = Array.from(s.slice(at + gap.length, at + gap.length + 2))[0] ?? ' ';
    return meetsAtCjkLatinGap(prev, next) ? '' : gap;
  });
}

/**
 * Chart text with full-width brackets around Latin text only ("文档数量（chunks）") written with
 * ASCII parentheses ("文档数量(chunks)"), as Chinese publishers set a bracket that holds only
 * Latin text. LibreOffice adds its CJK–Latin gap inside full-width brackets ("（␣chunks␣）"); in
 * slide text a 1 pt stopper run prevents it (text-runs.ts), but a chart's text is drawn at one size
 * whatever its runs say, so there the brackets themselves change. Outside them LibreOffice's quarter
 * em sets the parenthesis off from the Chinese, as it does any Latin word.
 */
export function latinBracketsHalfWidth(s: string): string {
  if (!s.includes('（')) return s;
  return s.replace(/（([^（）]+)）/gu, (whole, inner: string) => (containsCjk(inner) ? whole : `(${inner})`));
}

export interface ScriptRun {
  text: string;
  cjk: boolean;
}

/**
 * Splits text into runs of one script each, so each run can carry the right font (pptxgenjs
 * writes one face into latin/ea/cs of a run). Neutral characters (spaces, curly quotes, dashes)
 * join the run before them, or the next one at the start of the text.
 */
export function splitRunsByScript(s: string): ScriptRun[] {
  const runs: ScriptRun[] = [];
  let pendingNeutral = '';
  for (const ch of s) {
    if (NEUTRAL_CHAR.test(ch)) {
      const last = runs[runs.length - 1];
      if (last) last.text += ch;
      else pendingNeutral += ch;
      continue;
    }
    const cjk = CJK_CHAR.test(ch);
    const last = runs[runs.length - 1];
    if (last && last.cjk === cjk) last.text += ch;
    else {
      runs.push({ text: pendingNeutral + ch, cjk });
      pendingNeutral = '';
    }
  }
  if (pendingNeutral) runs.push({ text: pendingNeutral, cjk: false });
  return runs;
}

/**
 * Words as a reader feels them: each Latin word counts 1, and two CJK characters count 1 (a
 * Chinese word averages about two characters).
 */
export function countWords(s: string): number {
  let cjk = 0;
  const latinOnly = Array.from(s, (ch) => {
    if (!CJK_CHAR.test(ch)) return ch;
    if (/[\p{L}\p{N}]/u.test(ch)) cjk++;
    return ' ';
  }).join('');
  const latin = latinOnly.match(/[\p{L}\p{N}]+(?:['’._-][\p{L}\p{N}]+)*/gu)?.length ?? 0;
  return latin + Math.ceil(cjk / 2);
}

export function isChineseLanguage(language: string | undefined): boolean {
  return language !== undefined && /^zh\b/i.test(language);
}

export function continuationTitle(title: string, language: string): string {
  return isCjkLanguage(language) ? `${title}（续）` : `${title} (cont.)`;
}

function isCjkLanguage(language: string): boolean {
  return /^(zh|ja|ko)\b/i.test(language);
}
