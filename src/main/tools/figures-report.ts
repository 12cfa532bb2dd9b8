// What extract_figures records and reports: each saved figure's index entry (work/figures/index.json)
// and the text the model reads back, with how to cite a figure's page.
import path from 'node:path';
import { formatPageList } from '../sources';
import { MIN_FIGURE_PX } from '../sources/figures/analyze';
import { formatBytes } from './text';

/** Figures saved per call, and their bytes: enough for a paper, bounded for a scanned book. */
export const FIGURES_MAX = 40;
export const FIGURES_MAX_BYTES = 64 * 1024 * 1024;
/** Resolution of rendered (drawn) figures: sharp on a projected slide, modest in size. */
export const FIGURE_DPI = 150;
export const FIGURES_INDEX = 'work/figures/index.json';

export interface FigureEntry {
  /** The PDF, task-relative. */
  source: string;
  /** The PNG, task-relative. */
  file: string;
  page: number;
  /** embedded: an image inside the PDF, at its own resolution; drawn: found above its caption and rendered; region: rendered where asked. */
  kind: 'embedded' | 'drawn' | 'region';
  /** Where it sits on the page, PDF points from the top left; null when pdfjs could not place it. */
  bbox: { x: number; y: number; width: number; height: number } | null;
  page_size: { width: number; height: number } | null;
  pixels: { width: number; height: number };
  caption: string | null;
}

export interface Saved extends FigureEntry {
  bytes: number;
}

export interface ScanResult {
  saved: Saved[];
  /** Pages fully looked at (all of them unless a cap stopped the call). */
  scanned: number[];
  small: number;
  repeated: { object: string; pages: number }[];
  duplicates: number;
  orphans: { page: number; caption: string }[];
  stoppedAt: number | null;
}

function describe(s: Saved): string {
  const how = s.kind === 'embedded' ? 'embedded image' : s.kind === 'drawn' ? `drawn figure, rendered at ${FIGURE_DPI} dpi` : `region rendered at ${FIGURE_DPI} dpi`;
  const caption = s.caption ? `, caption: "${s.caption}"` : '';
  return `- ${s.file}: page ${s.page}, ${s.pixels.width}×${s.pixels.height} px, ${how}, ${formatBytes(s.bytes)}${caption}`;
}

function citeHint(pdfRel: string): string {
  const name = path.posix.basename(pdfRel);
  return (
    `To use a figure: an "image" or "image_text" slide with image set to its path and a caption citing the page, ` +
    `e.g. "来源：${name} 第 N 页" (English decks: "Source: ${name}, p. N"); add the figure's own caption where it helps. ` +
    'Check a figure is legible at slide size before relying on it.'
  );
}

export function report(pdfRel: string, pageCount: number, r: ScanResult, note: string | null): string {
  const lines: string[] = [];
  const looked = r.scanned.length > 0 ? `pages ${formatPageList(r.scanned)} of ${pageCount}` : `no page of ${pageCount}`;
  lines.push(
    r.saved.length > 0
      ? `${r.saved.length} figure${r.saved.length === 1 ? '' : 's'} from ${pdfRel} (${looked}), index in ${FIGURES_INDEX}:`
      : `No figures found in ${pdfRel} (${looked}).`,
  );
  for (const s of r.saved) lines.push(describe(s));
  const skipped: string[] = [];
  if (r.small > 0) skipped.push(`${r.small} small image${r.small === 1 ? '' : 's'} (under ${MIN_FIGURE_PX} px: icons, bullets)`);
  for (const rep of r.repeated) skipped.push(`an image repeated on ${rep.pages} pages (a logo or ornament)`);
  if (r.duplicates > 0) skipped.push(`${r.duplicates} repeat${r.duplicates === 1 ? '' : 's'} of an image already saved`);
  if (skipped.length > 0) lines.push(`Skipped: ${skipped.join('; ')}.`);
  for (const o of r.orphans) {
    lines.push(`Page ${o.page} has the caption "${o.caption}" but no image or drawing was found near it; to render it, call extract_figures with region {page: ${o.page}, x, y, width, height}.`);
  }
  if (r.stoppedAt !== null) {
    lines.push(`Stopped at page ${r.stoppedAt}: at most ${FIGURES_MAX} figures and ${formatBytes(FIGURES_MAX_BYTES)} are saved per call. Call again with pages="${r.stoppedAt}-${pageCount}".`);
  }
  if (note) lines.push(note);
  if (r.saved.length > 0) lines.push(citeHint(pdfRel));
  return lines.join('\n');
}

export function regionReport(s: Saved): string {
  return `${describe(s)}\nIndex in ${FIGURES_INDEX}. ${citeHint(s.source)}`;
}
