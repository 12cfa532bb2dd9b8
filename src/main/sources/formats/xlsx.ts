// XLSX → one page per sheet, each a markdown table. Numbers whose style shows a date or time read as
// the date (`2024-03-01`), as Excel shows them; a merged area repeats its value in every cell it
// covers, so a label spanning rows still stands beside each row it labels.
import type JSZip from 'jszip';
import { type ExtractionResult, type ProgressFn } from '../types';
import { markdownTable, pageMarker } from './markdown';
import { attribute, decodeEntities, elements, openTags, relationships } from './xml';
import { columnIndex, mergedAreas, PLAIN_FORMATS, serialText, type WorkbookFormats, workbookFormats } from './xlsx-cells';

export const MAX_TABLE_ROWS = 2000;
/** Cells a merged area may fill: a sheet-wide merge would otherwise build millions of copies. */
const MAX_MERGE_FILL = 100_000;

/** Text of a rich-text item: all `<t>` runs, without phonetic guides (`<rPh>`, used for Japanese). */
function itemText(si: string): string {
  return elements(si.replace(/<rPh[\s\S]*?<\/rPh>/gu, ''), 't').map(decodeEntities).join('');
}

function cellValue(cell: string, openTag: string, shared: readonly string[], formats: WorkbookFormats): string {
  const type = attribute(openTag, 't');
  if (type === 'inlineStr') return itemText(elements(cell, 'is')[0] ?? '');
  const raw = decodeEntities(elements(cell, 'v')[0] ?? '');
  if (type === 's') return shared[Number(raw)] ?? '';
  if (type === 'b') return raw === '1' ? 'TRUE' : raw === '0' ? 'FALSE' : raw;
  if (type === 'str' || type === 'e' || type === 'd') return raw;
  const look = formats.styles[Number(attribute(openTag, 's') ?? '0')] ?? 'number';
  return serialText(raw, look, formats.date1904);
}

export function sheetRows(xml: string, shared: readonly string[], formats: WorkbookFormats = PLAIN_FORMATS): { rows: string[][]; total: number } {
  const grid = new Map<number, string[]>();
  let nextRow = 0;
  // Lazy attributes: an empty `<c r="A4"/>` must end at its own `/>`, not swallow the next cell.
  for (const m of xml.matchAll(/<row(?:\s[^>]*?)?(?:\/>|>([\s\S]*?)<\/row>)/gu)) {
    const number = Number(attribute(m[0], 'r'));
    const index = Number.isInteger(number) && number > 0 ? number - 1 : nextRow;
    nextRow = index + 1;
    const row = grid.get(index) ?? [];
    grid.set(index, row);
    let next = 0;
    for (const c of (m[1] ?? '').matchAll(/(<c(?:\s[^>]*?)?)(?:\/>|>([\s\S]*?)<\/c>)/gu)) {
      const open = c[1] ?? '';
      const ref = attribute(open, 'r');
      const col = ref ? columnIndex(ref) : next;
      next = col + 1;
      row[col] = cellValue(c[2] ?? '', open, shared, formats);
    }
  }
  fillMergedAreas(grid, xml);
  const rows: string[][] = [];
  let total = 0;
  for (const index of [...grid.keys()].sort((a, b) => a - b)) {
    const filled = Array.from(grid.get(index) ?? [], (v) => v ?? '');
    if (filled.every((v) => v.trim() === '')) continue;
    total += 1;
    if (rows.length < MAX_TABLE_ROWS) rows.push(filled);
  }
  return { rows, total };
}

/** Copies each merged area's top-left value into the area's other cells, on rows the sheet has. */
function fillMergedAreas(grid: Map<number, string[]>, xml: string): void {
  let budget = MAX_MERGE_FILL;
  for (const area of mergedAreas(xml)) {
    const value = grid.get(area.top)?.[area.left];
    if (value === undefined || value === '') continue;
    for (let r = area.top; r <= area.bottom && budget > 0; r++) {
      const row = grid.get(r);
      if (!row) continue;
      for (let c = area.left; c <= area.right && budget > 0; c++, budget--) row[c] = value;
    }
  }
}

export async function extractXlsx(zip: JSZip, onProgress: ProgressFn): Promise<ExtractionResult> {
  const workbook = (await zip.file('xl/workbook.xml')?.async('string')) ?? '';
  const rels = relationships((await zip.file('xl/_rels/workbook.xml.rels')?.async('string')) ?? '', 'xl');
  const sharedXml = (await zip.file('xl/sharedStrings.xml')?.async('string')) ?? '';
  const shared = elements(sharedXml, 'si').map(itemText);
  const formats = workbookFormats((await zip.file('xl/styles.xml')?.async('string')) ?? '', workbook);
  const sheets = openTags(workbook, 'sheet').map((tag) => ({
    name: attribute(tag, 'name') ?? 'Sheet',
    part: rels.get(attribute(tag, 'r:id') ?? '')?.target ?? null,
  }));
  const parts: string[] = [];
  for (const [i, sheet] of sheets.entries()) {
    const xml = sheet.part ? ((await zip.file(sheet.part)?.async('string')) ?? '') : '';
    const { rows, total } = sheetRows(xml, shared, formats);
    const lines = [pageMarker(i + 1), `## Sheet: ${sheet.name}`, '', rows.length === 0 ? '_(empty sheet)_' : markdownTable(rows)];
    if (total > rows.length) lines.push('', `_(showing the first ${rows.length} of ${total} rows)_`);
    parts.push(lines.join('\n'));
    onProgress(i + 1, sheets.length);
  }
  return { status: 'ok', markdown: `${parts.join('\n\n')}\n`, pages: sheets.length };
}
