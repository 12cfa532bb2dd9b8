// PDF → page-marked markdown with pdfjs-dist, one page at a time so memory stays bounded by the
// largest page, not the document.
import { createRequire } from 'node:module';
import path from 'node:path';
import type * as PdfjsModule from 'pdfjs-dist/legacy/build/pdf.mjs';
import { type ExtractionResult, type ProgressFn } from '../types';
import { pageMarker } from './markdown';

type Pdfjs = typeof PdfjsModule;
type PdfDocument = Awaited<ReturnType<Pdfjs['getDocument']>['promise']>;
type OutlineNode = Awaited<ReturnType<PdfDocument['getOutline']>>[number];

/** A page "has text" with at least this many non-space characters (10 CJK characters is a sentence). */
const MIN_PAGE_CHARS = 10;
const MAX_OUTLINE_ENTRIES = 300;

let pdfjsPromise: Promise<Pdfjs> | null = null;
/**
 * pdfjs runs its parser in-process in Node (a "fake worker"; we are already off the main thread).
 * Handing it the worker module up front saves it a dynamic import of its own.
 */
function loadPdfjs(): Promise<Pdfjs> {
  pdfjsPromise ??= (async () => {
    const holder = globalThis as { pdfjsWorker?: unknown };
    holder.pdfjsWorker ??= await import('pdfjs-dist/legacy/build/pdf.worker.mjs');
    return import('pdfjs-dist/legacy/build/pdf.mjs');
  })();
  return pdfjsPromise;
}

/** pdfjs needs its CMaps to decode CJK text in PDFs that use predefined encodings (e.g. UniGB-UCS2-H). */
function pdfjsDataDirs(): { cMapUrl: string; standardFontDataUrl: string } | Record<string, never> {
  try {
    const root = path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
    return { cMapUrl: `${path.join(root, 'cmaps')}/`, standardFontDataUrl: `${path.join(root, 'standard_fonts')}/` };
  } catch {
    return {};
  }
}

interface Run {
  str: string;
  x: number;
  y: number;
  width: number;
  height: number;
  eol: boolean;
}

function toRun(item: unknown): Run | null {
  if (typeof item !== 'object' || item === null || !('str' in item) || typeof item.str !== 'string') return null;
  const t = 'transform' in item && Array.isArray(item.transform) ? (item.transform as unknown[]) : [];
  const height = 'height' in item && typeof item.height === 'number' ? Math.abs(item.height) : 0;
  return {
    str: item.str,
    x: Number(t[4] ?? 0),
    y: Number(t[5] ?? 0),
    width: 'width' in item && typeof item.width === 'number' ? item.width : 0,
    height: height || Math.abs(Number(t[3] ?? 0)) || 10,
    eol: 'hasEOL' in item && item.hasEOL === true,
  };
}

/**
 * Joins text runs into lines: a run whose baseline moves by more than half its height starts a new
 * line, as does `hasEOL`; a vertical gap of about two lines becomes a blank line (a paragraph).
 * Runs on one line are separated by a space only when there is a visible horizontal gap, so CJK
 * text, which has no spaces, is not broken up.
 */
export function joinRuns(items: readonly unknown[]): string {
  const lines: string[] = [];
  let line = '';
  let lineY: number | null = null;
  let lineHeight = 0;
  let lastEndX: number | null = null;
  let prevLineY: number | null = null;

  const flush = () => {
    const text = line.replace(/\s+$/u, '');
    if (text !== '') {
      if (prevLineY !== null && lineY !== null && prevLineY - lineY > lineHeight * 1.8) lines.push('');
      lines.push(text);
      prevLineY = lineY;
    }
    line = '';
    lineY = null;
    lastEndX = null;
  };

  for (const item of items) {
    const run = toRun(item);
    if (!run) continue;
    if (lineY !== null && line.trim() !== '' && Math.abs(run.y - lineY) > Math.max(run.height, lineHeight) * 0.5) flush();
    if (run.str !== '') {
      if (lineY === null) {
        lineY = run.y;
        lineHeight = run.height;
      } else if (lastEndX !== null && run.x - lastEndX > run.height * 0.2 && !/\s$/u.test(line) && !/^\s/u.test(run.str)) {
        line += ' ';
      }
      line += run.str;
      lastEndX = run.x + run.width;
    }
    if (run.eol) flush();
  }
  flush();
  return lines.join('\n');
}

function countChars(text: string): number {
  return text.replace(/\s+/gu, '').length;
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

export async function extractPdf(bytes: Uint8Array, onProgress: ProgressFn): Promise<ExtractionResult> {
  const pdfjs = await loadPdfjs();
  let doc: PdfDocument;
  try {
    doc = await pdfjs.getDocument({
      data: bytes,
      useSystemFonts: false,
      disableFontFace: true,
      isEvalSupported: false,
      verbosity: pdfjs.VerbosityLevel.ERRORS,
      ...pdfjsDataDirs(),
    }).promise;
  } catch (err) {
    const name = errorName(err);
    if (name === 'PasswordException') return failure('encrypted PDF: remove the password and add it again');
    if (name === 'InvalidPDFException') return failure('corrupt or truncated PDF');
    return failure(`corrupt or truncated PDF (${err instanceof Error ? err.message : String(err)})`);
  }

  try {
    const total = doc.numPages;
    const { info } = await doc.getMetadata().catch(() => ({ info: {} }));
    const title = infoString(info, 'Title');
    const author = infoString(info, 'Author');
    const head: string[] = [];
    if (title) head.push(`# ${title}`, '');
    if (author) head.push(`Author: ${author}`, '');
    const outline = await outlineLines(doc);
    if (outline.length > 0) head.push('## Outline', '', ...outline, '');

    const parts: string[] = head.length > 0 ? [head.join('\n').trimEnd()] : [];
    let withText = 0;
    const unreadable: number[] = [];
    const textless: number[] = [];
    for (let n = 1; n <= total; n += 1) {
      let text: string;
      try {
        const page = await doc.getPage(n);
        const content = await page.getTextContent();
        text = joinRuns(content.items);
        page.cleanup();
      } catch {
        unreadable.push(n);
        text = '_(this page could not be read; the file may be damaged)_';
      }
      if (!unreadable.includes(n)) {
        if (countChars(text) >= MIN_PAGE_CHARS) withText += 1;
        else textless.push(n);
      }
      parts.push(`${pageMarker(n)}\n${text}`);
      onProgress(n, total);
    }
    const markdown = `${parts.join('\n\n')}\n`;

    if (unreadable.length === total) return failure('corrupt or truncated PDF');
    const readable = total - unreadable.length;
    if (withText === 0 || withText * 10 < readable) {
      return {
        status: 'scanned',
        markdown,
        pages: total,
        ...(title ? { title } : {}),
        message: `no text layer (scanned PDF): ${total} page${total === 1 ? '' : 's'}; OCR needs a vision-capable model`,
      };
    }
    const notes: string[] = [];
    if (unreadable.length > 0) notes.push(`${unreadable.length} of ${total} pages could not be read (damaged file?)`);
    if (textless.length > 0) notes.push(`${textless.length} of ${total} pages have no text layer (scanned images?)`);
    return { status: 'ok', markdown, pages: total, ...(title ? { title } : {}), ...(notes.length > 0 ? { message: notes.join('; ') } : {}) };
  } finally {
    await doc.destroy();
  }
}
