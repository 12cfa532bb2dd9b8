// A stress section laid out by LibreOffice and read back with poppler (one conversion for the file): table
// headers such as Recall@10, 数据集-1 Dataset and 版面结构预训练 print whole on one line, a short table never
// splits across pages, and "GPT-4" never breaks after its hyphen.
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { renderDocument } from './index';
import { documentFolder } from './testing';

const has = (tool: string): boolean => spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0;
const hasTools = has('soffice') && has('pdftotext');
if (!hasTools) console.warn('skipping the table layout check: needs `soffice` and `pdftotext` (apt-get install libreoffice-writer poppler-utils fonts-noto-cjk)');

const PARAGRAPH = '本项目面向低资源场景下的文档智能理解问题，使用 LayoutLMv3 与 GPT-4 等模型，在 FUNSD、CORD 等 3 个数据集上开展研究。'.repeat(3);
const WIDE = '| 数据集-1 Dataset | Recall@10 | 版面结构预训练 | F1-score | 推理时间(ms) |\n| --- | --- | --- | --- | --- |\n| FUNSD | 0.912 | 是 | 0.874 | 123 |\n| CORD | 0.887 | 否 | 0.861 | 98 |\n';
const HEADERS = ['数据集-1', 'Dataset', 'Recall@10', '版面结构预训练', 'F1-score', '推理时间(ms)'];

function section(): string {
  const out = ['# 立项依据\n'];
  // Growing text before each table moves it down the page, so some table meets a page end.
  for (let k = 0; k < 6; k++) {
    out.push(`## 小节${k + 1}\n`, ...Array.from({ length: k + 2 }, () => `${PARAGRAPH}\n`), `表：第${k + 1}组实验结果 {#tbl:t${k}}\n`, WIDE);
  }
  return out.join('\n');
}

describe.skipIf(!hasTools)('tables laid out by LibreOffice (soffice)', () => {
  let pages: string[];

  beforeAll(async () => {
    const folder = documentFolder({ title: '表格排版', template: 'nsfc_general', language: 'zh-CN' }, { '01.md': section() });
    const outDir = mkdtempSync(join(tmpdir(), 'folio-tables-lo-'));
    const { path } = await renderDocument(folder, { outDir, fileName: 'out.docx', paginate: false });
    const converted = spawnSync('soffice', [`-env:UserInstallation=file://${outDir}/profile`, '--headless', '--convert-to', 'pdf', '--outdir', outDir, path], { timeout: 240_000 });
    expect(converted.status).toBe(0);
    const text = spawnSync('pdftotext', ['-layout', '-enc', 'UTF-8', join(outDir, 'out.pdf'), '-'], { encoding: 'utf8' }).stdout;
    // Word joiners, if poppler prints them, are not text a reader sees.
    pages = text.replace(/\u2060/gu, '').split('\f');
  }, 300_000);

  it('prints every header word whole, on the header line of each table', () => {
    const headerLines = pages.flatMap((page) => page.split('\n')).filter((line) => line.includes('Recall@'));
    expect(headerLines).toHaveLength(6);
    for (const line of headerLines) for (const word of HEADERS) expect(line).toContain(word);
  });

  it('keeps each three-row table on one page with its caption', () => {
    // LibreOffice spaces the digit from the Han characters around it (autoSpaceDN): compare without spaces.
    const flat = pages.map((page) => page.replace(/[ \t]+/gu, ''));
    for (let k = 1; k <= 6; k++) {
      const holding = flat.filter((page) => page.includes(`第${k}组实验结果`));
      expect(holding).toHaveLength(1);
      const page = holding[0] ?? '';
      const from = page.indexOf(`第${k}组实验结果`);
      const next = page.indexOf('组实验结果', from + 6);
      // Between this caption and the next one (or the page's end): the whole table.
      const after = page.slice(from, next < 0 ? undefined : next);
      expect(after).toContain('FUNSD');
      expect(after).toContain('CORD');
    }
  });

  it('never ends a line with "GPT-" before its number', () => {
    const all = pages.join('\n');
    // 27 paragraphs of three sentences with GPT-4 in each: the name prints every time, whole or broken.
    expect(all.match(/GPT-\s*4/gu)?.length).toBe(3 * 27);
    expect(all).not.toMatch(/GPT-\s*\n\s*4/u);
  });
});
