// Reads back the pages LibreOffice laid a document out on: which PDF pages are the body (their footer
// shows an arabic page number; the cover and contents show none or roman ones), where each heading
// landed, and how many lines the running header took. Words and their positions come from the deck's
// PDF reader (pdfjs), in points from the page's top left; headings are found as token sequences (the
// tokens the rendered-slide check compares: letters/digits runs and single CJK characters, no
// punctuation), so LibreOffice's spacing, full-width marks and line breaks don't matter.
import { type RenderedPage, type RenderedWord } from '../deck/verify/pdf-words';
import { tokenize } from '../deck/verify/tokens';
import { type PageGeometry } from './geometry';

const TWIPS_PER_PT = 20;
/** Baselines closer than this (points) are one line. */
const SAME_LINE_PT = 2;

export type LaidOutPage = {
  /** The number the page's footer shows, when it is an arabic one (a body page); null for front matter. */
  bodyNumber: number | null;
  /** The body text's tokens (between the margins), in reading order, with their baselines (points from the top). */
  tokens: { key: string; baseline: number }[];
  /** Lines of text above the top margin (the running header). */
  headerLines: number;
  /** Baseline of the last line of body text, points from the top (0 on an empty page). */
  lastBaseline: number;
};

export type HeadingPlace = { pdfPage: number; bodyPage: number; baseline: number };

function lines(words: readonly RenderedWord[]): RenderedWord[][] {
  const sorted = [...words].sort((a, b) => a.baseline - b.baseline || a.x - b.x);
  const out: RenderedWord[][] = [];
  for (const word of sorted) {
    const line = out.at(-1);
    if (line && Math.abs((line[0]?.baseline ?? 0) - word.baseline) < SAME_LINE_PT) line.push(word);
    else out.push([word]);
  }
  return out.map((line) => line.sort((a, b) => a.x - b.x));
}

/** Splits each page into header, body and footer bands by the page margins and reads the footer's number. */
export function layOutPages(pages: readonly RenderedPage[], geometry: PageGeometry): LaidOutPage[] {
  const top = geometry.margin.top / TWIPS_PER_PT;
  const bottom = (geometry.height - geometry.margin.bottom) / TWIPS_PER_PT;
  return pages.map((page) => {
    const header = page.words.filter((w) => w.baseline < top);
    const footer = page.words.filter((w) => w.y > bottom);
    const body = page.words.filter((w) => w.baseline >= top && w.y <= bottom);
    // "第 3 页" or "3": the body's footer; roman numerals (front matter) are letters, not digits.
    const footerNumbers = footer.map((w) => w.text).filter((t) => /^\d+$/u.test(t));
    const bodyLines = lines(body);
    return {
      bodyNumber: footerNumbers.length === 1 ? Number(footerNumbers[0]) : null,
      tokens: bodyLines.flat().map((w) => ({ key: w.key, baseline: w.baseline })),
      headerLines: lines(header).length,
      lastBaseline: bodyLines.at(-1)?.[0]?.baseline ?? 0,
    };
  });
}

function findSequence(tokens: readonly { key: string }[], wanted: readonly string[], from: number): number {
  outer: for (let i = from; i + wanted.length <= tokens.length; i += 1) {
    for (let k = 0; k < wanted.length; k += 1) if (tokens[i + k]?.key !== wanted[k]) continue outer;
    return i;
  }
  return -1;
}

/**
 * Where each heading landed, searched in document order through the body pages (the contents,
 * which repeat every title, are front matter and never searched). A heading is looked for with its
 * number first ("一、立项依据"), then by its text alone; one that is not found gets null and the
 * search goes on from the last heading found.
 */
export function placeHeadings(pages: readonly LaidOutPage[], headings: readonly { title: string; text?: string }[]): (HeadingPlace | null)[] {
  let page = pages.findIndex((p) => p.bodyNumber !== null);
  let offset = 0;
  return headings.map((heading) => {
    if (page < 0) return null;
    const candidates = [heading.title, heading.text].filter((t): t is string => typeof t === 'string' && t !== '');
    for (const candidate of candidates) {
      const wanted = tokenize(candidate).map((t) => t.key);
      if (wanted.length === 0) continue;
      for (let p = page; p < pages.length; p += 1) {
        const current = pages[p];
        if (!current || current.bodyNumber === null) continue;
        const at = findSequence(current.tokens, wanted, p === page ? offset : 0);
        if (at < 0) continue;
        page = p;
        offset = at + wanted.length;
        return { pdfPage: p, bodyPage: current.bodyNumber, baseline: current.tokens[at]?.baseline ?? 0 };
      }
    }
    return null;
  });
}
