// Plans a table as pages of similar size with the header repeated (first version; the table
// designer replaces this file). Columns are sized from their content, numbers right-aligned.
import { type TableSpec } from '../../../../shared/specs/deck';
import { type TableElement } from '../../../../shared/specs/deck-plan';
import { FIT_SLACK, POINTS_PER_INCH, type Region } from '../../../../shared/specs/deck-geometry';
import { type PlanContext } from './context';
import { balancedPages } from './bullets';
import { fontPair } from './text';

const CELL_MARGIN = 0.08;
const NUMERIC = /^[\s(+−-]*[$€£¥]?\s*\d[\d,.\s]*(%|[a-zA-Z]{0,3})?\)?$/;

export function planTable(ctx: PlanContext, table: TableSpec, box: Region): TableElement[] {
  const p = ctx.theme.palette;
  const sizePt = ctx.theme.sizes.table;
  const fonts = fontPair(ctx, 'body');
  const width = (t: string, bold: boolean): number => ctx.measurer.widthPt(t, { fonts, sizePt, bold }) / POINTS_PER_INCH;
  const n = table.header.length;
  // Longest header word (bold) sets a minimum, so no header word breaks; content sets the wish.
  const minW = table.header.map((h) => Math.max(...h.split(/\s+/).map((w) => width(w, true))) + 2 * CELL_MARGIN);
  const wish = table.header.map((h, c) => Math.max(width(h, true), ...table.rows.slice(0, 200).map((r) => width(r[c] ?? '', false))) + 2 * CELL_MARGIN);
  const minSum = minW.reduce((a, b) => a + b, 0);
  const extra = Math.max(0, box.w - minSum);
  const wishExtra = wish.map((w, i) => Math.max(0, w - (minW[i] ?? 0)));
  const wishSum = wishExtra.reduce((a, b) => a + b, 0) || 1;
  let colWidths = minW.map((m, i) => m + (extra * (wishExtra[i] ?? 0)) / wishSum);
  if (wishExtra.every((w) => w === 0)) colWidths = minW.map((m) => m + extra / n);
  const scale = box.w / colWidths.reduce((a, b) => a + b, 0);
  colWidths = colWidths.map((w) => w * scale);
  const align = table.header.map((_, c) => {
    const cells = table.rows.map((r) => (r[c] ?? '').trim()).filter(Boolean);
    return cells.length > 0 && cells.every((v) => NUMERIC.test(v)) ? ('right' as const) : ('left' as const);
  });
  const lineIn = (sizePt * ctx.theme.lineHeight) / POINTS_PER_INCH;
  const rowHeight = (cells: readonly string[], bold: boolean): number =>
    Math.max(...cells.map((cell, c) => ctx.measurer.wrap(cell, { fonts, sizePt, bold }, Math.max(1, ((colWidths[c] ?? 1) - 2 * CELL_MARGIN) * POINTS_PER_INCH)).length)) * lineIn + 2 * CELL_MARGIN;
  const headerH = rowHeight(table.header, true);
  const rowHeights = table.rows.map((r) => rowHeight(r, false));
  const room = Math.max(lineIn, box.h - FIT_SLACK - headerH);
  const pages = table.rows.length > 0 ? balancedPages(rowHeights, room) : [[]];
  if (pages.length > 1) ctx.report.add('split', `${table.rows.length} rows did not fit one slide: split over ${pages.length} slides (${pages.map((pg) => pg.length).join(' + ')} rows) with the header repeated`);
  return pages.map((idx) => {
    const heights = [headerH, ...idx.map((i) => rowHeights[i] ?? lineIn)];
    return {
      kind: 'table',
      id: 'table',
      box: { ...box, h: Math.min(box.h, heights.reduce((a, b) => a + b, 0)) },
      header: [...table.header],
      rows: idx.map((i) => [...(table.rows[i] ?? [])]),
      colWidths,
      align,
      rowHeights: heights,
      sizePt,
      headerFill: p.tableHeader,
      headerColor: p.tableHeaderText,
      textColor: p.text,
      zebraFill: p.tableZebra,
      borderColor: p.tableBorder,
    };
  });
}
