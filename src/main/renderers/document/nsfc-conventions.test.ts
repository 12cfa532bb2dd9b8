// NSFC conventions in the .docx, read back from its XML: four heading levels as Word numbering, body lists
// that can't pass for headings, 表 N captions above tables and 图 N below figures with REF cross-references,
// no synthetic bold or italic on CJK text, pagination controls, the submission copy, and report locations.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { renderDocument, type RenderDocumentResult } from './index';
import {
  abstractNumbering,
  documentFolder,
  type DocxParts,
  numberingLevel,
  openDocx,
  paragraphsOf,
  runsOf,
  styleOf,
  styleXml,
  textOf,
} from './testing/docx';

const SAMPLE = join(import.meta.dirname, '../../../../samples/proposal-nsfc');
const FIGURE = new Uint8Array(readFileSync(join(SAMPLE, 'figures/framework.png')));
// A 1×1 PNG: placed at half the text width it prints at far under 150 dpi.
const TINY_PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

const SECTION = `# 立项依据

## 研究背景

如[@tbl:data]所示，数据集覆盖三类文档；框架见[@fig:frame]，其后的结果见 @tbl:result。

表：主要实验数据集 {#tbl:data}

| 数据集 | 页数 |
| --- | ---: |
| FUNSD | 199 |

### 研究现状

#### 预训练方法

*着重*说明 *emphasis* 与 **重点 bold** 的写法。

1. 第一项
2. 第二项

![总体框架](figures/frame.png){#fig:frame}

| 指标 | 数值 |
| --- | --- |
| F1 | 0.9 |

: 主要结果 {#tbl:result}
`;

async function render(folder: string): Promise<{ result: RenderDocumentResult } & DocxParts> {
  const outDir = mkdtempSync(join(tmpdir(), 'folio-docx-out-'));
  const result = await renderDocument(folder, { outDir, paginate: false });
  return { result, ...(await openDocx(result.path)) };
}

/** The body paragraphs and tables in order, as `p:<style>:<text>` / `tbl:<first cell text>`. */
function bodySequence(xml: string): string[] {
  const body = xml.slice(xml.lastIndexOf('</w:sdt>') + 1);
  const out: string[] = [];
  for (const m of body.matchAll(/<w:tbl>([\s\S]*?)<\/w:tbl>|<w:p\b[^>]*>([\s\S]*?)<\/w:p>/g)) {
    if (m[1] !== undefined) out.push(`tbl:${textOf(paragraphsOf(m[1])[0] ?? '')}`);
    else out.push(`p:${styleOf(m[2] ?? '') ?? ''}:${textOf(m[2] ?? '')}${(m[2] ?? '').includes('<w:drawing>') ? '[drawing]' : ''}`);
  }
  return out;
}

describe('NSFC conventions in the rendered .docx', () => {
  let doc: Awaited<ReturnType<typeof render>>;
  let xml: string;
  let styles: string;
  let numbering: string;
  beforeAll(async () => {
    doc = await render(
      documentFolder({ title: '低资源文档理解', template: 'nsfc_general', language: 'zh-CN' }, { '01.md': SECTION }, { 'figures/frame.png': FIGURE }),
    );
    xml = await doc.part('word/document.xml');
    styles = await doc.part('word/styles.xml');
    numbering = await doc.part('word/numbering.xml');
  });

  it('numbers four heading levels （一）1.（1）① as the NSFC outline does, with Word numbering linked to Heading 1–4', () => {
    const h1 = styleXml(styles, 'Heading1');
    const abstract = abstractNumbering(numbering, /<w:numId w:val="(\d+)"\/>/.exec(h1)?.[1]);
    const expected = [
      ['chineseCounting', '（%1）', 'Heading1'],
      ['decimal', '%2.', 'Heading2'],
      ['decimal', '（%3）', 'Heading3'],
      ['decimalEnclosedCircle', '%4', 'Heading4'],
    ];
    expected.forEach(([format, text, style], ilvl) => {
      const lvl = numberingLevel(abstract, ilvl);
      expect(lvl, `level ${ilvl}`).toContain(`<w:numFmt w:val="${format}"/>`);
      expect(lvl).toContain(`<w:lvlText w:val="${text}"/>`);
      expect(lvl).toContain(`<w:pStyle w:val="${style}"/>`);
      expect(styleXml(styles, style ?? '')).toContain(`<w:ilvl w:val="${ilvl}"/>`);
    });
    // The label comes from numbering; the text is the title alone.
    const h4 = paragraphsOf(xml).find((p) => styleOf(p) === 'Heading4') ?? '';
    expect(textOf(h4)).toBe('预训练方法');
  });

  it('numbers body lists a) 1) under NSFC headings, as GB/T 1.1 numbers 列项, so they cannot pass for ① or 1. headings', () => {
    const item = paragraphsOf(xml).find((p) => textOf(p) === '第一项') ?? '';
    const abstract = abstractNumbering(numbering, /<w:numId w:val="(\d+)"\/>/.exec(item)?.[1]);
    expect(numberingLevel(abstract, 0)).toContain('<w:numFmt w:val="lowerLetter"/>');
    expect(numberingLevel(abstract, 0)).toContain('<w:lvlText w:val="%1)"/>');
    expect(numberingLevel(abstract, 1)).toContain('<w:numFmt w:val="decimal"/>');
    expect(numberingLevel(abstract, 1)).toContain('<w:lvlText w:val="%2)"/>');
  });

  it('sets the numbers of the contents entries without a space after a full-width closing mark', () => {
    const contents = /<w:sdt>[\s\S]*?<\/w:sdt>/.exec(xml)?.[0] ?? '';
    const entries = paragraphsOf(contents).map(textOf);
    expect(entries.some((e) => e.startsWith('（一）立项依据'))).toBe(true);
    expect(entries.some((e) => e.startsWith('（1）研究现状'))).toBe(true);
    expect(entries.some((e) => e.startsWith('1. 研究背景'))).toBe(true);
    expect(contents).not.toMatch(/[）、] </u);
  });

  it('puts 表 N captions above their tables and 图 N below the figure, numbered through the document', () => {
    const seq = bodySequence(xml);
    const dataCaption = seq.indexOf('p:TableCaption:表 1　主要实验数据集');
    expect(dataCaption).toBeGreaterThan(-1);
    expect(seq[dataCaption + 1]).toBe('tbl:数据集');
    // A caption written after its table (pandoc's other place) is still set above it.
    const resultCaption = seq.indexOf('p:TableCaption:表 2　主要结果');
    expect(seq[resultCaption + 1]).toBe('tbl:指标');
    const picture = seq.indexOf('p:Figure:[drawing]');
    expect(seq[picture + 1]).toBe('p:Caption:图 1　总体框架');
    // Caption paragraphs are not printed again where they stood.
    expect(seq.filter((s) => s.includes('主要结果'))).toHaveLength(1);
    expect(xml).not.toContain('{#tbl:');
    expect(xml).not.toContain('{#fig:');
    // The number is a SEQ field with its result cached, as Word's Insert Caption writes it.
    const caption = paragraphsOf(xml).find((p) => textOf(p).startsWith('表 2')) ?? '';
    expect(caption).toMatch(/<w:fldSimple w:instr="SEQ 表 \\\* ARABIC"><w:r><w:t[^>]*>2<\/w:t><\/w:r><\/w:fldSimple>/);
  });

  it('keeps a table caption with its table and a picture with its caption; widow control on body text', () => {
    expect(styleXml(styles, 'TableCaption')).toContain('<w:keepNext/>');
    expect(styleXml(styles, 'Figure')).toContain('<w:keepNext/>');
    for (const heading of ['Heading1', 'Heading2', 'Heading3', 'Heading4']) expect(styleXml(styles, heading)).toContain('<w:keepNext/>');
    const body = paragraphsOf(xml).filter((p) => styleOf(p) === 'BodyText');
    expect(body.length).toBeGreaterThan(1);
    for (const p of body) expect(p).toContain('<w:widowControl/>');
    expect(paragraphsOf(xml).find((p) => styleOf(p) === 'TableCaption')).toContain('<w:widowControl/>');
  });

  it('writes cross-references as REF fields to bookmarks around the caption labels, with the label cached', () => {
    const p = paragraphsOf(xml).find((para) => textOf(para).startsWith('如')) ?? '';
    expect(textOf(p)).toBe('如表 1所示，数据集覆盖三类文档；框架见图 1，其后的结果见 表 2。');
    const refs = [...p.matchAll(/<w:fldSimple w:instr="REF (_Ref_folio_\d+) \\h">[\s\S]*?<w:t[^>]*>([^<]*)<\/w:t>/g)].map((m) => [m[1], m[2]]);
    expect(refs.map((r) => r[1])).toEqual(['表 1', '图 1', '表 2']);
    for (const [bookmark, label] of refs) {
      const start = new RegExp(`<w:bookmarkStart w:name="${bookmark}" w:id="(\\d+)"/>`).exec(xml);
      expect(start, `${bookmark}`).not.toBeNull();
      const inside = xml.slice(start?.index ?? 0, xml.indexOf(`<w:bookmarkEnd w:id="${start?.[1]}"/>`, start?.index));
      expect(textOf(inside)).toBe(label);
    }
  });

  it('gives CJK emphasis 着重号 and CJK strong text 黑体, never a synthetic italic or bold', () => {
    const p = paragraphsOf(xml).find((para) => textOf(para).startsWith('着重')) ?? '';
    // Long Latin words carry soft hyphens (break opportunities), which print nothing.
    const run = (text: string): string => runsOf(p).find((r) => textOf(r).replaceAll('\u00AD', '').trim() === text) ?? `missing run ${text}`;
    expect(run('着重')).toContain('<w:em w:val="dot"/>');
    expect(run('着重')).not.toContain('<w:i/>');
    expect(run('emphasis')).toContain('<w:i/>');
    expect(run('emphasis')).not.toContain('<w:em');
    expect(run('重点')).toContain('w:eastAsia="SimHei"');
    expect(run('重点')).not.toMatch(/<w:b\/>|<w:b w:val="(true|1|on)"\/>/);
    expect(run('bold')).toContain('<w:b/>');
  });

  it('tells the person where 着重号 are, which the PDF that LibreOffice draws leaves out, and not about Latin italics', () => {
    const dots = doc.result.report.issues.filter((i) => i.kind === 'emphasis_dots_not_drawn');
    expect(dots).toHaveLength(1);
    expect(dots[0]).toMatchObject({ section: '01.md', location: { excerpt: '着重' } });
    expect(dots[0]?.message).toContain('"着重"');
  });

  it('has no bold in the 黑体 heading styles (no synthetic bold); Latin words in headings are bold run by run', async () => {
    for (const heading of ['Heading1', 'Heading2', 'Heading3', 'Heading4']) {
      const style = styleXml(styles, heading);
      expect(style).toContain('w:eastAsia="SimHei"');
      expect(style, heading).not.toMatch(/<w:b\/>|<w:bCs\/>|<w:b w:val="(true|1|on)"\/>/);
      expect(style).toMatch(/<w:b w:val="(false|0|off)"\/>/);
    }
    const mixed = await render(documentFolder({ title: 'T', template: 'nsfc', language: 'zh-CN' }, { '01.md': '# 基于 LayoutLM 的方法\n\n正文。\n' }));
    const heading = paragraphsOf(await mixed.part('word/document.xml')).find((p) => styleOf(p) === 'Heading1') ?? '';
    const runs = runsOf(heading);
    expect(runs.find((r) => textOf(r).includes('LayoutLM'))).toContain('<w:b/>');
    expect(runs.find((r) => textOf(r).includes('基于'))).not.toContain('<w:b/>');
  });

  it('reports nothing for this well-formed section besides the outline it lacks and its 着重号', () => {
    expect(doc.result.report.issues.filter((i) => i.kind !== 'missing_section' && i.kind !== 'emphasis_dots_not_drawn')).toEqual([]);
  });
});

describe('English captions', () => {
  it('labels Table N / Figure N and refers to them the same way', async () => {
    const { part } = await render(
      documentFolder(
        { title: 'Plan', template: 'report', language: 'en' },
        { '01.md': '# Data\n\nSee [@tbl:sets] and [@fig:arch].\n\nTable: Datasets {#tbl:sets}\n\n| a | b |\n| - | - |\n| 1 | 2 |\n\n![Architecture](f.png){#fig:arch}\n' },
        { 'f.png': FIGURE },
      ),
    );
    const xml = await part('word/document.xml');
    const texts = paragraphsOf(xml).map(textOf);
    expect(texts).toContain('See Table 1 and Figure 1.');
    expect(texts).toContain('Table 1. Datasets');
    expect(texts).toContain('Figure 1. Architecture');
    // Under decimal headings a list may stay "1." (no heading is "1.").
    expect(await part('word/numbering.xml')).toContain('<w:lvlText w:val="%1."/>');
  });
});

describe('uncaptioned tables', () => {
  it('are numbered in order with a placeholder caption above them and reported by their header', async () => {
    const folder = documentFolder(
      { title: '方案', template: 'nsfc_general', language: 'zh-CN' },
      { '01.md': '# 研究方案\n\n正文。\n\n| 指标 | 数值 |\n| - | - |\n| Recall@10 | 0.9 |\n\n另一段。\n\n表：数据集 {#tbl:sets}\n\n| a | b |\n| - | - |\n| 1 | 2 |\n\n见[@tbl:sets]。\n' },
    );
    const dir = mkdtempSync(join(tmpdir(), 'folio-uncaptioned-'));
    const result = await renderDocument(folder, { outDir: dir, paginate: false });
    const xml = await (await openDocx(result.path)).part('word/document.xml');
    const texts = paragraphsOf(xml).map(textOf);
    expect(texts).toContain('表 1　【待补充表题】');
    expect(texts).toContain('表 2　数据集');
    expect(texts).toContain('见表 2。');
    const issue = result.report.issues.find((i) => i.kind === 'uncaptioned_table');
    expect(issue?.message).toMatch(/header "指标 \| 数值" has no caption; it is numbered 表 1/u);
    expect(issue?.location?.paragraph).toBe(3);
    // The quoted excerpt keeps the cells and rows apart, as the table shows them.
    expect(issue?.location?.excerpt).toMatch(/^指标 \| 数值 \/ Recall@10/u);
  });
});

describe('the submission copy', () => {
  it('is written beside the review copy and holds only the body: no cover, no contents, no field update prompt', async () => {
    const outDir = mkdtempSync(join(tmpdir(), 'folio-docx-sub-'));
    const folder = documentFolder(
      { title: '申请书', subtitle: '面上项目', authors: ['张三'], template: 'nsfc_general', language: 'zh-CN', submission: true },
      { '01.md': '# 立项依据\n\n正文见[@tbl:a]。\n\n表：数据 {#tbl:a}\n\n| a | b |\n| - | - |\n| 1 | 2 |\n' },
    );
    const result = await renderDocument(folder, { outDir, paginate: false });
    expect(basename(result.path)).toBe('申请书.docx');
    expect(basename(result.submissionPath ?? '')).toBe('申请书（提交版）.docx');

    const review = await openDocx(result.path);
    const reviewXml = await review.part('word/document.xml');
    expect(reviewXml).toMatch(/<w:instrText[^>]*>TOC /);
    expect(paragraphsOf(reviewXml).some((p) => styleOf(p) === 'CoverTitle')).toBe(true);

    const submission = await openDocx(result.submissionPath ?? '');
    const xml = await submission.part('word/document.xml');
    expect(xml).not.toContain('<w:sdt>');
    expect(xml).not.toMatch(/<w:instrText[^>]*>\s*TOC/);
    expect(paragraphsOf(xml).some((p) => styleOf(p) === 'CoverTitle' || styleOf(p) === 'TOCHeading')).toBe(false);
    expect(styleOf(paragraphsOf(xml)[0] ?? '')).toBe('Heading1');
    expect(xml.match(/<w:sectPr\b/g)).toHaveLength(1);
    expect(textOf(xml)).toContain('正文见表 1。');
    expect(await submission.part('word/settings.xml')).not.toContain('<w:updateFields');

    // Without `submission`, one file only.
    const plain = await renderDocument(documentFolder({ title: 'X', template: 'nsfc', language: 'zh-CN' }, { '01.md': '# 立项依据\n\n正文。\n' }), { outDir, paginate: false });
    expect(plain.submissionPath).toBeUndefined();
  });
});

describe('conversion issues say where they are', () => {
  it('reports undefined footnotes, empty list items, upscaled images and unknown references with section, paragraph, line and excerpt', async () => {
    const a = '# 立项依据\n\n第一段正文。\n\n现有方法存在不足[^gone]，详见[@tbl:nowhere]。\n';
    const b = '# 研究内容\n\n- 第一项\n-\n- 第三项\n\n![小图](tiny.png)\n';
    const { result, part } = await render(documentFolder({ title: 'T', template: 'nsfc_youth', language: 'zh-CN' }, { '01_a.md': a, '02_b.md': b }, { 'tiny.png': TINY_PNG }));
    const issues = result.report.issues.filter((i) => i.kind !== 'missing_section');
    const excerpt = '现有方法存在不足[^gone]，详见[@tbl:…';
    expect(issues.map(({ kind, section, location }) => ({ kind, section, location }))).toEqual([
      { kind: 'undefined_footnote', section: '01_a.md', location: { paragraph: 3, line: 5, excerpt } },
      { kind: 'unknown_reference', section: '01_a.md', location: { paragraph: 3, line: 5, excerpt } },
      { kind: 'empty_list_item', section: '02_b.md', location: { paragraph: 2, line: 4, excerpt: '第一项 / 第三项' } },
      { kind: 'image_upscaled', section: '02_b.md', location: { paragraph: 3, line: 7, excerpt: '小图' } },
    ]);
    const messages = issues.map((i) => i.message);
    expect(messages[0]).toContain('[^gone]');
    expect(messages[1]).toContain('[@tbl:nowhere]');
    expect(messages[2]).toContain('item 2');
    expect(messages[3]).toMatch(/1×1 px.*dpi/);
    // The facts of each message, for a sentence in the person's language.
    expect(issues.slice(0, 3).map((i) => i.params)).toEqual([{ label: 'gone' }, { id: 'tbl:nowhere', label: '表 ??' }, { item: 2 }]);
    expect(issues[3]?.params).toMatchObject({ image: 'tiny.png', limit: 150 });
    expect(messages[3]).toContain(`${issues[3]?.params?.dpi} dpi`);
    expect(messages[3]).toContain(`${issues[3]?.params?.needed} px wide`);
    const xml = await part('word/document.xml');
    const texts = paragraphsOf(xml).map(textOf);
    // The raw marker is not printed; the unknown reference prints visibly as 表 ??.
    expect(texts).toContain('现有方法存在不足，详见表 ??。');
    expect(xml).not.toContain('[^gone]');
    // The empty item is left out: two numbered items, no numbered paragraph without text.
    const numbered = paragraphsOf(xml).filter((p) => p.includes('<w:numPr>') && !/<w:pStyle w:val="Heading/.test(p));
    expect(numbered.map(textOf)).toEqual(['第一项', '第三项']);
  });

  it('lists missing outline sections with the names that would match', async () => {
    const { result } = await render(documentFolder({ title: 'T', template: 'nsfc_general', language: 'zh-CN' }, { '01.md': '# 立项依据\n\n正文。\n' }));
    const plan = result.report.issues.find((i) => i.kind === 'missing_section' && i.message.includes('年度研究计划及预期研究结果'));
    expect(plan?.message).toContain('"年度研究计划"');
    expect(plan?.location).toBeUndefined();
    // Named apart from the English message, so a Chinese screen can name it in its own sentence.
    expect(plan?.expected).toBe('年度研究计划及预期研究结果');
  });

  it('tells a flat folder where the official outline puts each section, and accepts the outline written at its levels', async () => {
    const flat = await render(documentFolder({ title: 'T', template: 'nsfc_general', language: 'zh-CN' }, { '01.md': '# 立项依据\n\n正文。\n\n### 技术路线\n\n正文。\n' }));
    const missing = flat.result.report.issues.filter((i) => i.kind === 'missing_section').map((i) => i.message);
    expect(missing).toContainEqual(expect.stringContaining('"项目的立项依据" (or "立项依据") as a ## heading under "# 立项依据与研究内容"; "# 立项依据" matches it at another level'));
    expect(missing).toContainEqual(expect.stringContaining('"拟采取的研究方案及可行性分析"'));
    expect(missing).toContainEqual(expect.stringContaining('"立项依据与研究内容" as a # heading; no heading matches'));

    const parts = [
      '# 立项依据与研究内容\n\n## 项目的立项依据\n\n正文。\n\n## 研究内容、研究目标，以及拟解决的关键科学问题\n\n正文。\n\n## 拟采取的研究方案及可行性分析\n\n正文。\n',
      '## 本项目的特色与创新之处\n\n正文。\n\n## 年度研究计划及预期研究结果\n\n正文。\n',
      '# 研究基础与工作条件\n\n## 研究基础\n\n正文。\n\n## 工作条件\n\n正文。\n\n## 正在承担的与本项目相关的科研项目情况\n\n无。\n\n## 完成国家自然科学基金项目情况\n\n无。\n\n# 其他需要说明的情况\n\n无。\n\n# 参考文献\n\n1. 文献。\n',
    ];
    const official = await render(documentFolder({ title: 'T', template: 'nsfc_youth', language: 'zh-CN' }, { '01.md': parts[0] ?? '', '02.md': parts[1] ?? '', '03.md': parts[2] ?? '' }));
    expect(official.result.report.issues.filter((i) => i.kind === 'missing_section')).toEqual([]);
    const xml = await official.part('word/document.xml');
    const contents = textOf(/<w:sdt>[\s\S]*?<\/w:sdt>/.exec(xml)?.[0] ?? '').replace(/\s+/gu, '');
    for (const label of ['（一）立项依据与研究内容', '1.项目的立项依据', '5.年度研究计划及预期研究结果', '（二）研究基础与工作条件', '4.完成国家自然科学基金项目情况', '（三）其他需要说明的情况']) {
      expect(contents).toContain(label);
    }
  });
});
