// The revised document's preview data: what Word shows as tracked changes, read back from the package.
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RevisedDocument } from '../../../shared/specs/document-revision';
import { renderDocument } from '../document';
import { documentFolder } from '../document/testing/docx';
import { reviseDocx } from './index';
import { revisionPreview } from './preview';
import { makeDocx, para } from './testing';

const ALICE = '<w:ins w:id="901" w:author="Alice" w:date="2024-01-02T03:04:05Z"><w:r><w:t>审稿人新增</w:t></w:r></w:ins>';

describe('revisionPreview', () => {
  it("marks Folio's insertions and deletions, keeps another reviewer's, and anchors each reason as a comment", async () => {
    const original = await makeDocx({
      body: [
        '<w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr><w:r><w:t>立项依据</w:t></w:r></w:p>',
        para('本项目拟研究文档版面分析方法。'),
        `<w:p><w:r><w:t>已有句子，</w:t></w:r>${ALICE}</w:p>`,
        '<w:tbl><w:tr><w:tc><w:p><w:r><w:t>Recall@10</w:t></w:r></w:p></w:tc></w:tr></w:tbl>',
      ].join(''),
    });
    const revised = await reviseDocx(original, [
      { find: '拟研究', replace: '研究', reason: '删去冗余的“拟”' },
      { find: 'Recall@10', replace: 'Recall@20', reason: '与正文一致' },
    ]);
    const preview = RevisedDocument.parse(await revisionPreview(revised.bytes as Uint8Array, 'source/草稿.docx'));

    expect(preview.source).toBe('source/草稿.docx');
    expect(preview.paragraphs[0]?.heading).toBe(true);
    const body = preview.paragraphs[1];
    expect(body?.heading).toBe(false);
    expect(body?.segments).toEqual([
      { text: '本项目', change: null, author: null },
      { text: '拟', change: 'del', author: 'Folio' },
      { text: '研究文档版面分析方法。', change: null, author: null },
    ]);
    expect(body?.comments.map((c) => [c.author, c.text])).toEqual([['Folio', '删去冗余的“拟”']]);
    expect(preview.paragraphs[2]?.segments).toContainEqual({ text: '审稿人新增', change: 'ins', author: 'Alice' });
    const cell = preview.paragraphs[3]?.cells?.[0] ?? [];
    expect(cell.filter((s) => s.change === 'del').map((s) => s.text).join('')).toBe('10');
    expect(cell.filter((s) => s.change === 'ins').map((s) => s.text).join('')).toBe('20');
    expect(preview.changes).toEqual(
      expect.arrayContaining([
        { author: 'Folio', insertions: 1, deletions: 2 },
        { author: 'Alice', insertions: 1, deletions: 0 },
      ]),
    );
    expect(preview.truncated).toBe(false);
  });

  it('keeps a table a table: one row of cells per table row, a cell\'s paragraphs joined by line breaks', async () => {
    const cell = (...texts: string[]) => `<w:tc>${texts.map((t) => para(t)).join('')}</w:tc>`;
    const original = await makeDocx({
      body: [para('前文。'), `<w:tbl><w:tr>${cell('站点')}${cell('温差')}</w:tr><w:tr>${cell('城区')}${cell('2.5', '夏季')}</w:tr></w:tbl>`, para('后文。')].join(''),
    });
    const revised = await reviseDocx(original, [{ find: '城区', replace: '市区', reason: '统一用词' }]);
    const preview = RevisedDocument.parse(await revisionPreview(revised.bytes as Uint8Array, null));
    const texts = (segments: { text: string; change: string | null }[]) => segments.filter((s) => s.change !== 'del').map((s) => s.text).join('');
    expect(preview.paragraphs.map((p) => (p.cells ? p.cells.map(texts) : texts(p.segments)))).toEqual([
      '前文。',
      ['站点', '温差'],
      ['市区', '2.5\n夏季'],
      '后文。',
    ]);
    expect(preview.paragraphs[2]?.comments.map((c) => c.text)).toEqual(['统一用词']);
  });

  it('shows the numbers Word prints before headings and list items, which the paragraphs\' text does not hold', async () => {
    const folder = documentFolder(
      { title: '城市绿地降温', template: 'nsfc', language: 'zh-CN' },
      {
        '01.md': '# 立项依据\n\n## 研究背景\n\n### 热岛现状\n\n城区比郊区高 2.5 ℃。\n\n1. 观测站点\n2. 遥感数据\n\n## 研究意义\n\n正文。\n',
        '02.md': '# 研究方案\n\n## 技术路线\n\n正文。\n\n1. 采样\n2. 建模\n',
      },
    );
    const outDir = mkdtempSync(join(tmpdir(), 'folio-rev-numbers-'));
    try {
      const rendered = await renderDocument(folder, { outDir, paginate: false });
      const revised = await reviseDocx(new Uint8Array(readFileSync(rendered.path)), [{ find: '城区比郊区', replace: '城区较郊区', reason: '书面语' }]);
      expect(revised.outcomes.map((o) => o.status)).toEqual(['applied']);
      const preview = RevisedDocument.parse(await revisionPreview(revised.bytes as Uint8Array, null));
      const line = (p: (typeof preview.paragraphs)[number]) => `${p.number ?? ''}${p.segments.filter((s) => s.change !== 'del').map((s) => s.text).join('')}`;
      const lines = preview.paragraphs.map(line);
      expect(lines).toEqual(
        expect.arrayContaining(['一、立项依据', '（一）研究背景', '1. 热岛现状', '（二）研究意义', '二、研究方案', '（一）技术路线']),
      );
      // Each ordered list counts from ① again, as the .docx prints it.
      expect(lines.filter((l) => /^[①②]/u.test(l))).toEqual(['① 观测站点', '② 遥感数据', '① 采样', '② 建模']);
      expect(preview.paragraphs.find((p) => p.segments.some((s) => s.text.includes('城区')))?.number).toBeUndefined();
    } finally {
      rmSync(outDir, { recursive: true, force: true });
    }
  });
});
