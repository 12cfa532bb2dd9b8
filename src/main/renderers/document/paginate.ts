// The pagination pass: LibreOffice lays the built .docx out once, and what it made becomes the
// document's page numbers and the report's page count.
//
//   1. build the .docx (contents entries without page numbers) and convert it to PDF (sandboxed);
//   2. read every page back: body pages are those whose footer shows an arabic number (the footer
//      numbers the body from 1, the front matter in roman); find each heading on them, in order;
//   3. build again with those numbers in the contents (PAGEREF results, dot leaders to the text
//      width), the TOC field still dirty so Word refreshes it.
//
// In Chinese documents the first reading also finds justified lines letter-spaced because the Latin run after them
// did not fit, and the marks whose blank half would make room (tight-lines.ts); with those set half width
// (compress-marks.ts) the pages are read again, and every build after carries the same marks.
//
// The body restarts its numbering at 1 after a section break, so the contents' length never moves a
// heading's number; it can only change the front matter's page count, when an entry's number pushes
// its line to wrap. Where the fonts' metrics say that may happen, the final file is converted once
// more and, if its pages differ, built a last time (at most two conversions).
//
// Without LibreOffice (or with `enabled: false`, or when the conversion fails) the first build is the
// result: its contents leave the numbers for Word's update, and the report says the page count is
// estimated and why. Only a cancelled signal rejects.
//
// The conversions go through the LibreOffice kept running between renders (soffice-warm.ts): a fresh one spends
// about five seconds starting for each, and a render that reads its pages twice, or a person's next render, would
// pay that again. Its PDFs are the cold conversion's, word for word.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FolioError } from '../../../shared/errors';
import { makeScratchDirSync, removeScratchDirSync } from '../../workspace/scratch';
import { documentTemplates, stripHeadingNumber } from '../../../shared/specs/document';
import { createTextMeasurer } from '../typesetting/fonts';
import { type TextMeasurer } from '../typesetting/text-measurer';
import { readPdfWords } from '../deck/verify/pdf-words';
import { SofficeMissingError, sofficePath } from '../soffice';
import { convertToPdfWarm } from '../soffice-warm';
import { type TocEntry } from './context';
import { fontSet } from './fonts';
import { documentMeasureStyle } from './measure-style';
import { type PageGeometry } from './geometry';
import { missingGlyphIssues } from './glyph-coverage';
import { type LoadedDocument } from './load-folder';
import { type HeadingPages } from './page-numbers';
import { type HeadingPlace, type LaidOutPage, layOutPages, placeHeadings } from './rendered-pages';
import { type DocumentPages, type DocumentReport } from './report';
import { withCompressedMarks } from './compress-marks';
import { type MarkCompression, tightLineCompressions } from './tight-lines';
import { outlineHeadings, sectionLengthIssues } from './section-lengths';

const isChinese = (language: string): boolean => language.toLowerCase().startsWith('zh');

const TWIPS_PER_PT = 20;
/** LibreOffice needs seconds to start and about a second per 20 pages on a slow machine. */
const DEFAULT_TIMEOUT_MS = 120_000;
export const PAGINATION_OFF_REASON = 'pages not laid out (pagination turned off)';
export const SOFFICE_MISSING_REASON = 'LibreOffice not installed';

export type PaginateOptions = {
  /** Lay the pages out when LibreOffice is installed (default true). */
  enabled?: boolean;
  /** Kill one LibreOffice conversion after this long (default 120 s). */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Folders LibreOffice must not see (Folio's data folder). */
  hiddenPaths?: readonly string[];
  /** Measures the contents' lines to decide whether a second conversion is needed (default: the font-file measurer). */
  measurer?: TextMeasurer;
};

/** What one build gives the pass (index.ts's buildDocx). */
export type Build = (headingPages?: HeadingPages) => Promise<{
  bytes: Uint8Array;
  pageEstimate: number;
  report: DocumentReport;
  toc: readonly TocEntry[];
  geometry: PageGeometry;
}>;

export type PaginatedDocx = {
  bytes: Uint8Array;
  /** The page count worked out from character counts (the report's count when the pages were not laid out). */
  pageEstimate: number;
  report: DocumentReport;
  /** LibreOffice conversions made (0 to 3). */
  conversions: number;
  /** The marks set half width in `bytes`: a copy with the same body (the submission copy) takes them too. */
  compressions: readonly MarkCompression[];
};

type Reading = { pages: LaidOutPage[]; places: (HeadingPlace | null)[]; compressions: MarkCompression[] };
/** What finding letter-spaced lines needs: the document's language (its body faces), and a measurer for the Latin run that did not fit. */
type Tightening = { language: string; measurer: TextMeasurer };

async function layOut(bytes: Uint8Array, toc: readonly TocEntry[], geometry: PageGeometry, opts: PaginateOptions, tightening: Tightening | null): Promise<Reading> {
  const work = makeScratchDirSync('folio-paginate-');
  try {
    const input = join(work, 'document.docx');
    writeFileSync(input, bytes);
    const pdf = await convertToPdfWarm(input, {
      timeoutMs: opts.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      label: 'the document',
      ...(opts.signal ? { signal: opts.signal } : {}),
      ...(opts.hiddenPaths ? { hiddenPaths: opts.hiddenPaths } : {}),
    });
    const words = await readPdfWords(pdf, { w: geometry.width / TWIPS_PER_PT, h: geometry.height / TWIPS_PER_PT }, opts.signal);
    const pages = layOutPages(words, geometry);
    const places = placeHeadings(
      pages,
      toc.map((e) => ({ title: e.title, text: stripHeadingNumber(e.title) })),
    );
    const box = {
      left: geometry.margin.left / TWIPS_PER_PT,
      right: (geometry.width - geometry.margin.right) / TWIPS_PER_PT,
      top: geometry.margin.top / TWIPS_PER_PT,
      bottom: (geometry.height - geometry.margin.bottom) / TWIPS_PER_PT,
    };
    const widthOf = (text: string, sizePt: number): number => tightening?.measurer.widthPt(text, documentMeasureStyle('body', tightening.language, sizePt)) ?? 0;
    const compressions = tightening ? tightLineCompressions(words.map((page) => page.runs ?? []), box, widthOf) : [];
    return { pages, places, compressions };
  } finally {
    removeScratchDirSync(work);
  }
}

function headingPagesOf(toc: readonly TocEntry[], places: readonly (HeadingPlace | null)[]): Map<string, number> {
  const pages = new Map<string, number>();
  toc.forEach((entry, i) => {
    const place = places[i];
    if (place) pages.set(entry.href, place.bodyPage);
  });
  return pages;
}

function samePages(a: ReadonlyMap<string, number>, b: ReadonlyMap<string, number>): boolean {
  return a.size === b.size && [...a].every(([k, v]) => b.get(k) === v);
}

/**
 * Whether writing the page numbers may make a contents line wrap: an entry's last line, its number
 * and a leader's worth of room no longer fit the text width (less the level's indent: docx's TOC
 * styles indent each level by the body size).
 */
export function contentsMayReflow(
  toc: readonly TocEntry[],
  pages: ReadonlyMap<string, number>,
  ctx: { language: string; bodySizePt: number; textWidthPt: number },
  measurer: TextMeasurer,
): boolean {
  const style = documentMeasureStyle('body', ctx.language, ctx.bodySizePt);
  return toc.some((entry) => {
    const page = pages.get(entry.href);
    if (page === undefined) return false;
    const width = ctx.textWidthPt - (entry.level - 1) * ctx.bodySizePt;
    const last = measurer.wrap(entry.title, style, width).at(-1) ?? '';
    return measurer.widthPt(`${last} ${page}`, style) + ctx.bodySizePt * 2 > width;
  });
}

function estimated(built: { bytes: Uint8Array; pageEstimate: number; report: DocumentReport }, reason: string, extra: DocumentReport['issues']): PaginatedDocx {
  const pages: DocumentPages = { mode: 'estimated', total: built.pageEstimate, reason };
  return { bytes: built.bytes, pageEstimate: built.pageEstimate, report: { ...built.report, issues: [...built.report.issues, ...extra], pages }, conversions: 0, compressions: [] };
}

function reasonOf(err: unknown): string {
  if (err instanceof SofficeMissingError) return SOFFICE_MISSING_REASON;
  return err instanceof Error ? err.message : String(err);
}

/** Pages from the first body page, down to the baseline: 2.5 is halfway down the third body page. */
function positionOf(place: HeadingPlace, firstBody: number, geometry: PageGeometry): number {
  const top = geometry.margin.top / TWIPS_PER_PT;
  return place.pdfPage - firstBody + (place.baseline - top) / (geometry.textHeight / TWIPS_PER_PT);
}

export async function paginate(loaded: LoadedDocument, build: Build, opts: PaginateOptions = {}): Promise<PaginatedDocx> {
  const first = await build();
  const template = loaded.spec.template;
  const headings = outlineHeadings(loaded);
  const glyphs = missingGlyphIssues(loaded);
  const convertible = (opts.enabled ?? true) && sofficePath() !== null;
  if (!convertible) {
    const reason = (opts.enabled ?? true) ? SOFFICE_MISSING_REASON : PAGINATION_OFF_REASON;
    return estimated(first, reason, [...glyphs, ...sectionLengthIssues(template, headings, null, null)]);
  }

  const { toc, geometry } = first;
  const measurer = opts.measurer ?? createTextMeasurer();
  const bodyFonts = fontSet('body', loaded.spec.language);
  const tightening = isChinese(loaded.spec.language) ? { language: loaded.spec.language, measurer } : null;
  let reading: Reading;
  let conversions = 0;
  let compressions: MarkCompression[] = [];
  let final;
  try {
    reading = await layOut(first.bytes, toc, geometry, opts, tightening);
    conversions += 1;
    if (reading.compressions.length > 0) {
      const compressed = await withCompressedMarks(first.bytes, reading.compressions, bodyFonts.eastAsia);
      if (compressed !== first.bytes) {
        compressions = reading.compressions;
        reading = await layOut(compressed, toc, geometry, opts, null);
        conversions += 1;
      }
    }
    const buildCompressed = async (headingPages: HeadingPages): ReturnType<Build> => {
      const built = await build(headingPages);
      return { ...built, bytes: await withCompressedMarks(built.bytes, compressions, bodyFonts.eastAsia) };
    };
    let pages = headingPagesOf(toc, reading.places);
    final = await buildCompressed(pages);
    const reflow = contentsMayReflow(
      toc,
      pages,
      { language: loaded.spec.language, bodySizePt: documentTemplates[template].bodySizePt, textWidthPt: geometry.textWidth / TWIPS_PER_PT },
      measurer,
    );
    if (reflow) {
      reading = await layOut(final.bytes, toc, geometry, opts, null);
      conversions += 1;
      const again = headingPagesOf(toc, reading.places);
      if (!samePages(pages, again)) {
        pages = again;
        final = await buildCompressed(pages);
      }
    }
  } catch (err) {
    if (err instanceof FolioError && err.code === 'cancelled') throw err;
    return estimated(first, reasonOf(err), [...glyphs, ...sectionLengthIssues(template, headings, null, null)]);
  }

  const firstBody = reading.pages.findIndex((p) => p.bodyNumber !== null);
  const bodyPages = reading.pages.filter((p) => p.bodyNumber !== null).length;
  const pagesReport: DocumentPages = {
    mode: 'rendered',
    total: reading.pages.length,
    body: bodyPages,
    contents: toc.map((entry, i) => ({ level: entry.level, title: entry.title, page: reading.places[i]?.bodyPage ?? null })),
  };
  // Headings the contents lists are, in order, the outline's headings of depth 1–3.
  const listed = headings.flatMap((h, i) => (h.depth <= 3 ? [i] : []));
  const positions: (number | null)[] = headings.map(() => null);
  if (listed.length === toc.length) {
    listed.forEach((headingIndex, i) => {
      const place = reading.places[i];
      if (place) positions[headingIndex] = positionOf(place, firstBody, geometry);
    });
  }
  const lastPage = reading.pages.length - 1;
  const end = firstBody < 0 ? null : positionOf({ pdfPage: lastPage, bodyPage: 0, baseline: reading.pages[lastPage]?.lastBaseline ?? 0 }, firstBody, geometry);
  const issues = [...final.report.issues, ...glyphs, ...sectionLengthIssues(template, headings, positions, end)];
  return { bytes: final.bytes, pageEstimate: first.pageEstimate, report: { ...final.report, issues, pages: pagesReport }, conversions, compressions };
}
