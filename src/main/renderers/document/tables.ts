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
import { documentMeasureStyle } from './measure-style';
import { STYLE } from './styles';
import { plainText } from './mdast-text';
import { breakSegments, withoutTrailingSpaces } from '../typesetting/fonts/line-break';
import { type MeasureStyle, type TextMeasurer } from '../typesetting/text-measurer';
import { CELL_MARGINS, type CellText, cleanBreakWidths } from './cell-breaks';
import { printedCell, printedEms } from './cell-text';

export type InlineRenderer = (nodes: MdTable['children'][number]['children'][number]['children'], bold: boolean) => ParagraphChild[];

const BORDER = { style: BorderStyle.SINGLE, size: 4, color: '808080' };
const MIN_SHARE = 0.08;
/** Faces differ a little between LibreOffice, Word and our metrics: a word is given this much room. */
const SAFETY = 1.06;
/** A Chinese phrase up to this many characters is kept whole in a table (a header such as 版面结构预训练). */
const WHOLE_PHRASE_CHARS = 8;
/** Tables with at most this many rows are kept on one page. */
export const KEEP_TOGETHER_ROWS = 6;

const HAN = /\p{Script=Han}/u;
const SPACE = /\s+/u;

/**
 * The pieces of a cell's text a line must not break inside: each space-separated token whole (Recall@10,
 * 数据集-1, 3.5%), except a Chinese run longer than a phrase, which breaks between its words (jieba) as
 * the line-breaking rules allow.
 */
export function unbreakablePieces(text: string): string[] {
  return text
    .split(SPACE)
    .filter((token) => token !== '')
    .flatMap((token) => (HAN.test(token) && Array.from(token).length > WHOLE_PHRASE_CHARS ? breakSegments(token).map(withoutTrailingSpaces) : [token]));
}

/** The narrowest each column may be, in twips: its widest unbreakable piece (headers in bold) plus the cell margins. */
export function minimumColumnWidths(rows: readonly (readonly string[])[], measurer: TextMeasurer, style: MeasureStyle): number[] {
  const columns = Math.max(0, ...rows.map((row) => row.length));
  return Array.from({ length: columns }, (_, col) => {
    let widest = 0;
    rows.forEach((row, r) => {
      for (const piece of unbreakablePieces(row[col] ?? '')) widest = Math.max(widest, measurer.widthPt(piece, { ...style, bold: r === 0 }));
    });
    return Math.ceil(widest * 20 * SAFETY) + CELL_MARGINS;
  });
}

/**
 * Raises every column below its minimum to it, taking the room from the columns that have more than theirs
 * (in proportion to their slack); when the minimums add up to more than the table, they share it in proportion.
 */
export function fitMinimums(widths: readonly number[], minimums: readonly number[], total: number): { widths: number[]; fits: boolean } {
  const need = minimums.reduce((a, b) => a + b, 0);
  if (need > total) {
    const scaled = minimums.map((m) => Math.floor((m / need) * total));
    scaled[scaled.length - 1] = total - scaled.slice(0, -1).reduce((a, b) => a + b, 0);
    return { widths: scaled, fits: false };
  }
  const out = [...widths];
  for (let pass = 0; pass < out.length; pass++) {
    const deficit = out.reduce((sum, w, i) => sum + Math.max(0, (minimums[i] ?? 0) - w), 0);
    if (deficit === 0) break;
    const slack = out.map((w, i) => Math.max(0, w - (minimums[i] ?? 0)));
    const slackSum = slack.reduce((a, b) => a + b, 0);
    out.forEach((w, i) => {
      const min = minimums[i] ?? 0;
      out[i] = w < min ? min : w - Math.floor(((slack[i] ?? 0) / slackSum) * deficit);
    });
  }
  const last = out.length - 1;
  out[last] = total - out.slice(0, -1).reduce((a, b) => a + b, 0);
  return { widths: out, fits: true };
}

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

/** Each column's cells as the document prints them (printedCell: citations as their numbers, cross-references as "表 1"); the first row bold. */
function printedColumns(rows: readonly (readonly string[])[], ctx: RenderContext): CellText[][] {
  const columns = Math.max(0, ...rows.map((row) => row.length));
  const references = { label: (id: string) => ctx.referenceLabel(id), separator: ctx.referenceSeparator };
  return Array.from({ length: columns }, (_, col) => rows.map((row, r) => printedCell(row[col] ?? '', r === 0, ctx.citations, references)));
}

function alignment(align: AlignType | undefined): (typeof AlignmentType)[keyof typeof AlignmentType] {
  if (align === 'center') return AlignmentType.CENTER;
  if (align === 'right') return AlignmentType.RIGHT;
  return AlignmentType.LEFT;
}

export function convertTable(node: MdTable, ctx: RenderContext, inline: InlineRenderer): Table {
  const columns = Math.max(...node.children.map((row) => row.children.length), 1);
  const texts = node.children.map((row) => Array.from({ length: columns }, (_, i) => plainText(row.children[i])));
  // Widths are allotted from the text as it prints: "[@xu2022]" is a small "[5]", "[@tbl:x]" is "表 1".
  const printed = printedColumns(texts, ctx);
  const printedRows = texts.map((_, r) => printed.map((column) => column[r]?.text ?? ''));
  const contentEms = printed.map((column) => Math.max(...column.map(printedEms)));
  const sizePt = ctx.template.bodySizePt - 1.5;
  const style = documentMeasureStyle('body', ctx.language, sizePt);
  const minimums = minimumColumnWidths(printedRows, ctx.measurer, style);
  const fitted = fitMinimums(columnWidths(contentEms, ctx.geometry.textWidth), minimums, ctx.geometry.textWidth);
  const { fits } = fitted;
  const widths = fits && ctx.isChinese ? cleanBreakWidths(fitted.widths, minimums, printed, ctx.measurer, style) : fitted.widths;
  if (!fits) {
    const header = (texts[0] ?? []).filter((t) => t.trim() !== '').join(' | ');
    ctx.report('table_too_wide', `the table "${header.slice(0, 50)}" has ${columns} columns whose longest words do not fit side by side on the page: some words will break; split the table or shorten its headers`, node, { params: { columns } });
  }
  // Short tables stay on one page; a longer one keeps its header with two rows and never leaves its last row alone.
  const count = node.children.length;
  const keepWithNext = (rowIndex: number): boolean => (count <= KEEP_TOGETHER_ROWS ? rowIndex < count - 1 : rowIndex <= 1 || rowIndex === count - 2);

  const rows = node.children.map((row, rowIndex) => {
    const header = rowIndex === 0;
    ctx.measures.push({ kind: 'row', sizePt, cells: widths.map((w, i) => ({ text: printedRows[rowIndex]?.[i] ?? '', widthTwips: w })) });
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
              ...(keepWithNext(rowIndex) ? { keepNext: true } : {}),
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
