// .xlsx sources through the real extraction path, with workbooks exceljs writes as Excel would:
// dates under date styles, merged areas, several sheets.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lookOfFormatCode, serialText } from './formats/xlsx-cells';
import { extractFile } from './extract';

let dir: string;
beforeAll(() => {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'folio-xlsx-')));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function saved(name: string, build: (workbook: ExcelJS.Workbook) => void): Promise<string> {
  const workbook = new ExcelJS.Workbook();
  build(workbook);
  const abs = path.join(dir, name);
  fs.writeFileSync(abs, Buffer.from(await workbook.xlsx.writeBuffer()));
  return abs;
}

describe('extractFile: .xlsx written by exceljs', () => {
  it('reads dates and times under date styles as the cell shows them, and plain numbers as numbers', async () => {
    const abs = await saved('dates.xlsx', (workbook) => {
      const sheet = workbook.addWorksheet('Visits');
      sheet.addRow(['Day', 'Arrived', 'At', 'Builtin', 'Amount']);
      const row = sheet.addRow([new Date(Date.UTC(2024, 2, 1)), new Date(Date.UTC(2024, 2, 1, 9, 30)), new Date(Date.UTC(1899, 11, 30, 14, 5, 7)), new Date(Date.UTC(2023, 11, 31)), 1200.5]);
      row.getCell(1).numFmt = 'yyyy-mm-dd';
      row.getCell(2).numFmt = 'yyyy/m/d h:mm';
      row.getCell(3).numFmt = 'hh:mm:ss';
      // exceljs writes this code as the built-in format 14.
      row.getCell(4).numFmt = 'mm-dd-yy';
      row.getCell(5).numFmt = '#,##0.00 "元"';
    });
    const result = await extractFile(abs);
    expect(result.status).toBe('ok');
    expect(result.markdown).toContain('| 2024-03-01 | 2024-03-01 09:30 | 14:05:07 | 2023-12-31 | 1200.5 |');
  });

  it('repeats a merged area\'s value in every cell it covers, across columns and down rows', async () => {
    const abs = await saved('merged.xlsx', (workbook) => {
      const sheet = workbook.addWorksheet('Budget');
      sheet.addRow(['预算 2024', null, null]);
      sheet.addRow(['Group', 'Item', 'Cost']);
      sheet.addRow(['设备', 'Microscope', 1200]);
      sheet.addRow([null, 'Centrifuge', 800]);
      sheet.addRow(['Travel', 'Conference', 300]);
      sheet.mergeCells('A1:C1');
      sheet.mergeCells('A3:A4');
    });
    const result = await extractFile(abs);
    expect(result.markdown).toContain(
      ['| 预算 2024 | 预算 2024 | 预算 2024 |', '| --- | --- | --- |', '| Group | Item | Cost |', '| 设备 | Microscope | 1200 |', '| 设备 | Centrifuge | 800 |', '| Travel | Conference | 300 |'].join('\n'),
    );
  });

  it('gives every sheet its own page, in workbook order, named as in the workbook', async () => {
    const abs = await saved('sheets.xlsx', (workbook) => {
      workbook.addWorksheet('Summary').addRow(['Total', 2300]);
      workbook.addWorksheet('明细 & notes').addRow(['Row', 'one']);
      workbook.addWorksheet('Empty');
    });
    const progress: number[] = [];
    const result = await extractFile(abs, { onProgress: (done) => progress.push(done) });
    expect(result.pages).toBe(3);
    expect(result.markdown).toContain('<!-- page 1 -->\n## Sheet: Summary\n\n| Total | 2300 |');
    expect(result.markdown).toContain('<!-- page 2 -->\n## Sheet: 明细 & notes\n\n| Row | one |');
    expect(result.markdown).toContain('<!-- page 3 -->\n## Sheet: Empty\n\n_(empty sheet)_');
    expect(progress).toEqual([1, 2, 3]);
  });
});

describe('number formats', () => {
  it('tells dates, times and numbers apart by format code', () => {
    expect(lookOfFormatCode('yyyy"年"m"月"d"日"')).toBe('date');
    expect(lookOfFormatCode('mmm-yy')).toBe('date');
    expect(lookOfFormatCode('[h]:mm:ss')).toBe('time');
    expect(lookOfFormatCode('mm:ss')).toBe('time');
    expect(lookOfFormatCode('[$-409]m/d/yy h:mm AM/PM')).toBe('datetime');
    expect(lookOfFormatCode('#,##0.00 "days"')).toBe('number');
    expect(lookOfFormatCode('[Red]0.00;[Blue]-0.00')).toBe('number');
    expect(lookOfFormatCode('General')).toBe('number');
  });

  it('converts serials in both date systems, with Excel\'s phantom 1900-02-29 before March 1900', () => {
    expect(serialText('45352', 'date', false)).toBe('2024-03-01');
    expect(serialText('43890', 'date', true)).toBe('2024-03-01');
    expect(serialText('1', 'date', false)).toBe('1900-01-01');
    expect(serialText('61', 'date', false)).toBe('1900-03-01');
    expect(serialText('abc', 'date', false)).toBe('abc');
    expect(serialText('45352.5', 'number', false)).toBe('45352.5');
  });
});
