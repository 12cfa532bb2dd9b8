// Draws a planned table (one page of it) as a native pptxgenjs table: the plan's column widths,
// row heights, alignment and theme colours; cell text in script runs so CJK gets its face.
import type PptxGenJS from 'pptxgenjs';
import { type TableElement } from '../../../../shared/specs/deck-plan';
import { TABLE_CELL_PAD_X_IN, TABLE_CELL_PAD_Y_IN } from '../../../../shared/specs/deck-geometry';
import { lineSpacingPt } from '../line-spacing';
import { paragraphRuns } from '../text-runs';
import { type DrawContext } from './context';
import { drawnLines } from '../plan/written-lines';

export function drawTable(ctx: DrawContext, el: TableElement): void {
  const padY = el.cellPadY ?? TABLE_CELL_PAD_Y_IN;
  const margin: [number, number, number, number] = [padY, TABLE_CELL_PAD_X_IN, padY, TABLE_CELL_PAD_X_IN];
  const spacing = lineSpacingPt(el.sizePt, ctx.theme.lineHeight);
  // A cell's text width, as plan/table.ts measures rows; CJK cells carry their measured breaks.
  const textW = (c: number): number => (el.colWidths[c] ?? 1) - 2 * TABLE_CELL_PAD_X_IN;
  const cell = (text: string, c: number, color: string, fill: string, header: boolean): PptxGenJS.TableCell => ({
    text: text
      .split(/\r?\n/)
      .flatMap((para, i, all) =>
        paragraphRuns(
          drawnLines(ctx, { text: para, bullet: 'none', level: 0, sizePt: el.sizePt, bold: header, color, spaceAfterPt: 0 }, 'body', textW(c)),
          { role: 'body', size: el.sizePt, color, bold: header },
          ctx,
          { lineSpacing: spacing, align: el.align[c] ?? 'left' },
          i === all.length - 1,
        ),
      ),
    options: { fill: { color: fill }, valign: header ? 'bottom' : 'top', margin, fontSize: el.sizePt, align: el.align[c] ?? 'left', border: rules },
  });
  const background = el.bodyFill ?? ctx.theme.palette.background;
  // Horizontal rules only: vertical lines add ink without helping the eye along a row.
  const rule: PptxGenJS.BorderProps = { type: 'solid', pt: 0.75, color: el.borderColor };
  const rules: [PptxGenJS.BorderProps, PptxGenJS.BorderProps, PptxGenJS.BorderProps, PptxGenJS.BorderProps] = [rule, { type: 'none' }, rule, { type: 'none' }];
  const rows: PptxGenJS.TableRow[] = [
    el.header.map((h, c) => cell(h, c, el.headerColor, el.headerFill, true)),
    ...el.rows.map((row, r) => row.map((text, c) => cell(text, c, el.textColor, el.zebraFill && r % 2 === 1 ? el.zebraFill : background, false))),
  ];
  ctx.slide.addTable(rows, {
    x: el.box.x,
    y: el.box.y,
    w: el.box.w,
    colW: el.colWidths,
    rowH: el.rowHeights,
    autoPage: false,
  });
}
