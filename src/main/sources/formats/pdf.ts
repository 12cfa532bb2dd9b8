// PDF → page text with pdfjs-dist, one page at a time so memory stays bounded by the largest page,
// not the document. A session can extract any range of pages, so two workers can share a file.
import { type ExtractionResult, type ProgressFn } from '../types';
import { pdfjsDataParams } from './pdfjs-data';
import { directWorker, loadPdfjs, type Pdfjs, textOnlyParams } from './pdfjs-load';
import { maxUnzippedBytes, tooLarge } from '../limits';
import { assemblePdf, type PageText, type PdfHead, UNREADABLE_PAGE_TEXT } from './pdf-assemble';
import { pdfInflatesBeyond } from './pdf-inflate';
import { PageTextReader } from './pdf-pages';

type PdfDocument = Awaited<ReturnType<Pdfjs['getDocument']>['promise']>;
type OutlineNode = Awaited<ReturnType<PdfDocument['getOutline']>>[number];

const MAX_OUTLINE_ENTRIES = 300;

function isSpaceCode(code: number): boolean {
  if (code === 32 || (code >= 9 && code <= 13)) return true;
  return code > 127 && /\s/u.test(String.fromCharCode(code));
}

function hasNonSpace(text: string): boolean {
  for (let i = 0; i < text.length; i += 1) if (!isSpaceCode(text.charCodeAt(i))) return true;
  return false;
}

function numberOr(value: unknown, fallback: number): number {
  return typeof value === 'number' ? value : value === undefined || value === null ? fallback : Number(value);
}

/**
 * Joins text runs into lines: a run whose baseline moves by more than half its height starts a new
 * line, as does `hasEOL`; a vertical gap of about two lines becomes a blank line (a paragraph).
 * Runs on one line are separated by a space only when there is a visible horizontal gap, so CJK
 * text, which has no spaces, is not broken up.
 *
 * It runs for every text item of every page, so it reads the items in place and tracks the line's
 * state in scalars instead of re-scanning the line string (which made long lines quadratic).
 */
/** Han, kana, CJK punctuation and fullwidth forms: text that is written without spaces. */
function isCjkCode(code: number): boolean {
  return (
    (code >= 0x3000 && code <= 0x30ff) || (code >= 0x3400 && code <= 0x9fff) || (code >= 0xf900 && code <= 0xfaff) || (code >= 0xff00 && code <= 0xffef)
  );
}

export function joinRuns(items: readonly unknown[]): string {
  let out = '';
  let line = '';
  let lineHasText = false;
  let lineEndsWithSpace = false;
  let lineY = 0;
  let lineStarted = false;
  let lineHeight = 0;
  let lastEndX = 0;
  let hasLastEndX = false;
  let prevLineY = 0;
  let hasPrevLine = false;

  const flush = () => {
    if (lineHasText) {
      let end = line.length;
      while (end > 0 && isSpaceCode(line.charCodeAt(end - 1))) end -= 1;
      const text = line.slice(0, end);
      if (hasPrevLine) out += prevLineY - lineY > lineHeight * 1.8 ? '\n\n' : '\n';
      out += text;
      prevLineY = lineY;
      hasPrevLine = true;
    }
    line = '';
    lineHasText = false;
    lineEndsWithSpace = false;
    lineStarted = false;
    hasLastEndX = false;
  };

  for (const item of items) {
    if (typeof item !== 'object' || item === null) continue;
    const run = item as { str?: unknown; transform?: unknown; width?: unknown; height?: unknown; hasEOL?: unknown };
    const str = run.str;
    if (typeof str !== 'string') continue;
    const t = Array.isArray(run.transform) ? (run.transform as unknown[]) : null;
    const x = t ? numberOr(t[4], 0) : 0;
    const y = t ? numberOr(t[5], 0) : 0;
    const rawHeight = typeof run.height === 'number' ? Math.abs(run.height) : 0;
    const height = rawHeight || (t ? Math.abs(numberOr(t[3], 0)) : 0) || 10;
    const width = typeof run.width === 'number' ? run.width : 0;

    if (lineStarted && lineHasText && Math.abs(y - lineY) > Math.max(height, lineHeight) * 0.5) flush();
    if (str !== '') {
      if (!lineStarted) {
        lineStarted = true;
        lineY = y;
        lineHeight = height;
      } else if (
        hasLastEndX &&
        x - lastEndX > height * 0.2 &&
        !lineEndsWithSpace &&
        !isSpaceCode(str.charCodeAt(0)) &&
        // Justified Chinese text spreads characters apart; CJK is written without spaces, and a
        // space inserted there would break search for the words (grep 文档智能 must match).
        !(isCjkCode(line.charCodeAt(line.length - 1)) && isCjkCode(str.charCodeAt(0)))
      ) {
        line += ' ';
      }
      line += str;
      if (!lineHasText) lineHasText = hasNonSpace(str);
      lineEndsWithSpace = isSpaceCode(str.charCodeAt(str.length - 1));
      lastEndX = x + width;
      hasLastEndX = true;
    }
    if (run.hasEOL === true) flush();
  }
  flush();
  return out;
}

function infoString(info: unknown, key: string): string | undefined {
  if (typeof info !== 'object' || info === null || !(key in info)) return undefined;
  const value = (info as Record<string, unknown>)[key];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

async function pageOfDest(doc: PdfDocument, dest: OutlineNode['dest']): Promise<number | null> {
  try {
    const explicit: unknown = typeof dest === 'string' ? await doc.getDestination(dest) : dest;
    if (!Array.isArray(explicit)) return null;
    const target: unknown = explicit[0];
    if (typeof target === 'number') return target + 1;
    if (typeof target === 'object' && target !== null && 'num' in target && 'gen' in target && typeof target.num === 'number' && typeof target.gen === 'number') {
      return (await doc.getPageIndex({ num: target.num, gen: target.gen })) + 1;
    }
  } catch {
    // an outline entry pointing nowhere is still worth listing, without a page
  }
  return null;
}

async function outlineLines(doc: PdfDocument): Promise<string[]> {
  let outline: OutlineNode[] | null = null;
  try {
    outline = await doc.getOutline();
  } catch {
    return [];
  }
  const out: string[] = [];
  const visit = async (nodes: readonly OutlineNode[], depth: number) => {
    for (const node of nodes) {
      if (out.length >= MAX_OUTLINE_ENTRIES) return;
      const page = await pageOfDest(doc, node.dest);
      out.push(`${'  '.repeat(depth)}- ${node.title.trim() || '(untitled)'}${page === null ? '' : ` (page ${page})`}`);
      const children: unknown = node.items;
      if (Array.isArray(children)) await visit(children as OutlineNode[], depth + 1);
    }
  };
  await visit(outline ?? [], 0);
  return out;
}

function errorName(err: unknown): string {
  return typeof err === 'object' && err !== null && 'name' in err && typeof err.name === 'string' ? err.name : '';
}

function failure(message: string): ExtractionResult {
  return { status: 'error', markdown: '', pages: null, message };
}

export interface PdfSession {
  readonly total: number;
  /** Title, author and outline: only the worker that owns page 1 needs to read them. */
  head(): Promise<PdfHead>;
  page(n: number): Promise<PageText>;
  close(): Promise<void>;
}

export type OpenedPdf = { session: PdfSession } | { failure: ExtractionResult };

/** Opens a PDF for page-by-page extraction; a bad or encrypted file becomes a typed failure. */
export async function openPdf(bytes: Uint8Array): Promise<OpenedPdf> {
  // Bounded like an Office file's XML: the compressed streams may unpack to so many times the file.
  const limit = maxUnzippedBytes(bytes.byteLength);
  if (pdfInflatesBeyond(bytes, limit).exceeded) return { failure: failure(tooLarge('its compressed streams unpack to more than', limit, limit)) };
  const pdfjs = await loadPdfjs();
  const worker = directWorker(pdfjs);
  let doc: PdfDocument;
  try {
    doc = await pdfjs.getDocument({ ...textOnlyParams(pdfjs, bytes, worker), stopAtErrors: false, ...pdfjsDataParams() }).promise;
  } catch (err) {
    worker?.destroy();
    const name = errorName(err);
    if (name === 'PasswordException') return { failure: failure('encrypted PDF: remove the password and add it again') };
    if (name === 'InvalidPDFException') return { failure: failure('corrupt or truncated PDF') };
    return { failure: failure(`corrupt or truncated PDF (${err instanceof Error ? err.message : String(err)})`) };
  }
  const reader = new PageTextReader(doc);
  return {
    session: {
      total: doc.numPages,
      head: async () => {
        const { info } = await doc.getMetadata().catch(() => ({ info: {} }));
        const title = infoString(info, 'Title');
        const author = infoString(info, 'Author');
        return { ...(title ? { title } : {}), ...(author ? { author } : {}), outline: await outlineLines(doc) };
      },
      page: async (n) => {
        try {
          return { text: joinRuns(await reader.items(n)), unreadable: false };
        } catch {
          return { text: UNREADABLE_PAGE_TEXT, unreadable: true };
        }
      },
      close: async () => {
        await doc.destroy();
        worker?.destroy();
      },
    },
  };
}

/** The whole file in this thread, page after page (the main thread may instead split the pages across workers). */
export async function extractPdf(bytes: Uint8Array, onProgress: ProgressFn): Promise<ExtractionResult> {
  const opened = await openPdf(bytes);
  if ('failure' in opened) return opened.failure;
  const { session } = opened;
  try {
    const head = await session.head();
    const pages: PageText[] = [];
    for (let n = 1; n <= session.total; n += 1) {
      pages.push(await session.page(n));
      onProgress(n, session.total);
    }
    return assemblePdf(head, pages);
  } finally {
    await session.close();
  }
}
