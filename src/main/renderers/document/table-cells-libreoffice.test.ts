// A Chinese table laid out by LibreOffice and read back from the PDF: each cell breaks between words, leaves no
// character alone on a line, and keeps a number written in digit groups whole.
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { renderDocument } from './index';
import { documentFolder, openDocx } from './testing/docx';
import { bboxBlocks, type Word } from './testing/pdf-lines';
import { convertToPdf } from './testing/soffice-pdf';

const has = (tool: string): boolean => spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0;
const hasTools = has('soffice') && has('pdftotext');
if (!hasTools) console.warn('skipping the table laid out by LibreOffice: needs `soffice` and `pdftotext`');

// The table of last stop's proposal walk, where LibreOffice printed 重复执行率 / 丢失 / 率, 贝叶斯更 / 新 and 10 / 000.
const SECTION = `# 研究方案

表：各研究内容采用的主要方法、评价数据与评价指标 {#tbl:methods}

| 研究内容 | 主要方法 | 评价数据 | 评价指标 |
| :--- | :--- | :--- | :---: |
| 可恢复执行模型 | 预写日志、调用状态机、幂等重放 | 随机终止注入（10 000 次） | 重复执行率 / 丢失率 |
| 能力探测与对账 | 最小探测集、贝叶斯更新 | 12 个公开模型服务 | 探测准确率、请求数 |
| 版式质量保证 | 渲染后检查、规则形式化 | 60 份真实申报书 | 问题检出率、修正率 |
`;
/** The left margin of the NSFC page, in points. */
const LEFT_PT = 1803 / 20;
const HAN = /\p{Script=Han}/u;

describe.skipIf(!hasTools)('a Chinese table laid out by LibreOffice (soffice)', () => {
  /** Each column's printed lines, top to bottom, spaces removed. */
  let columns: string[][];

  beforeAll(async () => {
    const folder = documentFolder({ title: '表格断行', template: 'nsfc_general', language: 'zh-CN', submission: true }, { '01.md': SECTION });
    const outDir = mkdtempSync(join(tmpdir(), 'folio-cells-'));
    const result = await renderDocument(folder, { outDir, fileName: 'cells.docx', paginate: false });
    const submission = result.submissionPath ?? result.path;
    const xml = await (await openDocx(submission)).part('word/document.xml');
    const grid = [...xml.matchAll(/<w:gridCol w:w="(\d+)"\/>/gu)].map((m) => Number(m[1]) / 20);
    const [pdf] = convertToPdf(outDir, [submission]);
    const words: Word[] = bboxBlocks(pdf ?? '').flat(3);
    const top = words.find((w) => w.text.startsWith('研究内容'))?.yMin ?? 0;
    const edges = grid.map((_, i) => LEFT_PT + grid.slice(0, i + 1).reduce((a, b) => a + b, 0));
    columns = grid.map(() => []);
    const rows = new Map<string, string>();
    for (const w of words.filter((w) => w.yMin >= top - 1 && w.yMin < top + 200)) {
      const col = edges.findIndex((edge) => w.xMin < edge);
      if (col < 0) continue;
      const key = `${col}:${Math.round(w.yMin)}`;
      rows.set(key, (rows.get(key) ?? '') + w.text);
    }
    for (const [key, text] of [...rows].sort((a, b) => Number(a[0].split(':')[1]) - Number(b[0].split(':')[1]))) columns[Number(key.split(':')[0])]?.push(text);
  }, 300_000);

  it('breaks each cell between words, never inside 丢失率, 状态机 or 贝叶斯更新', () => {
    const lines = columns.flat();
    expect(lines.length).toBeGreaterThan(8);
    for (const word of ['丢失率', '状态机', '贝叶斯更新', '形式化', '修正率', '请求数']) expect(lines.some((l) => l.includes(word)), `${word} in ${lines.join(' | ')}`).toBe(true);
  });

  it('leaves no character alone on a line of a cell', () => {
    const alone = columns.flat().filter((l) => [...l.replace(/[\s\p{P}]/gu, '')].length === 1 && HAN.test(l));
    expect(alone).toEqual([]);
  });

  it('keeps 10 000 whole', () => {
    // pdftotext drops the narrow space between the groups: on one line they read 10000.
    expect(columns[2]?.some((l) => l.includes('10000')), columns[2]?.join(' | ')).toBe(true);
  });
});
