// Width tables: per-character widths in em by class, tuned to err on the wide side. The fallback
// when a face has no font file (fonts/table-measurer.ts wraps them in the TextMeasurer interface).
import { isCjkChar } from '../../../shared/specs/deck';

const NARROW = new Set("il.,;:'|!`ItfjrI()[]{}".split(''));
const WIDE = new Set('mwMW@%'.split(''));

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
