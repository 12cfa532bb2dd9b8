// The poppler side of extract_figures: `pdfimages -list` names every image drawn on a page (its
// pixel size and PDF object, so a logo repeated on every page is one object), `pdfimages -png`
// writes a page's images out at their own resolution, and `pdftoppm` renders a region of a page
// (a figure drawn with vectors). Time-limited and abortable through runPoppler; callers own the
// temporary folder and remove it.
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Box } from '../sources/figures/analyze';
import { type PopplerOptions, runPoppler } from './ocr-render';
import { ToolError } from './types';

export const FIGURES_PURPOSE = 'extract_figures reads PDF images';

export interface PdfImageRow {
  page: number;
  /** Index in the listing of the run (image, smask and stencil rows all count). */
  num: number;
  type: string;
  width: number;
  height: number;
  /** "12 0" for an image object; inline images have none of their own. */
  object: string;
}

/** The rows of `pdfimages -list`, pages `first`-`last`. */
export async function listPdfImages(pdfAbs: string, first: number, last: number, opts: PopplerOptions): Promise<PdfImageRow[]> {
  const { stdout } = await runPoppler('pdfimages', ['-list', '-f', String(first), '-l', String(last), pdfAbs], opts);
  const rows: PdfImageRow[] = [];
  for (const line of stdout.split('\n')) {
    // page num type width height color comp bpc enc interp object-id(2) x-ppi y-ppi size ratio
    const cells = line.trim().split(/\s+/u);
    if (cells.length < 12 || !/^\d+$/u.test(cells[0] ?? '')) continue;
    const [page, num, type, width, height] = cells;
    rows.push({ page: Number(page), num: Number(num), type: type ?? '', width: Number(width), height: Number(height), object: `${cells[10]} ${cells[11]}` });
  }
  return rows;
}

/**
 * Writes every image of one page as PNG into `dir`; returns the files by their index on the page
 * (the same order as the page's rows of listPdfImages).
 */
export async function extractPageImages(pdfAbs: string, page: number, dir: string, opts: PopplerOptions): Promise<Map<number, string>> {
  const prefix = path.join(dir, `p${page}`);
  await runPoppler('pdfimages', ['-png', '-f', String(page), '-l', String(page), pdfAbs, prefix], opts);
  const files = new Map<number, string>();
  for (const name of await fs.readdir(dir)) {
    const match = new RegExp(`^p${page}-(\\d+)\\.png$`, 'u').exec(name);
    if (match) files.set(Number(match[1]), path.join(dir, name));
  }
  return files;
}

/** A region of a page (PDF points from the page's top left) as PNG at `dpi`. */
export async function renderRegion(pdfAbs: string, page: number, box: Box, dpi: number, dir: string, opts: PopplerOptions): Promise<Uint8Array> {
  const scale = dpi / 72;
  const px = (v: number) => String(Math.max(0, Math.round(v * scale)));
  const prefix = path.join(dir, `region-p${page}`);
  const crop = ['-x', px(box.x), '-y', px(box.y), '-W', px(box.w), '-H', px(box.h)];
  await runPoppler('pdftoppm', ['-png', '-r', String(dpi), '-f', String(page), '-l', String(page), ...crop, '-singlefile', pdfAbs, prefix], opts);
  try {
    const png = await fs.readFile(`${prefix}.png`);
    return new Uint8Array(png.buffer, png.byteOffset, png.byteLength);
  } catch {
    throw new ToolError(`pdftoppm did not render page ${page}; the page may not exist or the region is empty.`);
  } finally {
    await fs.rm(`${prefix}.png`, { force: true });
  }
}

/** Width and height from a PNG's IHDR chunk, or null when the bytes are not a PNG. */
export function pngSize(bytes: Uint8Array): { width: number; height: number } | null {
  const signature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (bytes.length < 24 || !signature.every((b, i) => bytes[i] === b)) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}
