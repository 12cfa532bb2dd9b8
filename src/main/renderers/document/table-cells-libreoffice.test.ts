// Chinese tables laid out by LibreOffice and read back from the PDF: each cell breaks between words, leaves no
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
if (!hasTools) console.warn('skipping the tables laid out by LibreOffice: needs `soffice` and `pdftotext`');

// The table of last stop's proposal walk, where LibreOffice printed 重复执行率 / 丢失 / 率, 贝叶斯更 / 新 and 10 / 000.
const WALK = `# 研究方案

表：各研究内容采用的主要方法、评价数据与评价指标 {#tbl:methods}

| 研究内容 | 主要方法 | 评价数据 | 评价指标 |
| :--- | :--- | :--- | :---: |
| 可恢复执行模型 | 预写日志、调用状态机、幂等重放 | 随机终止注入（10 000 次） | 重复执行率 / 丢失率 |
| 能力探测与对账 | 最小探测集、贝叶斯更新 | 12 个公开模型服务 | 探测准确率、请求数 |
| 版式质量保证 | 渲染后检查、规则形式化 | 60 份真实申报书 | 问题检出率、修正率 |
`;

// The sample proposal's table 1, where LibreOffice printed 自建少数民族语 / 言数据集: the citation prints as a
// superscript, narrower than the "[1]" the widths were chosen for.
const PROPOSAL = `# 研究方案

表：各研究阶段的主要方法与评价指标 {#tbl:stages}

| 研究阶段 | 主要方法 | 评价数据集 | 评价指标 |
| :--- | :--- | :--- | :---: |
| 版面结构预训练 | 掩码区域重建、阅读顺序预测 | DocBank、PubLayNet | mAP |
| 跨语言知识迁移 | 对比对齐、版式无关表示 | XFUND[@xu2022xfund]、自建少数民族语言数据集 | F1 |
| 小样本信息抽取 | 检索增强提示学习、约束解码 | FUNSD、CORD、行业票据 | F1 / 一致性 |
`;
// A plan whose 研究内容 cells take three lines or more: widths chosen by faults in two-line cells only made that
// column narrow and printed 文档数据 / 集, 预训 / 练, 理 / 论分析 and 行 / 业场景.
const PLAN = `# 研究计划

表：年度研究计划 {#tbl:plan}

| 年度 | 研究内容 | 预期进展 | 考核方式 |
| :--- | :--- | :--- | :--- |
| 2026 年 | 构建低资源文档数据集；完成版面结构预训练方法的设计与实现 | 发布数据集 1 个；投稿论文 1–2 篇 | 数据集发布 |
| 2027 年 | 研究跨语言、跨版式知识迁移方法；开展理论分析 | 在 2 种低资源语言上完成验证；发表论文 2 篇 | 论文录用 |
| 2028 年 | 研究小样本结构化抽取方法；在行业场景中开展应用验证 | 形成原型系统 1 套；申请发明专利 1–2 项 | 专利受理 |
| 2029 年 | 系统集成与总结；开源代码与模型 | 完成结题报告；培养研究生 4–6 名 | 结题验收 |
`;
const BIBLIOGRAPHY = `@inproceedings{xu2022xfund,
  author = {Xu, Yiheng and Lv, Tengchao and Cui, Lei},
  title = {{XFUND}: A Benchmark Dataset for Multilingual Visually Rich Form Understanding},
  booktitle = {Findings of the Association for Computational Linguistics: ACL 2022},
  year = {2022}
}
`;

/** The left margin of the NSFC page, in points. */
const LEFT_PT = 1803 / 20;
const HAN = /\p{Script=Han}/u;
/** The first header cell of each table: the table starts at its line. */
const HEADER_FIRST_CELLS = new Set(['研究内容', '研究阶段', '年度']);

/** Each table's columns' printed lines, top to bottom, spaces removed: one table per document, laid out with one soffice start. */
async function printedTables(documents: readonly { section: string; files?: Record<string, Uint8Array> }[]): Promise<string[][][]> {
  const outDir = mkdtempSync(join(tmpdir(), 'folio-cells-'));
  const built = await Promise.all(
    documents.map(async ({ section, files }, i) => {
      const folder = documentFolder({ title: '表格断行', template: 'nsfc_general', language: 'zh-CN', submission: true }, { '01.md': section }, files);
      const result = await renderDocument(folder, { outDir, fileName: `cells-${i}.docx`, paginate: false });
      const submission = result.submissionPath ?? result.path;
      const xml = await (await openDocx(submission)).part('word/document.xml');
      return { submission, grid: [...xml.matchAll(/<w:gridCol w:w="(\d+)"\/>/gu)].map((m) => Number(m[1]) / 20) };
    }),
  );
  const pdfs = convertToPdf(outDir, built.map((b) => b.submission));
  return built.map(({ grid }, i) => {
    const words: Word[] = bboxBlocks(pdfs[i] ?? '').flat(3);
    const top = words.find((w) => HEADER_FIRST_CELLS.has(w.text))?.yMin ?? 0;
    const edges = grid.map((_, c) => LEFT_PT + grid.slice(0, c + 1).reduce((a, b) => a + b, 0));
    const columns: string[][] = grid.map(() => []);
    const rows = new Map<string, string>();
    for (const w of words.filter((w) => w.yMin >= top - 1 && w.yMin < top + 400)) {
      const col = edges.findIndex((edge) => w.xMin < edge);
      if (col < 0) continue;
      const key = `${col}:${Math.round(w.yMin)}`;
      rows.set(key, (rows.get(key) ?? '') + w.text);
    }
    for (const [key, text] of [...rows].sort((a, b) => Number(a[0].split(':')[1]) - Number(b[0].split(':')[1]))) columns[Number(key.split(':')[0])]?.push(text);
    return columns;
  });
}

describe.skipIf(!hasTools)('Chinese tables laid out by LibreOffice (soffice)', () => {
  let walk: string[][];
  let proposal: string[][];
  let plan: string[][];

  beforeAll(async () => {
    [walk = [], proposal = [], plan = []] = await printedTables([
      { section: WALK },
      { section: PROPOSAL, files: { 'references.bib': new TextEncoder().encode(BIBLIOGRAPHY) } },
      { section: PLAN },
    ]);
  }, 300_000);

  it('breaks each cell between words, never inside 丢失率, 状态机 or 贝叶斯更新', () => {
    const lines = walk.flat();
    expect(lines.length).toBeGreaterThan(8);
    for (const word of ['丢失率', '状态机', '贝叶斯更新', '形式化', '修正率', '请求数']) expect(lines.some((l) => l.includes(word)), `${word} in ${lines.join(' | ')}`).toBe(true);
  });

  it('leaves no character alone on a line of a cell', () => {
    const alone = [...walk, ...proposal, ...plan].flat().filter((l) => [...l.replace(/[\s\p{P}]/gu, '')].length === 1 && HAN.test(l));
    expect(alone).toEqual([]);
  });

  it('keeps 10 000 whole', () => {
    // pdftotext drops the narrow space between the groups: on one line they read 10000.
    expect(walk[2]?.some((l) => l.includes('10000')), walk[2]?.join(' | ')).toBe(true);
  });

  it('measures a superscript citation as printed, so 语言 stays whole beside XFUND[1]', () => {
    const column = proposal[2] ?? [];
    expect(column.some((l) => l.includes('XFUND')), column.join(' | ')).toBe(true);
    expect(column.some((l) => l.includes('语言')), column.join(' | ')).toBe(true);
  });

  it('breaks a cell of three lines or more between words too', () => {
    const column = plan[1] ?? [];
    expect(column.length, column.join(' | ')).toBeGreaterThan(5);
    for (const word of ['数据集', '预训练', '理论分析', '行业场景']) expect(column.some((l) => l.includes(word)), `${word} in ${column.join(' | ')}`).toBe(true);
  });
});
