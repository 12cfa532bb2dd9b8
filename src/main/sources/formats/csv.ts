// CSV/TSV → a markdown table. RFC 4180 quoting: fields in double quotes may hold the delimiter,
// newlines and doubled quotes ("").
import { type ExtractionResult } from '../types';
import { markdownTable, pageMarker } from './markdown';
import { MAX_TABLE_ROWS } from './xlsx';

export function parseCsv(text: string, delimiter: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  let i = 0;
  const endRow = () => {
    row.push(field);
    if (!(row.length === 1 && row[0] === '')) rows.push(row);
    row = [];
    field = '';
  };
  while (i < text.length) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i += 1;
        } else {
          quoted = false;
        }
      } else {
        field += ch;
      }
    } else if (ch === '"' && field === '') {
      quoted = true;
    } else if (ch === delimiter) {
      row.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i += 1;
      endRow();
    } else {
      field += ch;
    }
    i += 1;
  }
  if (field !== '' || row.length > 0) endRow();
  return rows;
}

/** Excel in many European (and some Chinese) locales writes `;`-separated "CSV". */
export function guessDelimiter(text: string): string {
  const firstLine = text.slice(0, text.search(/\r?\n|$/u));
  const count = (ch: string) => firstLine.split(ch).length - 1;
  if (count('\t') > count(',') && count('\t') >= count(';')) return '\t';
  return count(';') > count(',') ? ';' : ',';
}

export function extractCsv(text: string, delimiter?: string): ExtractionResult {
  const all = parseCsv(text.replace(/^\uFEFF/u, ''), delimiter ?? guessDelimiter(text));
  const rows = all.slice(0, MAX_TABLE_ROWS + 1);
  const lines = [pageMarker(1), all.length === 0 ? '_(empty table)_' : markdownTable(rows)];
  if (all.length > rows.length) lines.push('', `_(showing the first ${rows.length - 1} of ${all.length - 1} data rows)_`);
  return { status: 'ok', markdown: `${lines.join('\n')}\n`, pages: 1 };
}
