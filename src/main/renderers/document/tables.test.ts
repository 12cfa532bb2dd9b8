// Table columns are never narrower than their longest word, and tables keep together as a typesetter would.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tableMeasurer } from '../typesetting/fonts';
import { renderDocument } from './index';
import { fitMinimums, KEEP_TOGETHER_ROWS, minimumColumnWidths, unbreakablePieces } from './tables';
import { documentFolder, openDocx } from './testing/docx';
import { documentMeasureStyle } from './measure-style';

const STYLE = documentMeasureStyle('body', 'zh-CN', 10.5);

describe('table column widths', () => {
  it('keeps Latin tokens, numbers with their labels and short Chinese phrases whole; long Chinese runs break between words', () => {
    expect(unbreakablePieces('Recall@10')).toEqual(['Recall@10']);
    expect(unbreakablePieces('数据集-1 Dataset')).toEqual(['数据集-1', 'Dataset']);
    expect(unbreakablePieces('版面结构预训练')).toEqual(['版面结构预训练']);
    const long = unbreakablePieces('面向低资源场景的文档智能理解方法');
    expect(long.length).toBeGreaterThan(2);
    expect(long.join('')).toBe('面向低资源场景的文档智能理解方法');
    // jieba's words, not characters: 文档 and 理解 are never cut.
    expect(long).toEqual(expect.arrayContaining(['文档', '理解']));
  });

  it('gives every column at least its widest word (bold in the header) and takes the room from the roomy ones', () => {
    const rows = [
      ['方法', 'Recall@10', '版面结构预训练'],
      ['本文方法，在三个公开数据集上都取得了最好的结果并且保持较低的推理成本', '0.91', '是'],
    ];
    const minimums = minimumColumnWidths(rows, tableMeasurer, STYLE);
    const recall = tableMeasurer.widthPt('Recall@10', { ...STYLE, bold: true }) * 20;
    expect(minimums[1]).toBeGreaterThan(recall + 200);
    expect(minimums[2]).toBeGreaterThan(7 * 10.5 * 20);
    // Proportional widths would starve the short headers next to the long first column.
    const { widths, fits } = fitMinimums([7000, 1000, 1000], minimums, 9000);
    expect(fits).toBe(true);
    expect(widths.reduce((a, b) => a + b, 0)).toBe(9000);
    widths.forEach((w, i) => expect(w).toBeGreaterThanOrEqual(minimums[i] ?? 0));
  });

  it('shares the page in proportion to the minimums when they cannot all fit, and says so', () => {
    const { widths, fits } = fitMinimums([3000, 3000, 3000], [6000, 4000, 2000], 9000);
    expect(fits).toBe(false);
    expect(widths).toEqual([4500, 3000, 1500]);
  });
});

describe('tables in the .docx', () => {
  const table = (rows: number): string =>
    ['| 指标 | Recall@10 | 版面结构预训练 |', '| --- | --- | --- |', ...Array.from({ length: rows - 1 }, (_, i) => `| 第 ${i + 1} 行的一段说明文字，写得比较长 | 0.${i} | 是 |`)].join('\n');

  it('writes the widened grid, keeps a short table on one page and a long one without a lone first or last row', async () => {
    const folder = documentFolder({ title: '表格', template: 'nsfc_general', language: 'zh-CN' }, {
      '01.md': `# 立项依据\n\n表：短表 {#tbl:short}\n\n${table(3)}\n\n表：长表 {#tbl:long}\n\n${table(12)}\n`,
    });
    const result = await renderDocument(folder, { outDir: mkdtempSync(join(tmpdir(), 'folio-tables-')), fileName: 'out.docx', paginate: false });
    const xml = await (await openDocx(result.path)).part('word/document.xml');
    const tables = [...xml.matchAll(/<w:tbl>([\s\S]*?)<\/w:tbl>/g)].map((m) => m[1] ?? '');
    expect(tables).toHaveLength(2);
    const grid = [...(tables[0] ?? '').matchAll(/<w:gridCol w:w="(\d+)"\/>/g)].map((m) => Number(m[1]));
    const recall = tableMeasurer.widthPt('Recall@10', { ...STYLE, bold: true }) * 20;
    expect(grid[1]).toBeGreaterThan(recall);
    const keeps = (t: string): boolean[] => [...t.matchAll(/<w:tr>([\s\S]*?)<\/w:tr>/g)].map((m) => (m[1] ?? '').includes('<w:keepNext/>'));
    expect(3).toBeLessThanOrEqual(KEEP_TOGETHER_ROWS);
    expect(keeps(tables[0] ?? '')).toEqual([true, true, false]);
    const long = keeps(tables[1] ?? '');
    expect(long).toHaveLength(12);
    expect(long.slice(0, 2)).toEqual([true, true]);
    expect(long[10]).toBe(true);
    expect(long.slice(2, 10).every((k) => !k)).toBe(true);
    expect(long[11]).toBe(false);
    expect(result.report.issues.filter((i) => i.kind === 'table_too_wide')).toEqual([]);
  });
});

describe('column widths from the printed text', () => {
  const BIB = new Uint8Array(readFileSync(join(import.meta.dirname, 'fixtures/citations/references.bib')));
  const gridOf = async (section: string): Promise<number[]> => {
    const folder = documentFolder({ title: '表格', template: 'nsfc_general', language: 'zh-CN' }, { '01.md': section }, { 'references.bib': BIB });
    const result = await renderDocument(folder, { outDir: mkdtempSync(join(tmpdir(), 'folio-tables-')), fileName: 'out.docx', paginate: false });
    const xml = await (await openDocx(result.path)).part('word/document.xml');
    // The second table, the one under test.
    const table = [...xml.matchAll(/<w:tbl>[\s\S]*?<\/w:tbl>/gu)][1]?.[0] ?? '';
    return [...table.matchAll(/<w:gridCol w:w="(\d+)"\/>/gu)].map((m) => Number(m[1]));
  };
  const section = (sources: readonly string[]): string =>
    [
      '# 立项依据\n\n表：数据 {#tbl:data}\n\n| 数据 | 规模 |\n| --- | --- |\n| 甲 | 1 |\n\n表：已有工作 {#tbl:work}\n',
      '| 方法 | 依据 | 说明 |',
      '| --- | --- | --- |',
      ...sources.map((source, i) => `| 版面结构预训练方法${i + 1} | ${source} | 在公开数据集上验证版面理解与信息抽取的效果 |`),
    ].join('\n');

  it('gives a column of citations and cross-references the width of their numbers and labels, not of the keys typed', async () => {
    const typed = ['[@zhang2020layout; @xu2020layoutlm]', '[@lecun2015deep]、[@tbl:data]', '[@vaswani2017attention; @li2022ocr]'];
    // What those cells print: GB/T 7714 numbers in order of first citation, and the caption's label.
    const printed = ['[1,2]', '[3]、表 1', '[4,5]'];
    const grid = await gridOf(section(typed));
    const plain = await gridOf(section(printed));
    expect(grid).toHaveLength(3);
    // The superscript numbers print smaller than the same text set in the line: no wider than it.
    expect(grid[1]).toBeLessThanOrEqual(plain[1] ?? 0);
    expect(grid[2]).toBeGreaterThanOrEqual(plain[2] ?? 0);
  });
});
