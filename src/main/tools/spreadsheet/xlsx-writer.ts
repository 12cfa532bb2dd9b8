// Rows → an .xlsx workbook, written by exceljs (a maintained writer: shared strings, styles and the
// zip layout Excel, WPS and LibreOffice open without repair are its job, not Folio's).
import ExcelJS from 'exceljs';

/** A cell as the model or a skill gives it: text, a number, true/false, or empty. */
export type SheetCell = string | number | boolean | null;

export interface SheetInput {
  name: string;
  /** The header row: bold, frozen above the data, and the filter's row. */
  header?: readonly string[];
  rows: readonly (readonly SheetCell[])[];
}

/** `2024-03-01` (optionally with `T10:30` / `T10:30:00`): written as a date cell, not as text. */
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?)?$/u;
const DATE_FORMAT = 'yyyy-mm-dd';
const DATE_TIME_FORMAT = 'yyyy-mm-dd hh:mm';
/** Excel refuses longer sheet names and these characters in them. */
const MAX_SHEET_NAME = 31;
const SHEET_NAME_FORBIDDEN = /[\\/?*[\]:]/gu;
const MAX_COLUMN_WIDTH = 60;

export class SheetInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SheetInputError';
  }
}

/** A date string as a UTC date (what the cell shows is what was written, whatever the machine's zone); null when not a date. */
export function isoDate(value: string): { date: Date; withTime: boolean } | null {
  const m = ISO_DATE.exec(value.trim());
  if (!m) return null;
  const [year, month, day, hour, minute, second] = m.slice(1).map((part) => (part === undefined ? 0 : Number(part)));
  const date = new Date(Date.UTC(year ?? 0, (month ?? 1) - 1, day ?? 1, hour ?? 0, minute ?? 0, second ?? 0));
  // 2024-02-30 rolls over to March in Date.UTC: such a string stays text.
  if (date.getUTCMonth() !== (month ?? 1) - 1 || date.getUTCDate() !== day) return null;
  return { date, withTime: m[4] !== undefined };
}

/** A sheet name Excel accepts, unique in the workbook (`Sheet`, `Sheet (2)`, …). */
export function sheetName(wanted: string, taken: ReadonlySet<string>): string {
  const base = wanted.replace(SHEET_NAME_FORBIDDEN, ' ').replace(/^'+|'+$/gu, '').trim().slice(0, MAX_SHEET_NAME) || 'Sheet';
  let name = base;
  for (let n = 2; taken.has(name.toLowerCase()); n++) {
    const suffix = ` (${n})`;
    name = `${base.slice(0, MAX_SHEET_NAME - suffix.length)}${suffix}`;
  }
  return name;
}

/** Display width of text in Excel's character units: Han and other wide characters count two. */
function displayWidth(text: string): number {
  let width = 0;
  for (const ch of text) width += /[\u1100-\u115F\u2E80-\uA4CF\uAC00-\uD7A3\uF900-\uFAFF\uFE30-\uFE4F\uFF00-\uFF60\uFFE0-\uFFE6]/u.test(ch) ? 2 : 1;
  return width;
}

function cellText(value: SheetCell): string {
  if (value === null) return '';
  return String(value);
}

/** The workbook's bytes: one worksheet per input sheet, ISO dates as date cells, columns sized to their text. */
export async function writeXlsx(sheets: readonly SheetInput[]): Promise<Buffer> {
  if (sheets.length === 0) throw new SheetInputError('a workbook needs at least one sheet');
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'Folio';
  const taken = new Set<string>();
  for (const input of sheets) {
    const name = sheetName(input.name, taken);
    taken.add(name.toLowerCase());
    const header = input.header ?? [];
    const sheet = workbook.addWorksheet(name, header.length > 0 ? { views: [{ state: 'frozen', ySplit: 1 }] } : {});
    const widths: number[] = [];
    const measure = (values: readonly SheetCell[]): void => {
      values.forEach((value, i) => {
        widths[i] = Math.max(widths[i] ?? 0, displayWidth(cellText(value)));
      });
    };
    if (header.length > 0) {
      const row = sheet.addRow([...header]);
      row.font = { bold: true };
      measure(header);
    }
    for (const values of input.rows) {
      const dates = values.map((value) => (typeof value === 'string' ? isoDate(value) : null));
      const row = sheet.addRow(values.map((value, i) => dates[i]?.date ?? value));
      dates.forEach((parsed, i) => {
        if (parsed) row.getCell(i + 1).numFmt = parsed.withTime ? DATE_TIME_FORMAT : DATE_FORMAT;
      });
      measure(values.map((value, i) => (dates[i] ? (dates[i].withTime ? DATE_TIME_FORMAT : DATE_FORMAT) : value)));
    }
    widths.forEach((width, i) => {
      sheet.getColumn(i + 1).width = Math.min(MAX_COLUMN_WIDTH, Math.max(8, width + 2));
    });
    if (header.length > 0 && input.rows.length > 0) sheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: 1, column: header.length } };
  }
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
