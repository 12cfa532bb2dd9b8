// Chinese–Latin spacing comes from Word's autospace, never from a typed space on top of it.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderDocument } from './index';
import { typesetSpaces } from './text-metrics';
import { documentFolder, openDocx, textOf } from './testing/docx';

describe('Chinese–Latin spacing', () => {
  it('drops typed spaces between Han and Latin letters, digits or a citation, and next to CJK punctuation; keeps Latin spacing single', () => {
    expect(typesetSpaces('使用 GPT-4 模型，召回率提升 12.5% 。')).toBe('使用GPT-4模型，召回率提升12.5%。');
    expect(typesetSpaces('第 3 页，见 [@tbl:x] 所示，中文  之间')).toBe('第3页，见[@tbl:x]所示，中文之间');
    expect(typesetSpaces('state  of the  art')).toBe('state of the art');
    expect(typesetSpaces('Retrieval-augmented generation (RAG)')).toBe('Retrieval-augmented generation (RAG)');
  });


  it('drops the typed spaces around a URL, a link, bold or code text in Chinese text, and keeps those between Latin words', async () => {
    const section = [
      '# 立项依据\n',
      '数据见 https://x.org/data 的说明，或访问 [主页](https://x.org) 与 **LayoutLMv3** 模型，运行 `npm test` 即可。\n',
      'See the [home page](https://x.org) for **more** details.\n',
    ].join('\n');
    const folder = documentFolder({ title: '链接间距', template: 'nsfc_general', language: 'zh-CN' }, { '01.md': section });
    const result = await renderDocument(folder, { outDir: mkdtempSync(join(tmpdir(), 'folio-link-space-')), fileName: 'out.docx', paginate: false });
    const body = textOf(await (await openDocx(result.path)).part('word/document.xml')).replace(/[\u200B\u00AD]/gu, '');
    expect(body).toContain('数据见https://x.org/data的说明，或访问主页与LayoutLMv3模型，运行npm test即可。');
    expect(body).toContain('See the home page for more details.');
  });

  it('switches autoSpaceDE and autoSpaceDN on in the document defaults, before the spacing, and writes no double spaces', async () => {
    const folder = documentFolder({ title: '间距', template: 'nsfc_general', language: 'zh-CN' }, { '01.md': '# 立项依据\n\n本项目使用 GPT-4 模型，在 3 个数据集上  提升 12.5% 。\n' });
    const result = await renderDocument(folder, { outDir: mkdtempSync(join(tmpdir(), 'folio-space-')), fileName: 'out.docx', paginate: false });
    const docx = await openDocx(result.path);
    const defaults = /<w:pPrDefault><w:pPr>([\s\S]*?)<\/w:pPr><\/w:pPrDefault>/.exec(await docx.part('word/styles.xml'))?.[1] ?? '';
    expect(defaults).toMatch(/^<w:autoSpaceDE\/><w:autoSpaceDN\/><w:spacing /);
    const xml = await docx.part('word/document.xml');
    const body = textOf(xml);
    // The hyphen of GPT-4 is held between word joiners: the line never breaks between the name and its number.
    expect(body).toContain('本项目使用GPT\u2060-\u20604模型，在3个数据集上提升12.5%。');
    expect(body).not.toMatch(/ {2}/);
  });

  it('gives URLs and long words in Chinese text break opportunities (not in headings or English documents), printing nothing else', async () => {
    const url = 'https://github.com/example-org/doc-ai/blob/main/README.md';
    const section = `# 立项依据 internationalization\n\n代码见 ${url} 与 [仓库](${url})，基于internationalization框架。\n`;
    const render = async (language: string): Promise<string> => {
      const folder = documentFolder({ title: '断行', template: 'report', language }, { '01.md': section });
      const result = await renderDocument(folder, { outDir: mkdtempSync(join(tmpdir(), 'folio-break-')), fileName: 'out.docx', paginate: false });
      return (await openDocx(result.path)).part('word/document.xml');
    };
    const zh = await render('zh-CN');
    const body = textOf(zh);
    expect(body).toContain('代码见https://\u200Bgithub\u200B.com/\u200Bexample\u200B-\u2060org/');
    expect(body).toContain('基于in\u00ADter\u00ADna\u00ADtion\u00ADal\u00ADiza\u00ADtion框架');
    // The heading keeps its word whole (the contents and the rendered check read it back).
    expect(body).toMatch(/立项依据 ?internationalization/u);
    expect(body.replace(/[\u200B\u00AD\u2060]/gu, '')).toContain(`代码见${url}与仓库，基于internationalization框架。`);
    expect(textOf(await render('en-US'))).not.toMatch(/[\u200B\u00AD]/u);
  });
});
