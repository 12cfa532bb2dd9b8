// Plans a table: column widths from measured content (no header word ever breaks inside a word),
// numeric columns right-aligned, row heights measured, and pages of similar size with the header
// repeated when the rows do not fit one slide. Pure: (context, table, box) → table elements.
import { containsCjk, isCjkChar, type TableSpec } from '../../../../shared/specs/deck';
import { TABLE_CELL_PAD_X_IN, TABLE_CELL_PAD_Y_IN } from '../../../../shared/specs/deck-geometry';
import { type PlanBox, type TableElement } from '../../../../shared/specs/deck-plan';
import { type Theme } from '../../../../shared/specs/themes';
import { type SlideReport } from '../report';
import { type MeasureStyle, type TextMeasurer } from '../../typesetting/text-measurer';
import { balancedPages } from './pages';
import { breakSegments } from '../../typesetting/fonts/line-break';

export interface TablePlanContext {
  theme: Theme;
  measurer: TextMeasurer;
  /** Where compromises are written (the kit's slide report); planning alone needs none. */
  report?: Pick<SlideReport, 'add'>;
}

/** Smallest table text: below this a table is unreadable from the room, so it pages instead. */
export const TABLE_FLOOR_PT = 12;
/** A table on one slide may shrink this far under the theme size before it pages instead. */
const ONE_PAGE_SHRINK_PT = 4;
/** Paged tables are set this far under the theme size (more rows per page, still readable). */
const PAGED_SHRINK_PT = 2;
/**
 * A table with room to spare gives its rows more air: up to this share of a text line above and
 * below the text, until the table fills ROOMY_FILL of its box. The rest of the room goes around the
 * table (the slide puts it in the optical middle), so six rows do not sit in the top half.
 */
const MAX_EXTRA_PAD_LINES = 0.3;
const ROOMY_FILL = 0.8;
/** A body cell's longest word may claim at most this share of the table width before it breaks. */
const MAX_WORD_SHARE = 0.4;

export interface TablePlan {
  elements: TableElement[];
  sizePt: number;
  /** Header words that still had to break (only when the columns cannot hold them at the floor). */
  brokenHeaderWords: string[];
  /** Rows (0-based) cut with an ellipsis because one row was taller than a page. */
  truncatedRows: number[];
}

const NUMERIC_CELL = /^[(+\-−–]?\s*[$€£¥￥]?\s*\d[\d,\s]*(?:\.\d+)?\s*(?:%|‰|×|x|[A-Za-z]{1,4}|[万亿元倍个]{1,2})?\)?$/u;
const NEUTRAL_CELL = /^(?:|-|—|–|n\/a|N\/A|NA|—)$/;

/** A column is numeric when all its non-empty cells are numbers (with currency, %, units). */
export function isNumericColumn(rows: readonly (readonly string[])[], c: number): boolean {
  const cells = rows.map((r) => (r[c] ?? '').trim()).filter((t) => !NEUTRAL_CELL.test(t));
  return cells.length > 0 && cells.every((t) => NUMERIC_CELL.test(t));
}

/**
 * The pieces a cell may not break inside: Latin words; a CJK word of up to 4 characters stays whole
 * (a header like 召回率), longer CJK runs may break after any two characters.
 */
export function unbreakableUnits(text: string): string[] {
  // The line breaker's own pieces first: a label and its number ("方法 1"), a number and its unit,
  // a Chinese word; then the rules below, which keep short CJK headers whole.
  const units: string[] = breakSegments(text)
    .map((s) => s.trim())
    .filter(Boolean);
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (!containsCjk(word) || Array.from(word).length <= 4) {
      units.push(word);
      continue;
    }
    let latin = '';
    const chars = Array.from(word);
    for (let i = 0; i < chars.length; i++) {
      const ch = chars[i] ?? '';
      if (isCjkChar(ch)) {
        if (latin) units.push(latin);
        latin = '';
        units.push(ch + (chars[i + 1] && isCjkChar(chars[i + 1] ?? '') ? (chars[++i] ?? '') : ''));
      } else latin += ch;
    }
    if (latin) units.push(latin);
  }
  // A piece inside a longer unit ("召回" in "召回率") adds nothing: the longest decides.
  const unique = [...new Set(units)];
  return unique.filter((u) => !unique.some((o) => o !== u && o.includes(u)));
}

interface Sizing {
  sizePt: number;
  colWidths: number[];
  /** Every header unit fits its column at this size. */
  headerFits: boolean;
}

function styleFor(theme: Theme, sizePt: number, bold: boolean): MeasureStyle {
  return { fonts: { latin: theme.fonts.latinBody, cjk: theme.fonts.cjkBody }, sizePt, bold };
}

/** Column widths at one size: every unbreakable unit fits if it can; spare width follows content. */
function sizeColumns(ctx: TablePlanContext, table: TableSpec, totalW: number, sizePt: number, numeric: readonly boolean[]): Sizing {
  const m = ctx.measurer;
  const head = styleFor(ctx.theme, sizePt, true);
  const body = styleFor(ctx.theme, sizePt, false);
  const pad = 2 * TABLE_CELL_PAD_X_IN;
  const inch = (pt: number): number => pt / 72;
  const sample = table.rows.slice(0, 300);
  const minW: number[] = [];
  const maxW: number[] = [];
  const headMin: number[] = [];
  table.header.forEach((h, c) => {
    const headerUnit = Math.max(0, ...unbreakableUnits(h).map((u) => inch(m.widthPt(u, head))));
    let cellUnit = 0;
    let natural = inch(m.widthPt(h, head));
    for (const row of sample) {
      const cell = row[c] ?? '';
      const whole = inch(m.widthPt(cell, body));
      natural = Math.max(natural, whole);
      // Numbers never wrap; words in text cells stay whole up to a share of the table.
      const unit = numeric[c] ? whole : Math.max(0, ...unbreakableUnits(cell).map((u) => inch(m.widthPt(u, body))));
      cellUnit = Math.max(cellUnit, Math.min(unit, totalW * MAX_WORD_SHARE));
    }
    headMin.push(headerUnit + pad);
    minW.push(Math.max(headerUnit, cellUnit) + pad);
    maxW.push(natural + pad);
  });
  const sumMin = minW.reduce((a, b) => a + b, 0);
  const sumMax = maxW.reduce((a, b) => a + b, 0);
  let colWidths: number[];
  if (sumMax <= totalW) {
    // Everything fits on one line: share the spare width in proportion to content.
    colWidths = maxW.map((w) => w + ((totalW - sumMax) * w) / sumMax);
  } else if (sumMin <= totalW) {
    // Auto table layout: minimums first, the rest to the columns that want more.
    const want = maxW.map((w, i) => w - (minW[i] ?? 0));
    const sumWant = want.reduce((a, b) => a + b, 0) || 1;
    colWidths = minW.map((w, i) => w + ((totalW - sumMin) * (want[i] ?? 0)) / sumWant);
  } else {
    // Even the minimums are too wide: header units get priority, the rest scales.
    const sumHead = headMin.reduce((a, b) => a + b, 0);
    const base = sumHead <= totalW ? headMin : minW;
    const sumBase = base.reduce((a, b) => a + b, 0);
    colWidths = base.map((w) => (w / sumBase) * totalW);
  }
  const headerFits = headMin.every((w, i) => w <= (colWidths[i] ?? 0) + 1e-9);
  return { sizePt, colWidths, headerFits };
}

function rowHeight(ctx: TablePlanContext, cells: readonly string[], widths: readonly number[], sizePt: number, bold: boolean): number {
  const style = styleFor(ctx.theme, sizePt, bold);
  let lines = 1;
  cells.forEach((cell, c) => {
    const w = ((widths[c] ?? 1) - 2 * TABLE_CELL_PAD_X_IN) * 72;
    const n = cell.split(/\r?\n/).reduce((sum, para) => sum + ctx.measurer.wrap(para, style, w).length, 0);
    lines = Math.max(lines, n);
  });
  return lines * lineIn(ctx.theme, sizePt) + 2 * TABLE_CELL_PAD_Y_IN;
}

function lineIn(theme: Theme, sizePt: number): number {
  return (sizePt * theme.lineHeight) / 72;
}

/** The largest size in [low, high] whose header words fit their columns; the floor's sizing if none does. */
function bestSizing(ctx: TablePlanContext, table: TableSpec, w: number, high: number, low: number, numeric: readonly boolean[]): Sizing {
  for (let s = high; s >= low; s--) {
    const sizing = sizeColumns(ctx, table, w, s, numeric);
    if (sizing.headerFits) return sizing;
  }
  for (let s = low - 1; s >= TABLE_FLOOR_PT; s--) {
    const sizing = sizeColumns(ctx, table, w, s, numeric);
    if (sizing.headerFits) return sizing;
  }
  return sizeColumns(ctx, table, w, TABLE_FLOOR_PT, numeric);
}

export function layoutTable(ctx: TablePlanContext, table: TableSpec, box: PlanBox): TablePlan {
  const { theme } = ctx;
  const p = theme.palette;
  const base = theme.sizes.table;
  const numeric = table.header.map((_, c) => isNumericColumn(table.rows, c));
  const rowsOf = (s: Sizing, rows: readonly string[][]): number[] => rows.map((r) => rowHeight(ctx, r, s.colWidths, s.sizePt, false));

  // One slide if the table fits at a comfortable size; else pages at a readable size.
  let sizing: Sizing | undefined;
  let heights: number[] = [];
  let headerH = 0;
  for (let s = base; s >= Math.max(TABLE_FLOOR_PT, base - ONE_PAGE_SHRINK_PT); s--) {
    const candidate = sizeColumns(ctx, table, box.w, s, numeric);
    if (!candidate.headerFits) continue;
    const hh = rowHeight(ctx, table.header, candidate.colWidths, s, true);
    const hs = rowsOf(candidate, table.rows);
    if (hh + hs.reduce((a, b) => a + b, 0) <= box.h + 1e-9) {
      sizing = candidate;
      heights = hs;
      headerH = hh;
      break;
    }
  }
  const onePage = sizing !== undefined;
  let rows = table.rows.map((r) => [...r]);
  const truncatedRows: number[] = [];
  if (!sizing) {
    sizing = bestSizing(ctx, table, box.w, Math.max(TABLE_FLOOR_PT, base - PAGED_SHRINK_PT), TABLE_FLOOR_PT, numeric);
    headerH = rowHeight(ctx, table.header, sizing.colWidths, sizing.sizePt, true);
    const room = box.h - headerH;
    const s = sizing;
    rows = rows.map((r, i) => {
      if (rowHeight(ctx, r, s.colWidths, s.sizePt, false) <= room) return r;
      truncatedRows.push(i);
      return cutRow(ctx, r, s, room);
    });
    heights = rowsOf(sizing, rows);
  }
  const pages = onePage ? [rows.map((_, i) => i)] : balancedPages(heights, box.h - headerH);
  const brokenHeaderWords = sizing.headerFits ? [] : brokenUnits(ctx, table.header, sizing);
  const final = sizing;
  // Paged tables fill their slides already; only a table on one slide can have room to spare.
  const padY = onePage ? roomyPadY(theme, final.sizePt, headerH + heights.reduce((a, b) => a + b, 0), heights.length + 1, box.h) : TABLE_CELL_PAD_Y_IN;
  const grow = 2 * (padY - TABLE_CELL_PAD_Y_IN);
  const elements = pages.map((idx): TableElement => {
    const rowHeights = [headerH, ...idx.map((i) => heights[i] ?? lineIn(theme, final.sizePt))].map((h) => h + grow);
    return {
      kind: 'table',
      id: 'table',
      box: { x: box.x, y: box.y, w: box.w, h: rowHeights.reduce((a, b) => a + b, 0) },
      header: [...table.header],
      rows: idx.map((i) => rows[i] ?? []),
      colWidths: final.colWidths,
      align: numeric.map((n) => (n ? 'right' : 'left')),
      rowHeights,
      cellPadY: padY,
      sizePt: final.sizePt,
      headerFill: p.tableHeader,
      headerColor: p.tableHeaderText,
      textColor: p.tableText ?? p.text,
      ...(p.tableFill ? { bodyFill: p.tableFill } : {}),
      ...(idx.length >= 4 ? { zebraFill: p.tableZebra } : {}),
      borderColor: p.tableBorder,
    };
  });
  return { elements, sizePt: final.sizePt, brokenHeaderWords, truncatedRows };
}

/** The vertical cell padding of a table `naturalH` tall with `rows` rows (header included) in a box `boxH` tall. */
function roomyPadY(theme: Theme, sizePt: number, naturalH: number, rows: number, boxH: number): number {
  const spare = boxH * ROOMY_FILL - naturalH;
  if (spare <= 0 || rows === 0) return TABLE_CELL_PAD_Y_IN;
  return TABLE_CELL_PAD_Y_IN + Math.min(spare / (2 * rows), MAX_EXTRA_PAD_LINES * lineIn(theme, sizePt));
}

/** Cells of a row taller than a page: each cut to the lines that fit, the last with an ellipsis. */
function cutRow(ctx: TablePlanContext, row: readonly string[], s: Sizing, room: number): string[] {
  const style = styleFor(ctx.theme, s.sizePt, false);
  const maxLines = Math.max(1, Math.floor((room - 2 * TABLE_CELL_PAD_Y_IN) / lineIn(ctx.theme, s.sizePt)));
  return row.map((cell, c) => {
    const w = ((s.colWidths[c] ?? 1) - 2 * TABLE_CELL_PAD_X_IN) * 72;
    const lines = ctx.measurer.wrap(cell.replace(/\s*\n\s*/g, ' '), style, w);
    if (lines.length <= maxLines) return cell;
    const kept = lines.slice(0, maxLines);
    kept[maxLines - 1] = ctx.measurer.ellipsize(kept[maxLines - 1] ?? '', style, w);
    return kept.reduce((acc, line) => (!acc ? line : /[A-Za-z0-9]$/.test(acc) && /^[A-Za-z0-9]/.test(line) ? `${acc} ${line}` : acc + line), '');
  });
}

function brokenUnits(ctx: TablePlanContext, header: readonly string[], s: Sizing): string[] {
  const style = styleFor(ctx.theme, s.sizePt, true);
  return header.flatMap((h, c) => unbreakableUnits(h).filter((u) => ctx.measurer.widthPt(u, style) / 72 + 2 * TABLE_CELL_PAD_X_IN > (s.colWidths[c] ?? 0) + 1e-9));
}

/** The table's slides: one element per page, each starting with the header; compromises reported. */
export function planTable(ctx: TablePlanContext, table: TableSpec, box: PlanBox): TableElement[] {
  const plan = layoutTable(ctx, table, box);
  const report = ctx.report;
  if (report) {
    const pages = plan.elements;
    if (plan.sizePt < ctx.theme.sizes.table) report.add('shrunk', `table text set at ${plan.sizePt} pt (theme size ${ctx.theme.sizes.table} pt)`);
    if (pages.length > 1) {
      report.add('split', `${table.rows.length} rows did not fit one slide: split over ${pages.length} slides (${pages.map((p) => p.rows.length).join(' + ')} rows) with the header repeated`);
    }
    if (plan.truncatedRows.length > 0) {
      report.add('dropped', `row(s) ${plan.truncatedRows.map((r) => r + 1).join(', ')} taller than a slide were cut with "…"`);
    }
    if (plan.brokenHeaderWords.length > 0) {
      report.add('overflow_risk', `${table.header.length} columns are too many for the slide width: header word(s) ${plan.brokenHeaderWords.map((w) => `"${w}"`).join(', ')} break inside; split the table`);
    }
  }
  return plan.elements;
}
