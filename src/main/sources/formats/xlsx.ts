// XLSX → one page per sheet, each a markdown table. Cells are read as stored: numbers formatted as
// dates in Excel come out as serial numbers (the styles that say "date" are not interpreted).
import type JSZip from 'jszip';
import { type ExtractionResult, type ProgressFn } from '../types';
import { markdownTable, pageMarker } from './markdown';
import { attribute, decodeEntities, elements, openTags, relationships } from './xml';

export const MAX_TABLE_ROWS = 2000;

/** Text of a rich-text item: all `<t>` runs, without phonetic guides (`<rPh>`, used for Japanese). */
function itemText(si: string): string {
  return elements(si.replace(/<rPh[\s\S]*?<\/rPh>/gu, ''), 't').map(decodeEntities).join('');
}

function columnIndex(ref: string): number {
  const letters = /^[A-Z]+/u.exec(ref)?.[0] ?? '';
  let n = 0;
  for (const ch of letters) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n - 1;
}

function cellValue(cell: string, openTag: string, shared: readonly string[]): string {
  const type = attribute(openTag, 't');
  if (type === 'inlineStr') return itemText(elements(cell, 'is')[0] ?? '');
  const raw = decodeEntities(elements(cell, 'v')[0] ?? '');
  if (type === 's') return shared[Number(raw)] ?? '';
  if (type === 'b') return raw === '1' ? 'TRUE' : raw === '0' ? 'FALSE' : raw;
  return raw;
}

export function sheetRows(xml: string, shared: readonly string[]): { rows: string[][]; total: number } {
  const rows: string[][] = [];
  let total = 0;
  for (const m of xml.matchAll(/<row(?:\s[^>]*)?(?:\/>|>([\s\S]*?)<\/row>)/gu)) {
    const body = m[1] ?? '';
    const row: string[] = [];
    let next = 0;
    for (const c of body.matchAll(/(<c(?:\s[^>]*)?)(?:\/>|>([\s\S]*?)<\/c>)/gu)) {
      const open = c[1] ?? '';
      const ref = attribute(open, 'r');
      const col = ref ? columnIndex(ref) : next;
      next = col + 1;
      row[col] = cellValue(c[2] ?? '', open, shared);
    }
    const filled = Array.from(row, (v) => v ?? '');
    if (filled.every((v) => v.trim() === '')) continue;
    total += 1;
    if (rows.length < MAX_TABLE_ROWS) rows.push(filled);
  }
  return { rows, total };
}

export async function extractXlsx(zip: JSZip, onProgress: ProgressFn): Promise<ExtractionResult> {
  const workbook = (await zip.file('xl/workbook.xml')?.async('string')) ?? '';
  const rels = relationships((await zip.file('xl/_rels/workbook.xml.rels')?.async('string')) ?? '', 'xl');
  const sharedXml = (await zip.file('xl/sharedStrings.xml')?.async('string')) ?? '';
  const shared = elements(sharedXml, 'si').map(itemText);
  const sheets = openTags(workbook, 'sheet').map((tag) => ({
    name: attribute(tag, 'name') ?? 'Sheet',
    part: rels.get(attribute(tag, 'r:id') ?? '')?.target ?? null,
  }));
  const parts: string[] = [];
  for (const [i, sheet] of sheets.entries()) {
    const xml = sheet.part ? ((await zip.file(sheet.part)?.async('string')) ?? '') : '';
    const { rows, total } = sheetRows(xml, shared);
    const lines = [pageMarker(i + 1), `## Sheet: ${sheet.name}`, '', rows.length === 0 ? '_(empty sheet)_' : markdownTable(rows)];
    if (total > rows.length) lines.push('', `_(showing the first ${rows.length} of ${total} rows)_`);
    parts.push(lines.join('\n'));
    onProgress(i + 1, sheets.length);
  }
  return { status: 'ok', markdown: `${parts.join('\n\n')}\n`, pages: sheets.length };
}
