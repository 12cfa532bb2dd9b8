// write_spreadsheet: a table the model built (or extracted) as an .xlsx workbook, one sheet per table.
import fs from 'node:fs/promises';
import { z } from 'zod';
import { writeInside } from '../workspace/task-paths';
import { ARTIFACT_OVERWRITE_MESSAGE } from './artifacts';
import { SheetInputError, writeXlsx } from './spreadsheet/xlsx-writer';
import { errnoCode } from './text';
import { resolveToolPath, type Tool, ToolError, ToolNotAllowedError, type ToolTraits } from './types';

const MAX_SHEETS = 50;
const MAX_ROWS = 100_000;
const MAX_COLUMNS = 500;

const cell = z.union([z.string().max(32_767), z.number().finite(), z.boolean(), z.null()]);
const parameters = z.object({
  path: z.string().describe('Where to write the workbook, relative to the task folder, ending in .xlsx (e.g. work/tables/results.xlsx).'),
  sheets: z
    .array(
      z.object({
        name: z.string().max(200).describe('Sheet name (Excel keeps 31 characters; names are made unique).'),
        header: z.array(z.string().max(1000)).max(MAX_COLUMNS).optional().describe('Column titles: a bold, frozen first row.'),
        rows: z.array(z.array(cell).max(MAX_COLUMNS)).max(MAX_ROWS).describe('The data rows, one array of cells per row.'),
      }),
    )
    .min(1)
    .max(MAX_SHEETS),
});

const traits: ToolTraits = { kind: 'edit', runsCode: false, network: false, paths: { read: [], write: ['work', 'artifact'] }, writesArtifacts: false, endsTurn: false };

export const writeSpreadsheetTool: Tool<typeof parameters> = {
  name: 'write_spreadsheet',
  description:
    'Write tables as an Excel workbook (.xlsx), one sheet per table, replacing the file if it exists (files under artifacts/ are never replaced). ' +
    'Cells are text, numbers (keep them numbers, not strings, so Excel can compute with them), true/false or null for empty. ' +
    'A text cell written as an ISO date ("2024-03-01" or "2024-03-01T09:30") becomes a real date cell. ' +
    'Use it when the person wants a spreadsheet or Excel file; use write for CSV.',
  parameters,
  traits,
  assess() {
    return { risk: 'standard', detail: null };
  },
  async execute(args, ctx) {
    const { abs, rel, root, area } = resolveToolPath(ctx, traits, args.path, 'write');
    if (!/\.xlsx$/iu.test(rel)) throw new ToolError(`${rel}: write_spreadsheet writes .xlsx files; give a path ending in .xlsx (use write for CSV).`);
    const existing = await fs.stat(abs).catch((err: unknown) => {
      if (errnoCode(err) === 'ENOENT') return null;
      throw err;
    });
    if (existing?.isDirectory()) throw new ToolError(`${rel} is a directory; give a file path.`);
    const artifact = area === 'artifact';
    if (artifact && existing) throw new ToolNotAllowedError(`${rel} already exists: ${ARTIFACT_OVERWRITE_MESSAGE}.`, rel);
    let bytes: Buffer;
    try {
      bytes = await writeXlsx(args.sheets);
    } catch (err) {
      if (err instanceof SheetInputError) throw new ToolError(err.message);
      throw err;
    }
    try {
      await writeInside(root, rel, bytes, { exclusive: artifact });
    } catch (err) {
      if (errnoCode(err) === 'EEXIST') throw new ToolNotAllowedError(`${rel} already exists: ${ARTIFACT_OVERWRITE_MESSAGE}.`, rel);
      throw err;
    }
    const summary = args.sheets.map((sheet) => `${sheet.name} (${sheet.rows.length} rows × ${Math.max(sheet.header?.length ?? 0, ...sheet.rows.map((row) => row.length))} columns)`);
    return { content: `${existing ? 'Replaced' : 'Created'} ${rel} (${bytes.length} bytes): ${summary.join('; ')}.`, touched: [rel] };
  },
};
