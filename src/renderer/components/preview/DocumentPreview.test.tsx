// The document preview, rendered to HTML (no DOM needed): the numbers, captions and cross-references a person
// sees must be the ones the .docx has: 表 N above a table, 图 N below a figure, （1） on fourth-level headings.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { latinSentences, visibleText } from '../../../shared/latin-text.test-support';
import { useUiLanguage } from '../../i18n/ui-language.test-support';
import { DocumentSpec } from '../../../shared/specs/document';
import { DocumentPreview } from './DocumentPreview';

const spec = DocumentSpec.parse({ title: '申请书', template: 'nsfc', language: 'zh-CN' });
const SECTION = `# 研究方案

## 技术路线

### 数据

#### 数据来源

数据见[@tbl:src]，框架见[@fig:frame]，另见[@tbl:none]。

表：数据来源 {#tbl:src}

| 来源 | 页数 |
| --- | --- |
| 医院 | 12 |

1. 初步标注
2. 复核

![总体框架](figures/frame.png){#fig:frame}
`;

const text = (html: string): string => html.replace(/<[^>]+>/g, '');

describe('DocumentPreview', () => {
  useUiLanguage('zh-CN');

  const html = (): string =>
    renderToStaticMarkup(
      <DocumentPreview
        spec={spec}
        sections={[{ file: '01.md', markdown: SECTION }]}
        report={{ issues: [{ kind: 'unknown_reference', section: '01.md', location: { paragraph: 5, line: 9, excerpt: '数据见' }, message: 'x' }] }}
      />,
    );

  it('shows the table caption above the table, not where it was written, and the figure caption below the figure', () => {
    const out = html();
    const caption = out.indexOf('data-testid="doc-table-caption">表 1　数据来源<');
    expect(caption).toBeGreaterThan(-1);
    expect(out.indexOf('<table>')).toBeGreaterThan(caption);
    expect(text(out)).not.toContain('表：数据来源');
    expect(text(out)).not.toContain('{#');
    const figure = out.indexOf('data-testid="doc-figure-caption">图 1　总体框架<');
    expect(figure).toBeGreaterThan(out.indexOf('data-testid="doc-image"'));
  });

  it('numbers the fourth heading level （1） and writes cross-references as the .docx does', () => {
    const out = text(html());
    expect(out).toContain('（1）数据来源');
    expect(out).toContain('1. 数据');
    expect(out).toContain('数据见表 1，框架见图 1，另见表 ??。');
  });

  it('styles ordered lists ①② under Chinese headings and shows where each issue is', () => {
    const out = html();
    expect(out).toMatch(/<ol[^>]*style="list-style-type:folio-circled"/);
    expect(out).toContain('data-testid="doc-issue-location">第5段（第9行） “数据见”');
  });

  it('tells a Chinese reader in Chinese that the PDF leaves out the 着重号', () => {
    const issue = { kind: 'emphasis_dots_not_drawn', section: '01.md', location: { paragraph: 3, excerpt: '标注样本稀缺' }, message: 'the 着重号 (emphasis dots) under "标注样本稀缺" print in Word' };
    const out = text(renderToStaticMarkup(<DocumentPreview spec={spec} sections={[{ file: '01.md', markdown: SECTION }]} report={{ issues: [issue] }} />));
    expect(out).toContain('着重号未显示');
    expect(out).toContain('由LibreOffice绘制的PDF和页面预览中不显示');
    expect(out).not.toContain('emphasis dots');
  });
});

describe('DocumentPreview citations', () => {
  useUiLanguage('zh-CN');

  const citations = {
    style: 'gb-t-7714-2015',
    superscript: true,
    numbers: { lewis2020: 1, wang2021: 2, li2019: 3 },
    references: [
      { key: 'lewis2020', number: 1, text: 'LEWIS P, PEREZ E. Retrieval-augmented generation[C]//NeurIPS. 2020: 9459-9474.' },
      { key: 'wang2021', number: 2, text: '王明. 文档版面分析综述[J]. 计算机学报, 2021, 44(3): 1-20.' },
      { key: 'li2019', number: 3, text: '李华. 版面结构预训练[D]. 北京: 清华大学, 2019.' },
    ],
  };
  const body = '# 立项依据\n\n检索增强生成[@lewis2020]已用于版面分析[@wang2021; @li2019; @lewis2020]，另见[@nobody]。\n';

  it('writes citations as the .docx numbers them (superscript, ranges) and the list under the references heading', () => {
    const out = renderToStaticMarkup(
      <DocumentPreview spec={spec} sections={[{ file: '01.md', markdown: body }, { file: '09.md', markdown: '# 参考文献\n' }]} report={{ issues: [], citations }} />,
    );
    expect(out).not.toContain('[@');
    expect(out).toContain('<sup class="doc-citation" data-testid="doc-citation">[1]</sup>');
    expect(out).toContain('<sup class="doc-citation" data-testid="doc-citation">[1-3]</sup>');
    expect(out).toContain('data-testid="doc-citation">[?]</sup>');
    const heading = out.indexOf('参考文献');
    const list = out.indexOf('data-testid="doc-references"');
    expect(heading).toBeGreaterThan(out.indexOf('另见'));
    expect(list).toBeGreaterThan(heading);
    expect(text(out.slice(list))).toContain('[2] 王明. 文档版面分析综述[J]. 计算机学报, 2021, 44(3): 1-20.');
  });

  it('adds the references heading and list at the end when the text has none, as the .docx does', () => {
    const out = renderToStaticMarkup(<DocumentPreview spec={spec} sections={[{ file: '01.md', markdown: body }]} report={{ issues: [], citations }} />);
    const list = out.indexOf('data-testid="doc-references"');
    expect(list).toBeGreaterThan(out.indexOf('>参考文献</h1>'));
    expect(text(out.slice(list))).toContain('[3] 李华. 版面结构预训练[D]. 北京: 清华大学, 2019.');
  });
});

describe('the document report in Chinese', () => {
  useUiLanguage('zh-CN');

  const message = 'the table with the header "站点 | 温差" has no caption; it is numbered 表 1 with a placeholder caption: write "表：标题 {#tbl:id}" in the paragraph right before it';
  const out = (): string =>
    renderToStaticMarkup(
      <DocumentPreview
        spec={spec}
        sections={[{ file: '01.md', markdown: '# 立项依据\n\n正文。\n' }]}
        report={{ issues: [{ kind: 'uncaptioned_table', section: '01.md', message }] }}
      />,
    );

  it("explains each finding in Chinese and shows none of the engine's English words, which can only be copied", () => {
    const html = out();
    expect(html).toContain('表格没有表题，暂以占位表题编号。');
    expect(latinSentences(html)).toEqual([]);
    expect(html).toContain('data-testid="copy-original"');
  });

  it('says each finding with its facts in Chinese: counts, keys, limits and what it prints as', () => {
    const issues = [
      { kind: 'uncaptioned_table', section: '01.md', params: { label: '表 1' }, message },
      { kind: 'long_paragraph', section: '01.md', params: { units: 612, limit: 500 }, message: 'paragraph of 612 characters/words (over 500) starting "本研究"' },
      { kind: 'unknown_citation', section: '01.md', params: { key: 'wang2020', bibliography: 'present' }, message: '[@wang2020] is in no bibliography file of the folder; it prints as "?"' },
      { kind: 'incomplete_reference', params: { key: 'li2019', fields: 'author,issued' }, message: 'bibliography entry li2019 (book) lacks author, year, which the reference list needs' },
      { kind: 'section_length', section: '02.md', heading: '研究方案', params: { name: '研究方案', pages: 1.2, min: 2, max: 5, direction: 'under' }, message: '"研究方案" takes 1.2 pages, under the 2–5 recommended (NSFC guide)' },
      { kind: 'missing_glyph', section: '01.md', params: { chars: '𠀀', blank: '' }, message: 'no font on this machine has 𠀀 (U+20000): LibreOffice and previews draw a box; use text instead' },
      { kind: 'table_too_wide', section: '01.md', params: { columns: 9 }, message: 'the table "a | b" has 9 columns whose longest words do not fit side by side on the page' },
    ];
    const html = renderToStaticMarkup(<DocumentPreview spec={spec} sections={[{ file: '01.md', markdown: '# 立项依据\n\n正文。\n' }]} report={{ issues }} />);
    const seen = visibleText(html);
    expect(seen).toContain('表格没有表题，暂编为“表 1”并以占位表题代替');
    expect(seen).toContain('这一段有612字，超过500字，建议拆分。');
    expect(seen).toContain('文档文件夹的参考文献库中没有 [@wang2020]，打印为“?”。');
    expect(seen).toContain('文献条目li2019缺少作者、出版年，参考文献表需要这些信息。');
    expect(seen).toContain('“研究方案”占1.2页，少于建议的2–5页。');
    expect(seen).toContain('本机没有任何字体包含𠀀');
    expect(seen).toContain('表格有9列');
    expect(latinSentences(html)).toEqual([]);
  });

  it('names a missing section in the Chinese sentence, with no English beside it', () => {
    const missing = {
      kind: 'missing_section',
      expected: '年度研究计划及预期研究结果',
      message: 'the nsfc_general template expects a section "年度研究计划及预期研究结果" as a ## heading; no heading matches',
    };
    const html = renderToStaticMarkup(<DocumentPreview spec={spec} sections={[{ file: '01.md', markdown: '# 立项依据\n\n正文。\n' }]} report={{ issues: [missing] }} />);
    expect(latinSentences(html)).toEqual([]);
    expect(html).toContain('模板要求的章节“年度研究计划及预期研究结果”在正文中没有找到对应标题。');
  });

  it('names the document language, not its code', () => {
    expect(out()).toMatch(/data-testid="doc-language">简体中文</u);
  });
});

describe('the document report in English', () => {
  useUiLanguage('en');

  it("shows the engine's own words, which are the most precise", () => {
    const html = renderToStaticMarkup(
      <DocumentPreview spec={spec} sections={[{ file: '01.md', markdown: '# A\n\nText.\n' }]} report={{ issues: [{ kind: 'uncaptioned_table', message: 'the table has no caption' }] }} />,
    );
    expect(html).toContain('the table has no caption');
    expect(html).not.toContain('A table has no caption; it is numbered');
  });
});
