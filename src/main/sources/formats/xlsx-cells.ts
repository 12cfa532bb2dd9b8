// What an .xlsx cell means beyond its stored text: numbers formatted as dates or times (the workbook's
// styles say which), and merged areas (one stored value shown over several cells).
import { attribute, elements, openTags } from './xml';

/** How a style shows a number: as a date, a date with time, a time of day, or as the number itself. */
export type NumberLook = 'date' | 'datetime' | 'time' | 'number';

export interface WorkbookFormats {
  /** Cell style index (`s="3"`) → how its numbers read. Styles not listed read as numbers. */
  styles: readonly NumberLook[];
  /** The 1904 date system (older Mac workbooks): serial 0 is 1904-01-01. */
  date1904: boolean;
}

export const PLAIN_FORMATS: WorkbookFormats = { styles: [], date1904: false };

/** Excel's built-in number formats that show dates or times (ECMA-376 §18.8.30, with the CJK locales' ids). */
const BUILTIN_LOOKS = new Map<number, NumberLook>([
  [14, 'date'], [15, 'date'], [16, 'date'], [17, 'date'], [18, 'time'], [19, 'time'], [20, 'time'], [21, 'time'], [22, 'datetime'],
  [27, 'date'], [28, 'date'], [29, 'date'], [30, 'date'], [31, 'date'], [32, 'time'], [33, 'time'], [34, 'time'], [35, 'time'], [36, 'date'],
  [45, 'time'], [46, 'time'], [47, 'time'],
  [50, 'date'], [51, 'date'], [52, 'date'], [53, 'date'], [54, 'date'], [55, 'time'], [56, 'time'], [57, 'date'], [58, 'date'],
]);

/** How a custom format code shows numbers: quoted text, `[Red]`-style sections and escapes are not date parts. */
export function lookOfFormatCode(code: string): NumberLook {
  const bare = code
    .split(';')[0]
    .replace(/"[^"]*"/gu, '')
    .replace(/\\./gu, '')
    .replace(/\[(?:h+|m+|s+)\]/giu, 'h')
    .replace(/\[[^\]]*\]/gu, '')
    .toLowerCase();
  const hasTime = /[hs]/u.test(bare);
  // `m` is the month unless hours or seconds are shown, where it is the minute (`h:mm`, `mm:ss`).
  const hasDate = /[dy]/u.test(bare) || (!hasTime && /m/u.test(bare));
  if (hasDate && hasTime) return 'datetime';
  if (hasDate) return 'date';
  if (hasTime) return 'time';
  return 'number';
}

/** Reads `xl/styles.xml` and `xl/workbook.xml` for how each cell style shows numbers. */
export function workbookFormats(stylesXml: string, workbookXml: string): WorkbookFormats {
  const custom = new Map<number, NumberLook>();
  for (const tag of openTags(stylesXml, 'numFmt')) {
    const id = Number(attribute(tag, 'numFmtId'));
    const code = attribute(tag, 'formatCode');
    if (Number.isInteger(id) && code !== null) custom.set(id, lookOfFormatCode(code));
  }
  const cellXfs = elements(stylesXml, 'cellXfs')[0] ?? '';
  const styles = openTags(cellXfs, 'xf').map((tag) => {
    const id = Number(attribute(tag, 'numFmtId') ?? '0');
    return custom.get(id) ?? BUILTIN_LOOKS.get(id) ?? 'number';
  });
  const pr = openTags(workbookXml, 'workbookPr')[0] ?? '';
  const flag = attribute(pr, 'date1904');
  return { styles, date1904: flag === '1' || flag === 'true' };
}

const DAY_MS = 86_400_000;
/** Serial 25569 is 1970-01-01 in the 1900 system. */
const UNIX_EPOCH_SERIAL = 25_569;
const DAYS_1900_TO_1904 = 1_462;

/** A stored serial as the text the cell shows: `2024-03-01`, `2024-03-01 09:30`, `09:30:15`. */
export function serialText(raw: string, look: NumberLook, date1904: boolean): string {
  const serial = Number(raw);
  if (look === 'number' || raw.trim() === '' || !Number.isFinite(serial)) return raw;
  // Excel counts 1900-02-29, a day that never was: serials before it are one day early.
  const days = (date1904 ? serial + DAYS_1900_TO_1904 : serial) + (!date1904 && serial < 60 ? 1 : 0);
  const at = new Date(Math.round((days - UNIX_EPOCH_SERIAL) * DAY_MS));
  if (Number.isNaN(at.getTime())) return raw;
  const iso = at.toISOString();
  const date = iso.slice(0, 10);
  const seconds = iso.slice(17, 19);
  const time = seconds === '00' ? iso.slice(11, 16) : iso.slice(11, 19);
  if (look === 'date') return date;
  if (look === 'time') return time;
  return `${date} ${time}`;
}

export interface MergedArea {
  top: number;
  left: number;
  bottom: number;
  right: number;
}

/** Column letters → 0-based index (`A` 0, `AA` 26). */
export function columnIndex(ref: string): number {
  const letters = /^[A-Z]+/u.exec(ref)?.[0] ?? '';
  let n = 0;
  for (const ch of letters) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n - 1;
}

/** `B3` → 0-based row and column; null for anything else. */
function cellAt(ref: string): { row: number; col: number } | null {
  const m = /^([A-Z]{1,3})(\d{1,7})$/u.exec(ref);
  return m ? { row: Number(m[2]) - 1, col: columnIndex(m[1] ?? '') } : null;
}

/** The sheet's merged areas (`<mergeCell ref="A1:C2"/>`), 0-based and inclusive. */
export function mergedAreas(sheetXml: string): MergedArea[] {
  const out: MergedArea[] = [];
  for (const tag of openTags(sheetXml, 'mergeCell')) {
    const [from, to] = (attribute(tag, 'ref') ?? '').split(':');
    const a = from ? cellAt(from) : null;
    const b = to ? cellAt(to) : null;
    if (a && b) out.push({ top: Math.min(a.row, b.row), left: Math.min(a.col, b.col), bottom: Math.max(a.row, b.row), right: Math.max(a.col, b.col) });
  }
  return out;
}
