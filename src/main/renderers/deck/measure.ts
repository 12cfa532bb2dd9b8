// Text measurement without a font engine: per-character widths in em by class, tuned to err on the
// wide side so a line we think fits also fits in PowerPoint and LibreOffice. Wrapping follows
// what both clients do: Latin breaks at spaces, CJK may break between any two characters except
// before closing punctuation.
import { isCjkChar } from '../../../shared/specs/deck';

const NARROW = new Set("il.,;:'|!`ItfjrI()[]{}".split(''));
const WIDE = new Set('mwMW@%'.split(''));
/** CJK punctuation that may not start a line (kinsoku): it stays with the character before it. */
const NO_BREAK_BEFORE = new Set('，。、；：！？）》」』】〉”’…—·%,.;:!?)]}'.split(''));

export function charWidthEm(ch: string): number {
  if (isCjkChar(ch)) return 1;
  if (ch === ' ' || ch === '\u00A0') return 0.27;
  if (NARROW.has(ch)) return 0.28;
  if (WIDE.has(ch)) return 0.85;
  if (/[0-9]/.test(ch)) return 0.55;
  if (/[A-Z]/.test(ch)) return 0.65;
  if (/[a-z]/.test(ch)) return 0.52;
  if (ch === '-' || ch === '–') return 0.36;
  if (ch === '—') return 1;
  if (/[\p{L}\p{N}]/u.test(ch)) return 0.6;
  return 0.45;
}

export function textWidthEm(text: string, bold = false): number {
  let em = 0;
  for (const ch of text) em += charWidthEm(ch);
  return bold ? em * 1.06 : em;
}

export function textWidthIn(text: string, sizePt: number, bold = false): number {
  return (textWidthEm(text, bold) * sizePt) / 72;
}

/** Break opportunities: a Latin word, a space, or one CJK character (with trailing punctuation). */
function tokenize(text: string): string[] {
  const tokens: string[] = [];
  let word = '';
  let breakAfterWord = false;
  const flush = (): void => {
    if (word) tokens.push(word);
    word = '';
    breakAfterWord = false;
  };
  for (const ch of text) {
    if (ch === ' ') {
      flush();
      tokens.push(' ');
      continue;
    }
    if (NO_BREAK_BEFORE.has(ch)) {
      const last = tokens[tokens.length - 1];
      if (!word && last !== undefined && last !== ' ') word = tokens.pop() ?? '';
      word += ch;
      if (isCjkChar(ch)) breakAfterWord = true;
      continue;
    }
    if (isCjkChar(ch)) {
      flush();
      word = ch;
      breakAfterWord = true;
      continue;
    }
    if (breakAfterWord) flush();
    word += ch;
  }
  flush();
  return tokens;
}

/** Wraps one paragraph (no newlines) into lines no wider than `widthIn`. Never returns zero lines. */
export function wrapParagraph(text: string, sizePt: number, widthIn: number, bold = false): string[] {
  const maxEm = Math.max(0.5, (widthIn * 72) / sizePt / (bold ? 1.06 : 1));
  const lines: string[] = [];
  let line = '';
  let lineEm = 0;
  const pushLine = (): void => {
    lines.push(line.trimEnd());
    line = '';
    lineEm = 0;
  };
  for (const token of tokenize(text)) {
    const em = textWidthEm(token);
    if (token === ' ') {
      if (line) {
        line += token;
        lineEm += em;
      }
      continue;
    }
    if (lineEm + em <= maxEm) {
      line += token;
      lineEm += em;
      continue;
    }
    if (line.trim()) pushLine();
    else {
      line = '';
      lineEm = 0;
    }
    if (em <= maxEm) {
      line = token;
      lineEm = em;
      continue;
    }
    // A word longer than the line: break it by character, as both clients do.
    for (const ch of token) {
      const w = charWidthEm(ch);
      if (lineEm + w > maxEm && line) pushLine();
      line += ch;
      lineEm += w;
    }
  }
  if (line.trim() || lines.length === 0) lines.push(line.trimEnd());
  return lines;
}

/** Wraps text that may contain newlines (each one starts a new paragraph line). */
export function wrapText(text: string, sizePt: number, widthIn: number, bold = false): string[] {
  return text.split(/\r?\n/).flatMap((p) => wrapParagraph(p, sizePt, widthIn, bold));
}

export function lineHeightIn(sizePt: number, lineHeight: number): number {
  return (sizePt * lineHeight) / 72;
}

/** Exact line spacing in points as written to the file (so measurement and rendering agree). */
export function lineSpacingPt(sizePt: number, lineHeight: number): number {
  return Math.round(sizePt * lineHeight * 10) / 10;
}
