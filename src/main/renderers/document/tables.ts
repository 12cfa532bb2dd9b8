// GFM tables → Word tables: a fixed grid whose column widths add up to the text width exactly, the
// first row marked as a header that repeats on every page, single borders, header shading.
import {
  AlignmentType,
  BorderStyle,
  type ParagraphChild,
  Paragraph,
  Table,
  TableCell,
  TableLayoutType,
  TableRow,
  WidthType,
} from 'docx';
import { type Table as MdTable, type AlignType } from 'mdast';
import { type RenderContext } from './context';
import { STYLE } from './styles';
import { emWidth } from './text-metrics';
import { plainText } from './mdast-text';

export type InlineRenderer = (nodes: MdTable['children'][number]['children'][number]['children'], bold: boolean) => ParagraphChild[];

const BORDER = { style: BorderStyle.SINGLE, size: 4, color: '808080' };
const MIN_SHARE = 0.08;

/**
 * Splits `total` twips among columns in proportion to their content (the widest cell, counted in ems,
 * damped with a square root so one long cell doesn't starve the others), with a floor per column.
 * The last column takes the rounding remainder, so the widths always sum to `total`.
 */
export function columnWidths(contentEms: readonly number[], total: number): number[] {
  const n = contentEms.length;
  if (n === 0) return [];
  const weights = contentEms.map((ems) => Math.sqrt(Math.max(2, ems)));
  const sum = weights.reduce((a, b) => a + b, 0);
  const floor = Math.min(MIN_SHARE, 1 / n);
  const shares = weights.map((w) => Math.max(floor, w / sum));
  const shareSum = shares.reduce((a, b) => a + b, 0);
  const widths = shares.map((s) => Math.floor((s / shareSum) * total));
  const assigned = widths.slice(0, -1).reduce((a, b) => a + b, 0);
  widths[n - 1] = total - assigned;
  return widths;
}

function alignment(align: AlignType | undefined): (typeof AlignmentType)[keyof typeof AlignmentType] {
  if (align === 'center') return AlignmentType.CENTER;
  if (align === 'right') return AlignmentType.RIGHT;
  return AlignmentType.LEFT;
}

export function convertTable(node: MdTable, ctx: RenderContext, inline: InlineRenderer): Table {
  const columns = Math.max(...node.children.map((row) => row.children.length), 1);
  const texts = node.children.map((row) => Array.from({ length: columns }, (_, i) => plainText(row.children[i])));
  const contentEms = Array.from({ length: columns }, (_, col) => Math.max(...texts.map((row) => emWidth(row[col] ?? ''))));
  const widths = columnWidths(contentEms, ctx.geometry.textWidth);
  const sizePt = ctx.template.bodySizePt - 1.5;

  const rows = node.children.map((row, rowIndex) => {
    const header = rowIndex === 0;
    ctx.measures.push({ kind: 'row', sizePt, cells: widths.map((w, i) => ({ text: texts[rowIndex]?.[i] ?? '', widthTwips: w })) });
    return new TableRow({
      tableHeader: header,
      cantSplit: true,
      children: widths.map((width, col) => {
        const cell = row.children[col];
        return new TableCell({
          width: { size: width, type: WidthType.DXA },
          ...(header ? { shading: { type: 'clear', fill: 'E7E6E6', color: 'auto' } } : {}),
          children: [
            new Paragraph({
              style: STYLE.tableText,
              alignment: header ? AlignmentType.CENTER : alignment(node.align?.[col]),
              children: cell ? inline(cell.children, header) : [],
            }),
          ],
        });
      }),
    });
  });

  ctx.stats.tables += 1;
  return new Table({
    width: { size: ctx.geometry.textWidth, type: WidthType.DXA },
    columnWidths: widths,
    layout: TableLayoutType.FIXED,
    borders: { top: BORDER, bottom: BORDER, left: BORDER, right: BORDER, insideHorizontal: BORDER, insideVertical: BORDER },
    rows,
  });
}
