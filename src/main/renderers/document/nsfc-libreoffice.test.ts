// LibreOffice reads the NSFC conventions back as a reader sees them: the table caption 表 1 printed above the
// table's text, the fourth heading level （1）, ①-numbered lists, and cross-references resolved to 表 1 / 图 1.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderDocument } from './index';
import { documentFolder } from './testing';

const has = (tool: string): boolean => spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0;
const hasTools = has('soffice') && has('pdftotext');
if (!hasTools) console.warn('skipping the NSFC LibreOffice check: needs `soffice` and `pdftotext` (apt-get install libreoffice-writer poppler-utils fonts-noto-cjk)');

const FIGURE = new Uint8Array(readFileSync(join(import.meta.dirname, '../../../../samples/proposal-nsfc/figures/framework.png')));

const SECTION = `# 研究方案

## 技术路线

### 数据构建

#### 数据来源

数据来源见[@tbl:sources]，框架见[@fig:frame]。

表：数据来源与规模 {#tbl:sources}

| 来源单位 | 文档页数 |
| --- | --- |
| 合作医院甲 | 1200 |

#### 标注流程

1. 初步标注
2. 交叉复核

![总体框架](figures/frame.png){#fig:frame}
`;

function run(cmd: string, args: string[]): string {
  const result = spawnSync(cmd, args, { encoding: 'utf8', timeout: 120_000 });
  if (result.status !== 0) throw new Error(`${cmd} failed (${result.status}): ${result.stderr}`);
  return result.stdout;
}

describe('LibreOffice prints the NSFC conventions', () => {
  it.skipIf(!hasTools)(
    'shows 表 1 above the table text, （1） headings, ① lists and resolved cross-references',
    async () => {
      const work = mkdtempSync(join(tmpdir(), 'folio-lo-nsfc-'));
      const folder = documentFolder({ title: '方案', template: 'nsfc', language: 'zh-CN', submission: true }, { '01.md': SECTION }, { 'figures/frame.png': FIGURE });
      const { submissionPath } = await renderDocument(folder, { outDir: work, paginate: false });
      run('soffice', ['--headless', `-env:UserInstallation=file://${join(work, 'profile')}`, '--convert-to', 'pdf', '--outdir', work, submissionPath ?? '']);
      const pdf = join(work, '方案（提交版）.pdf');
      expect(existsSync(pdf), `soffice produced no PDF in ${work}`).toBe(true);
      const lines = run('pdftotext', ['-layout', '-enc', 'UTF-8', pdf, '-'])
        .split('\n')
        .map((line) => line.replace(/\s+/g, ''))
        .filter(Boolean);
      const at = (needle: string): number => lines.findIndex((line) => line.includes(needle));
      // The submission copy starts with the body: the running header, then the first heading; no contents.
      expect(lines.slice(0, 2)).toEqual(['方案', '一、研究方案']);
      expect(at('目录')).toBe(-1);
      expect(at('（1）数据来源')).toBeGreaterThan(at('1.数据构建'));
      expect(at('（2）标注流程')).toBeGreaterThan(at('（1）数据来源'));
      const caption = at('表1数据来源与规模');
      expect(caption).toBeGreaterThan(-1);
      expect(at('合作医院甲')).toBeGreaterThan(caption);
      expect(at('来源单位')).toBe(caption + 1);
      expect(at('①初步标注')).toBeGreaterThan(-1);
      expect(at('②交叉复核')).toBeGreaterThan(at('①初步标注'));
      expect(at('图1总体框架')).toBeGreaterThan(at('②交叉复核'));
      expect(lines[at('数据来源见')]).toContain('数据来源见表1，框架见图1。');
    },
    180_000,
  );
});
