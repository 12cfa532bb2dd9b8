// PDF pages read back with poppler for the LibreOffice tests: words with their boxes, grouped as pdftotext groups
// them, and how far a justified line spaces its Chinese characters apart. Used by tests only.
import { spawnSync } from 'node:child_process';

export type Word = { xMin: number; yMin: number; xMax: number; yMax: number; text: string };

/** A4 with NSFC's margins (1803 twips left and right), in points: where the text's right edge is. */
export const RIGHT_EDGE_PT = (11906 - 1803) / 20;

export function wordsOf(xml: string): Word[] {
  return [...xml.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/gu)].map((m) => ({
    xMin: Number(m[1]),
    yMin: Number(m[2]),
    xMax: Number(m[3]),
    yMax: Number(m[4]),
    text: m[5] ?? '',
  }));
}

/**
 * A document's lines as `pdftotext -layout` prints them, one array per page, white space removed (justified Chinese
 * comes back spaced apart, a line's words joined by padding) and blank lines dropped.
 */
export function pdfLines(pdf: string): string[][] {
  const text = spawnSync('pdftotext', ['-layout', '-enc', 'UTF-8', pdf, '-'], { encoding: 'utf8', maxBuffer: 64 << 20 }).stdout;
  // Every page ends with a form feed, so the text after the last one is no page.
  return text
    .split('\f')
    .slice(0, -1)
    .map((page) =>
      page
        .split('\n')
        .map((line) => line.replace(/\s+/gu, ''))
        .filter((line) => line !== ''),
    );
}

/** Pages → blocks (pdftotext's paragraphs) → lines → words, from `pdftotext -bbox-layout`. */
export function bboxBlocks(pdf: string): Word[][][][] {
  const html = spawnSync('pdftotext', ['-bbox-layout', '-enc', 'UTF-8', pdf, '-'], { encoding: 'utf8', maxBuffer: 64 << 20 }).stdout;
  return html.split('<page ').slice(1).map((page) => page.split('<block ').slice(1).map((block) => block.split('<line ').slice(1).map(wordsOf)));
}

/** The most a justified line may space its Chinese characters apart, in ems: a tenth is hardly seen. */
export const MAX_LETTER_SPACING_EM = 0.1;
const CJK_ONLY = /^[\p{Script=Han}\u3000-\u303f\uff00-\uffef“”]+$/u;

/**
 * How far apart a line sets its Chinese characters beyond their em, in ems. pdftotext keeps closely set Chinese as
 * one word (its width over its characters tells the spacing) and splits letter-spaced Chinese into characters.
 */
export function letterSpacing(line: readonly Word[]): number {
  let most = 0;
  line.forEach((w, i) => {
    if (!CJK_ONLY.test(w.text)) return;
    // Body text's line box is 1.3 times its size.
    const size = (w.yMax - w.yMin) / 1.3;
    const chars = [...w.text].length;
    most = Math.max(most, (w.xMax - w.xMin) / chars / size - 1);
    const next = line[i + 1];
    if (chars === 1 && next && CJK_ONLY.test(next.text)) most = Math.max(most, (next.xMin - w.xMax) / size);
  });
  return most;
}

/**
 * The justified lines (they run to the right margin) spaced over the limit, as "page N: text (0.17 em)". The
 * spacing is compared to a hundredth of an em, as far as pdftotext's boxes (to a hundredth of a point) tell it.
 */
export function letterSpacedLines(pdf: string): string[] {
  return bboxBlocks(pdf).flatMap((blocks, page) =>
    blocks
      .flat()
      .filter((line) => (line.at(-1)?.xMax ?? 0) >= RIGHT_EDGE_PT - 2 && Math.round(letterSpacing(line) * 100) / 100 > MAX_LETTER_SPACING_EM)
      .map((line) => `page ${page + 1}: ${line.map((w) => w.text).join('')} (${letterSpacing(line).toFixed(3)} em)`),
  );
}
