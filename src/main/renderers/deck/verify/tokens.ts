// Words as the rendered-slide check compares them: what the layout put in a box and what the PDF
// shows must split the same way, whatever LibreOffice did to runs, lines and punctuation. A token is
// a run of letters/digits (Latin, Cyrillic, Hangul, …) or one Han/kana character, since CJK lines
// break between any two characters. Punctuation, bullets and emoji are not tokens: renderers
// substitute them (smart quotes, bullet glyphs, auto-numbers) or draw them from other fonts.

export interface Token {
  /** Normalised for comparison (NFKC, lower case). */
  key: string;
  /** As written. */
  text: string;
  /** Offsets in the source string. */
  start: number;
  end: number;
}

const WORD = /[\p{L}\p{N}\p{M}]+/gu;
const SINGLE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;

const key = (text: string): string => text.normalize('NFKC').toLowerCase();

export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  for (const match of text.matchAll(WORD)) {
    const run = match[0];
    const base = match.index;
    let start = 0;
    let i = 0;
    const flush = (end: number) => {
      if (end > start) tokens.push({ key: key(run.slice(start, end)), text: run.slice(start, end), start: base + start, end: base + end });
    };
    for (const ch of run) {
      if (SINGLE.test(ch)) {
        flush(i);
        tokens.push({ key: key(ch), text: ch, start: base + i, end: base + i + ch.length });
        start = i + ch.length;
      }
      i += ch.length;
    }
    flush(i);
  }
  return tokens;
}

/** Whether a token is one CJK character (it takes a full em; Latin letters about half). */
export function isSingleCharToken(text: string): boolean {
  return SINGLE.test(text) && [...text].length === 1;
}
