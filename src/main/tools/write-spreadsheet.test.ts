import fs from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { extractFile } from '../sources/extract';
import { contextFor, makeTempRoot, removeTemp, toolError, writeFiles } from './testing';
import { writeSpreadsheetTool } from './write-spreadsheet';
import { sheetName } from './spreadsheet/xlsx-writer';

let root: string;
beforeEach(() => {
  root = makeTempRoot();
});
afterEach(() => removeTemp(root));

const run = (args: unknown) => writeSpreadsheetTool.execute(writeSpreadsheetTool.parameters.parse(args), contextFor(root));

describe('write_spreadsheet', () => {
  it('writes a workbook Excel reads back: sheets, a bold frozen header, numbers as numbers, ISO dates as dates', async () => {
    const result = await run({
      path: 'work/tables/results.xlsx',
      sheets: [
        { name: 'Means', header: ['Group', 'n', 'Mean', 'Measured', 'Passed'], rows: [['对照组', 12, 3.25, '2024-03-01', true], ['Treated', 11, 4.5, '2024-03-02T09:30', false], ['Pending', null, null, '2024-02-30', null]] },
        { name: 'Notes', rows: [['Values as printed on p. 4']] },
      ],
    });
    expect(result.content).toMatch(/^Created work\/tables\/results\.xlsx \(\d+ bytes\): Means \(3 rows × 5 columns\); Notes \(1 rows × 1 columns\)\.$/u);
    expect(result.touched).toEqual(['work/tables/results.xlsx']);

    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(path.join(root, 'work/tables/results.xlsx'));
    expect(workbook.worksheets.map((s) => s.name)).toEqual(['Means', 'Notes']);
    const means = workbook.getWorksheet('Means');
    expect(means?.getRow(1).font?.bold).toBe(true);
    expect(means?.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(means?.getCell('B2').value).toBe(12);
    expect(means?.getCell('C2').value).toBe(3.25);
    expect(means?.getCell('E2').value).toBe(true);
    expect(means?.getCell('D2').value).toEqual(new Date(Date.UTC(2024, 2, 1)));
    expect(means?.getCell('D2').numFmt).toBe('yyyy-mm-dd');
    // Not a day of the calendar: it stays the text the model wrote.
    expect(means?.getCell('D4').value).toBe('2024-02-30');
    expect(means?.getCell('B4').value).toBeNull();

    // And Folio's own extraction reads what it wrote as written.
    const extracted = await extractFile(path.join(root, 'work/tables/results.xlsx'));
    expect(extracted.markdown).toContain('| 对照组 | 12 | 3.25 | 2024-03-01 | TRUE |');
    expect(extracted.markdown).toContain('| Treated | 11 | 4.5 | 2024-03-02 09:30 | FALSE |');
    expect(extracted.markdown).toContain('<!-- page 2 -->\n## Sheet: Notes');
  });

  it('replaces a file under work/, never one under artifacts/, and refuses paths outside the task or not .xlsx', async () => {
    writeFiles(root, { 'artifacts/final.xlsx': 'x' });
    await run({ path: 'work/t.xlsx', sheets: [{ name: 'A', rows: [[1]] }] });
    expect((await run({ path: 'work/t.xlsx', sheets: [{ name: 'A', rows: [[2]] }] })).content).toMatch(/^Replaced work\/t\.xlsx/u);
    expect((await toolError(run({ path: 'artifacts/final.xlsx', sheets: [{ name: 'A', rows: [] }] }))).message).toMatch(/never overwritten/u);
    expect((await toolError(run({ path: 'work/t.csv', sheets: [{ name: 'A', rows: [] }] }))).message).toMatch(/ending in \.xlsx/u);
    await expect(run({ path: '../escape.xlsx', sheets: [{ name: 'A', rows: [] }] })).rejects.toThrow();
    expect(fs.existsSync(path.join(root, '..', 'escape.xlsx'))).toBe(false);
    expect(fs.readFileSync(path.join(root, 'artifacts/final.xlsx'), 'utf8')).toBe('x');
  });

  it('makes sheet names Excel accepts: no forbidden characters, 31 characters at most, unique', () => {
    const taken = new Set<string>();
    const names = ['Q1/Q2: [draft]', 'q1 q2   draft', 'A very long sheet name that Excel would refuse'].map((wanted) => {
      const name = sheetName(wanted, taken);
      taken.add(name.toLowerCase());
      return name;
    });
    expect(names[0]).toBe('Q1 Q2   draft');
    expect(names[1]).toBe('q1 q2   draft (2)');
    expect(names[2]).toHaveLength(31);
  });
});
