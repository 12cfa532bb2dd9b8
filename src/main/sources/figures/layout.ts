// Where things are drawn on a PDF page, read inside an extraction worker with pdfjs: every image
// painted (its box on the page from the transform in force, and its size in pixels), the bounding
// box of every filled or stroked path, and the text as lines with their boxes. Coordinates are PDF
// points from the top left of the page as displayed (crop box and rotation applied), which is how
// poppler's pdftoppm crops a region. The figure finder (analyze.ts) works on this.
import { pdfjsDataParams } from '../formats/pdfjs-data';
import { loadPdfjs, type Pdfjs, textOnlyParams } from '../formats/pdfjs-load';
import type { Box, PageLayout, TextLine } from './analyze';

type Matrix = [number, number, number, number, number, number];

/** A page of a chart can hold thousands of paths; past this many the rest are not needed to find its extent. */
const MAX_PATHS_PER_PAGE = 20_000;

function multiply(m: Matrix, n: readonly number[]): Matrix {
  const [a = 1, b = 0, c = 0, d = 1, e = 0, f = 0] = n;
  return [m[0] * a + m[2] * b, m[1] * a + m[3] * b, m[0] * c + m[2] * d, m[1] * c + m[3] * d, m[0] * e + m[2] * f + m[4], m[1] * e + m[3] * f + m[5]];
}

/** The axis-aligned box of the rectangle [x0,y0]-[x1,y1] under `m`. */
function boxOf(m: Matrix, x0: number, y0: number, x1: number, y1: number): Box {
  const xs: number[] = [];
  const ys: number[] = [];
  for (const [x, y] of [
    [x0, y0],
    [x1, y0],
    [x0, y1],
    [x1, y1],
  ] as const) {
    xs.push(m[0] * x + m[2] * y + m[4]);
    ys.push(m[1] * x + m[3] * y + m[5]);
  }
  const left = Math.min(...xs);
  const top = Math.min(...ys);
  return { x: left, y: top, w: Math.max(...xs) - left, h: Math.max(...ys) - top };
}

function isMatrix(value: unknown): value is number[] {
  return (Array.isArray(value) || ArrayBuffer.isView(value)) && (value as ArrayLike<unknown>).length === 6;
}

function dims(value: unknown): { width: number; height: number } | null {
  if (typeof value !== 'object' || value === null) return null;
  const { width, height } = value as { width?: unknown; height?: unknown };
  return typeof width === 'number' && typeof height === 'number' ? { width, height } : null;
}

type PdfPage = Awaited<ReturnType<Awaited<ReturnType<Pdfjs['getDocument']>['promise']>['getPage']>>;

/** Images and path boxes from the page's operator list, following save/restore, cm and form matrices. */
async function drawn(pdfjs: Pdfjs, page: PdfPage, view: Matrix): Promise<Pick<PageLayout, 'images' | 'paths'>> {
  const OPS = pdfjs.OPS;
  const list = await page.getOperatorList({ annotationMode: pdfjs.AnnotationMode.DISABLE });
  const images: PageLayout['images'] = [];
  const paths: Box[] = [];
  const stack: Matrix[] = [];
  let ctm: Matrix = view;
  for (let i = 0; i < list.fnArray.length; i += 1) {
    const fn = list.fnArray[i];
    const args = (list.argsArray[i] ?? []) as unknown[];
    switch (fn) {
      case OPS.save:
        stack.push(ctm);
        break;
      case OPS.restore:
        ctm = stack.pop() ?? ctm;
        break;
      case OPS.transform:
        if (args.length === 6) ctm = multiply(ctm, args as number[]);
        break;
      case OPS.paintFormXObjectBegin:
        stack.push(ctm);
        if (isMatrix(args[0])) ctm = multiply(ctm, Array.from(args[0]));
        break;
      case OPS.beginGroup: {
        stack.push(ctm);
        const matrix = (args[0] as { matrix?: unknown } | undefined)?.matrix;
        if (isMatrix(matrix)) ctm = multiply(ctm, Array.from(matrix));
        break;
      }
      case OPS.paintFormXObjectEnd:
      case OPS.endGroup:
        ctm = stack.pop() ?? ctm;
        break;
      case OPS.paintImageXObject: {
        const [, width, height] = args;
        if (typeof width === 'number' && typeof height === 'number') images.push({ ...boxOf(ctm, 0, 0, 1, 1), pxWidth: width, pxHeight: height });
        break;
      }
      case OPS.paintInlineImageXObject: {
        const size = dims(args[0]);
        if (size) images.push({ ...boxOf(ctm, 0, 0, 1, 1), pxWidth: size.width, pxHeight: size.height });
        break;
      }
      case OPS.constructPath: {
        const [op, , minMax] = args;
        // endPath paints nothing (a clip, or a path ended with n).
        if (op === OPS.endPath || paths.length >= MAX_PATHS_PER_PAGE || !(Array.isArray(minMax) || ArrayBuffer.isView(minMax))) break;
        const [x0 = 0, y0 = 0, x1 = -1, y1 = -1] = Array.from(minMax as ArrayLike<number>);
        if ([x0, y0, x1, y1].every(Number.isFinite) && x1 >= x0 && y1 >= y0) paths.push(boxOf(ctm, x0, y0, x1, y1));
        break;
      }
      default:
        break;
    }
  }
  return { images, paths };
}

const CJK = /[\u3000-\u30ff\u3400-\u9fff\uf900-\ufaff\uff00-\uffef]/u;

interface Run {
  str: string;
  x: number;
  baseline: number;
  size: number;
  width: number;
  eol: boolean;
}

/** Text runs joined into lines: a run on another baseline, or after an end of line, starts a new one. */
export function joinLines(runs: readonly Run[]): TextLine[] {
  const lines: TextLine[] = [];
  let current: (TextLine & { baseline: number; size: number; end: number }) | null = null;
  const flush = () => {
    if (current && current.text.trim() !== '') lines.push({ text: current.text.trim(), x: current.x, y: current.y, w: current.w, h: current.h });
    current = null;
  };
  for (const run of runs) {
    if (run.str !== '') {
      const top = run.baseline - run.size * 0.8;
      if (current !== null && Math.abs(run.baseline - current.baseline) <= Math.max(run.size, current.size) * 0.5 && run.x >= current.end - run.size) {
        const gap = run.x - current.end;
        const glue = gap > run.size * 0.2 && !CJK.test(current.text.slice(-1)) && !CJK.test(run.str[0] ?? '') && !current.text.endsWith(' ') ? ' ' : '';
        current.text += glue + run.str;
        const right = Math.max(current.x + current.w, run.x + run.width);
        const newTop = Math.min(current.y, top);
        current.h = Math.max(current.y + current.h, top + run.size) - newTop;
        current.y = newTop;
        current.w = right - current.x;
        current.end = run.x + run.width;
        current.size = Math.max(current.size, run.size);
      } else {
        flush();
        current = { text: run.str, x: run.x, y: top, w: run.width, h: run.size, baseline: run.baseline, size: run.size, end: run.x + run.width };
      }
    }
    if (run.eol) flush();
  }
  flush();
  return lines;
}

/** Horizontal text runs of the page in display coordinates; rotated text (axis titles) is left out. */
async function textRuns(page: PdfPage, view: Matrix): Promise<Run[]> {
  const content = await page.getTextContent({ includeMarkedContent: false, disableNormalization: false });
  const runs: Run[] = [];
  for (const item of content.items) {
    if (!('str' in item)) continue;
    const m = multiply(view, item.transform as number[]);
    const size = Math.hypot(m[2], m[3]);
    if (Math.abs(m[1]) > 1e-3 || Math.abs(m[2]) > 1e-3 || size === 0) {
      if (item.hasEOL) runs.push({ str: '', x: 0, baseline: 0, size: 1, width: 0, eol: true });
      continue;
    }
    runs.push({ str: item.str, x: m[4], baseline: m[5], size, width: item.width, eol: item.hasEOL });
  }
  return runs;
}

/**
 * The layout of each of `pages` (1-based) of the PDF in `bytes`. A page that cannot be read is
 * skipped (the others still count); a PDF that cannot be opened throws.
 */
export async function readPageLayouts(bytes: Uint8Array, pages: readonly number[]): Promise<PageLayout[]> {
  const pdfjs = await loadPdfjs();
  // pdfjs's own in-thread worker, not formats/pdfjs-load's DirectPort: the parser reuses the arrays
  // of an operator-list chunk after sending it, so they must be copied, which its port does.
  const doc = await pdfjs.getDocument({ ...textOnlyParams(pdfjs, bytes, null), stopAtErrors: false, ...pdfjsDataParams() }).promise;
  try {
    {
      const out: PageLayout[] = [];
      for (const n of pages) {
        if (n < 1 || n > doc.numPages) continue;
        const page = await doc.getPage(n);
        try {
          const viewport = page.getViewport({ scale: 1 });
          const view = viewport.transform as Matrix;
          const { images, paths } = await drawn(pdfjs, page, view);
          const lines = joinLines(await textRuns(page, view));
          out.push({ page: n, width: viewport.width, height: viewport.height, images, paths, lines });
        } catch {
          // A damaged page: its figures cannot be placed, the rest of the document still can.
        } finally {
          page.cleanup();
        }
      }
      return out;
    }
  } finally {
    await doc.destroy();
  }
}
