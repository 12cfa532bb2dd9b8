// Counting CJK characters and Latin words, and how wide text sets: the basis of the stats, the
// long-paragraph check, table column widths and the page estimate.

// Han ideographs, kana, hangul and CJK/full-width punctuation: each is one em wide and counts as one "word".
const CJK = /[\u3000-\u303f\u3040-\u30ff\u3100-\u312f\u3130-\u318f\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]/u;
const CJK_GLOBAL = new RegExp(CJK.source, 'gu');
const HAN_GLOBAL = /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]/gu;
const LATIN_WORD = /[\p{L}\p{N}]+(?:['’.-][\p{L}\p{N}]+)*/gu;

export function containsCjk(text: string): boolean {
  return CJK.test(text);
}

/** Han characters (汉字): what Chinese writers call 字数. */
export function countCjkChars(text: string): number {
  return text.match(HAN_GLOBAL)?.length ?? 0;
}

/** Words of non-CJK text: runs of letters/digits once CJK characters are taken out. */
export function countWords(text: string): number {
  return text.replace(CJK_GLOBAL, ' ').match(LATIN_WORD)?.length ?? 0;
}

/** Width in ems at the body size: CJK characters are full width, everything else about half. */
export function emWidth(text: string): number {
  let width = 0;
  for (const ch of text) width += CJK.test(ch) ? 1 : ch === '\n' ? 0 : 0.5;
  return width;
}

/** Joins the lines of a soft-wrapped markdown paragraph: no space between CJK characters, a space elsewhere. */
export function joinSoftBreaks(text: string): string {
  return text.replace(/([^\n]?)[ \t]*\n[ \t]*([^\n]?)/gu, (_m, before: string, after: string) =>
    before + ((before === '' || containsCjk(before)) && (after === '' || containsCjk(after)) ? '' : ' ') + after,
  );
}

export type Script = 'cjk' | 'cjkPunctuation' | 'latin';
const CJK_PUNCTUATION = /[\u3000-\u303f\uff00-\uffef]/u;

/**
 * Splits text into runs of one script: CJK ideographs/kana/hangul, CJK punctuation, everything else. Bold and
 * emphasis differ by script (黑体 and 着重号 for CJK, bold and italic faces for Latin), so runs are split here.
 */
export function splitByScript(text: string): { text: string; script: Script }[] {
  const out: { text: string; script: Script }[] = [];
  for (const ch of text) {
    const script: Script = CJK_PUNCTUATION.test(ch) ? 'cjkPunctuation' : CJK.test(ch) ? 'cjk' : 'latin';
    const last = out[out.length - 1];
    if (last && last.script === script) last.text += ch;
    else out.push({ text: ch, script });
  }
  return out;
}

const TYPED_SPACE_AFTER_HAN = /(\p{Script=Han}|[\u3000-\u303f\uff00-\uffef])[ \t\u00a0]+(?=[\p{Script=Latin}\p{N}[(（]|\p{Script=Han}|[\u3000-\u303f\uff00-\uffef])/gu;
const TYPED_SPACE_BEFORE_HAN = /([\p{Script=Latin}\p{N}%)\]）])[ \t\u00a0]+(?=\p{Script=Han}|[\u3000-\u303f\uff00-\uffef])/gu;
const DOUBLE_SPACE = /([^ \t]) {2,}(?=[^ \t])/gu;

/**
 * Spaces as a typesetter sets Chinese text (clreq): Word and LibreOffice put about a quarter em between Han
 * characters and Latin letters or digits themselves (autoSpaceDE / autoSpaceDN), so a typed space there would
 * double it and is dropped; a space between Han characters or next to CJK punctuation is dropped too, and runs
 * of spaces become one.
 */
export function typesetSpaces(text: string): string {
  return text.replace(TYPED_SPACE_AFTER_HAN, '$1').replace(TYPED_SPACE_BEFORE_HAN, '$1').replace(DOUBLE_SPACE, '$1 ');
}

/**
 * typesetSpaces for a piece of text between two others (a link, bold text, inline code): the characters just
 * before and after it decide its edge spaces, so "见 https://x.org 的说明" loses both typed spaces around the URL.
 */
export function typesetSpacesBetween(text: string, before: string, after: string): string {
  const lead = /^\S$/u.test(before) ? before : '';
  const tail = /^\S$/u.test(after) ? after : '';
  // typesetSpaces removes only spaces, so the borrowed characters are still at both ends.
  const set = typesetSpaces(lead + text + tail);
  return set.slice(lead.length, set.length - tail.length);
}
