// Fitting: pick a font size that makes text fit its box (shrinking toward a floor), and split what
// still does not fit into continuation slides. Everything here is arithmetic on measure.ts, so the
// renderer can promise "never overflows" up to the accuracy of the width tables.
import { lineHeightIn, textWidthIn, wrapText } from './measure';

export const BODY_FLOOR_PT = 14;
export const TITLE_FLOOR_PT = 20;
export const TABLE_FLOOR_PT = 12;
/** Paragraph spacing after a bullet, as a fraction of its font size. */
const PARA_SPACE = 0.35;

export interface Box {
  w: number;
  h: number;
}

export interface Para {
  text: string;
  level: 0 | 1;
}

export interface TextFit {
  size: number;
  lines: string[];
  /** The text had to be cut (with an ellipsis) to fit even at the floor size. */
  truncated: boolean;
  /** Height the text takes, in inches. */
  height: number;
}

/** The largest size in [floor, base] at which `text` fits the box; cut with an ellipsis if none does. */
export function fitText(
  text: string,
  box: Box,
  opts: { base: number; floor: number; lineHeight: number; bold?: boolean },
): TextFit {
  const bold = opts.bold ?? false;
  for (let size = opts.base; size >= opts.floor; size--) {
    const lines = wrapText(text, size, box.w, bold);
    const height = lines.length * lineHeightIn(size, opts.lineHeight);
    if (height <= box.h) return { size, lines, truncated: false, height };
  }
  const size = opts.floor;
  const maxLines = Math.max(1, Math.floor(box.h / lineHeightIn(size, opts.lineHeight)));
  const lines = wrapText(text, size, box.w, bold).slice(0, maxLines);
  const last = lines[lines.length - 1] ?? '';
  lines[lines.length - 1] = ellipsize(last, size, box.w, bold);
  return { size, lines, truncated: true, height: lines.length * lineHeightIn(size, opts.lineHeight) };
}

function ellipsize(line: string, size: number, w: number, bold: boolean): string {
  const chars = Array.from(line);
  while (chars.length > 0 && textWidthIn(chars.join('') + '…', size, bold) > w) chars.pop();
  return chars.join('').trimEnd() + '…';
}

export interface BulletMetrics {
  size: number;
  subSize: number;
  /** Hanging indent of a bullet, points (pptxgenjs `bullet.indent`). */
  indentPt: number;
  lineHeight: number;
}

export function bulletMetrics(size: number, lineHeight: number, floor = BODY_FLOOR_PT): BulletMetrics {
  return { size, subSize: Math.max(floor, size - 2), indentPt: Math.round(size * 0.9), lineHeight };
}

/** Height of one bullet paragraph, in inches, including the space after it. */
export function paraHeight(p: Para, boxW: number, m: BulletMetrics): number {
  const size = p.level === 0 ? m.size : m.subSize;
  const textW = boxW - ((p.level + 1) * m.indentPt) / 72;
  const lines = wrapText(p.text, size, textW).length;
  return lines * lineHeightIn(size, m.lineHeight) + (size * PARA_SPACE) / 72;
}

function parasHeight(paras: readonly Para[], boxW: number, m: BulletMetrics): number {
  return paras.reduce((sum, p) => sum + paraHeight(p, boxW, m), 0);
}

export interface BulletPages {
  metrics: BulletMetrics;
  pages: Para[][];
  shrunk: boolean;
  /** Paragraphs longer than a whole page, cut into pieces across pages. */
  brokenParas: number;
}

/**
 * Fits bullet groups (a bullet and its sub-bullets) into the box: first by shrinking from `base`
 * to the floor; if that is not enough, by packing into as few pages as the packing size allows,
 * balanced so the last page is not a lone bullet.
 */
export function paginateBullets(
  groups: readonly Para[][],
  box: Box,
  opts: { base: number; floor?: number; lineHeight: number },
): BulletPages {
  const floor = opts.floor ?? BODY_FLOOR_PT;
  const all = groups.flat();
  for (let size = opts.base; size >= floor; size--) {
    const m = bulletMetrics(size, opts.lineHeight, floor);
    if (parasHeight(all, box.w, m) <= box.h) return { metrics: m, pages: [all], shrunk: size < opts.base, brokenParas: 0 };
  }
  // Splitting: keep text readable rather than tiny: shrink a little, then paginate.
  const packSize = Math.max(floor, opts.base - 4);
  const m = bulletMetrics(packSize, opts.lineHeight, floor);
  let brokenParas = 0;
  const units: Para[][] = [];
  for (const group of groups) {
    if (parasHeight(group, box.w, m) <= box.h) units.push(group);
    else {
      for (const p of group) {
        const pieces = breakPara(p, box, m);
        if (pieces.length > 1) brokenParas++;
        for (const piece of pieces) units.push([piece]);
      }
    }
  }
  const heights = units.map((u) => parasHeight(u, box.w, m));
  const pageCount = greedyPages(heights, box.h).length;
  // Smallest capacity that still gives the same number of pages: evens out the pages.
  let lo = Math.max(...heights, heights.reduce((a, b) => a + b, 0) / pageCount);
  let hi = box.h;
  for (let i = 0; i < 30 && hi - lo > 0.005; i++) {
    const mid = (lo + hi) / 2;
    if (greedyPages(heights, mid).length <= pageCount) hi = mid;
    else lo = mid;
  }
  const pages = greedyPages(heights, hi).map((idx) => idx.flatMap((i) => units[i] ?? []));
  return { metrics: m, pages, shrunk: packSize < opts.base, brokenParas };
}

/** Packs items in order; returns the item indices on each page. */
function greedyPages(heights: readonly number[], capacity: number): number[][] {
  const pages: number[][] = [];
  let cur: number[] = [];
  let used = 0;
  heights.forEach((h, i) => {
    if (cur.length > 0 && used + h > capacity + 1e-9) {
      pages.push(cur);
      cur = [];
      used = 0;
    }
    cur.push(i);
    used += h;
  });
  if (cur.length > 0) pages.push(cur);
  return pages;
}

/** Cuts a paragraph taller than the box into pieces that each fit. */
function breakPara(p: Para, box: Box, m: BulletMetrics): Para[] {
  if (paraHeight(p, box.w, m) <= box.h) return [p];
  const size = p.level === 0 ? m.size : m.subSize;
  const textW = box.w - ((p.level + 1) * m.indentPt) / 72;
  const lines = wrapText(p.text, size, textW);
  const perPage = Math.max(1, Math.floor((box.h - (size * PARA_SPACE) / 72) / lineHeightIn(size, m.lineHeight)));
  const pieces: Para[] = [];
  for (let i = 0; i < lines.length; i += perPage) {
    // Rejoin with the separator the wrap consumed: a space between Latin words, nothing in CJK.
    const text = lines.slice(i, i + perPage).reduce((acc, line) => joinLines(acc, line), '');
    pieces.push({ text, level: p.level });
  }
  return pieces;
}

function joinLines(a: string, b: string): string {
  if (!a) return b;
  return /[A-Za-z0-9]$/.test(a) && /^[A-Za-z0-9]/.test(b) ? `${a} ${b}` : a + b;
}

// Tables

export interface TableLayout {
  size: number;
  colW: number[];
  headerH: number;
  rowH: number[];
  /** Row indices on each page (the header repeats on every page). */
  pages: number[][];
  /** Rows whose cells were cut to fit one page. */
  truncatedRows: number[];
  rows: string[][];
  shrunk: boolean;
}

export const CELL_MARGIN_IN = 0.08;

export function columnWidths(header: readonly string[], rows: readonly string[][], totalW: number, size: number): number[] {
  const n = header.length;
  const desired = header.map((h, c) => {
    let longest = textWidthIn(h, size, true);
    for (const row of rows.slice(0, 200)) longest = Math.max(longest, textWidthIn(row[c] ?? '', size));
    return Math.min(longest + 2 * CELL_MARGIN_IN, totalW * 0.6);
  });
  const minW = Math.min(0.8, totalW / n);
  const sum = desired.reduce((a, b) => a + b, 0);
  const raw = desired.map((d) => Math.max(minW, (d / sum) * totalW));
  const rawSum = raw.reduce((a, b) => a + b, 0);
  return raw.map((w) => (w / rawSum) * totalW);
}

function rowHeight(cells: readonly string[], colW: readonly number[], size: number, lineHeight: number, bold: boolean): number {
  let lines = 1;
  cells.forEach((cell, c) => {
    const w = (colW[c] ?? 1) - 2 * CELL_MARGIN_IN;
    lines = Math.max(lines, wrapText(cell, size, w, bold).length);
  });
  return lines * lineHeightIn(size, lineHeight) + 2 * CELL_MARGIN_IN;
}

export function layoutTable(
  header: readonly string[],
  rows: readonly string[][],
  box: Box,
  opts: { base: number; floor?: number; lineHeight: number },
): TableLayout {
  const floor = opts.floor ?? TABLE_FLOOR_PT;
  for (let size = opts.base; size >= floor; size--) {
    const colW = columnWidths(header, rows, box.w, size);
    const headerH = rowHeight(header, colW, size, opts.lineHeight, true);
    const rowH = rows.map((r) => rowHeight(r, colW, size, opts.lineHeight, false));
    if (headerH + rowH.reduce((a, b) => a + b, 0) <= box.h) {
      return { size, colW, headerH, rowH, pages: [rows.map((_, i) => i)], truncatedRows: [], rows: rows.map((r) => [...r]), shrunk: size < opts.base };
    }
  }
  const size = Math.max(floor, opts.base - 2);
  const colW = columnWidths(header, rows, box.w, size);
  const headerH = rowHeight(header, colW, size, opts.lineHeight, true);
  const room = box.h - headerH;
  const truncatedRows: number[] = [];
  const fitted = rows.map((r, i) => {
    if (rowHeight(r, colW, size, opts.lineHeight, false) <= room) return [...r];
    truncatedRows.push(i);
    const maxLines = Math.max(1, Math.floor((room - 2 * CELL_MARGIN_IN) / lineHeightIn(size, opts.lineHeight)));
    return r.map((cell, c) => {
      const w = (colW[c] ?? 1) - 2 * CELL_MARGIN_IN;
      const lines = wrapText(cell, size, w);
      if (lines.length <= maxLines) return cell;
      const fit = fitText(cell, { w, h: maxLines * lineHeightIn(size, opts.lineHeight) }, { base: size, floor: size, lineHeight: opts.lineHeight });
      return fit.lines.reduce((acc, line) => joinLines(acc, line), '');
    });
  });
  const rowH = fitted.map((r) => rowHeight(r, colW, size, opts.lineHeight, false));
  const pages = greedyPages(rowH, room);
  return { size, colW, headerH, rowH, pages, truncatedRows, rows: fitted, shrunk: size < opts.base };
}

// Measurement lives in measure.ts; re-exported so "how big is this text" has one import.
export { charWidthEm, textWidthEm, textWidthIn, wrapText } from './measure';
