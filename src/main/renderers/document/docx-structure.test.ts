// Opens the rendered .docx as a zip and checks what Word needs to open it cleanly, and that the
// features (TOC field, footnotes, list numbering, table header, grid widths, CJK fonts) are really there.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, posix } from 'node:path';
import JSZip from 'jszip';
import { beforeAll, describe, expect, it } from 'vitest';
import { documentTemplates } from '../../../shared/specs/document';
import { CJK_FACE_NAMES } from './fonts';
import { pageGeometry } from './geometry';
import { renderDocument, type RenderDocumentResult } from './index';
import { containsCjk } from './text-metrics';
import { documentFolder } from './testing/docx';

const SAMPLE = join(import.meta.dirname, '../../../../samples/proposal-nsfc');

async function render(folder: string): Promise<{ result: RenderDocumentResult; zip: JSZip; part: (name: string) => Promise<string> }> {
  const outDir = mkdtempSync(join(tmpdir(), 'folio-docx-out-'));
  const result = await renderDocument(folder, { outDir, fileName: 'out.docx', paginate: false });
  const zip = await JSZip.loadAsync(readFileSync(result.path));
  const part = async (name: string): Promise<string> => {
    const file = zip.file(name);
    if (!file) throw new Error(`part ${name} is missing`);
    return file.async('string');
  };
  return { result, zip, part };
}


// Docx output is machine-written and regular, so patterns are enough here

const attr = (tag: string, name: string): string | undefined => new RegExp(`${name}="([^"]*)"`).exec(tag)?.[1];
const paragraphs = (xml: string): string[] => [...xml.matchAll(/<w:p\b[^>]*>([\s\S]*?)<\/w:p>/g)].map((m) => m[1] ?? '');
const runs = (p: string): string[] => [...p.matchAll(/<w:r\b[^>]*>([\s\S]*?)<\/w:r>/g)].map((m) => m[1] ?? '');
const textOf = (xml: string): string => [...xml.matchAll(/<w:t(?:\s[^>]*)?>([^<]*)<\/w:t>/g)].map((m) => m[1]).join('');
const valOf = (xml: string, element: string): string | undefined => {
  const tag = new RegExp(`<${element}\\b[^>]*/?>`).exec(xml)?.[0];
  return tag ? attr(tag, 'w:val') : undefined;
};

/** The document after its table of contents. */
const bodyOf = (xml: string): string => xml.slice(xml.indexOf('</w:sdt>'));

function paragraphWithText(xml: string, text: string): string {
  // Long Latin words in Chinese documents carry soft hyphens (break opportunities), which print nothing.
  const found = paragraphs(xml).find((p) => textOf(p).replaceAll('\u00AD', '').includes(text));
  if (!found) throw new Error(`no paragraph contains "${text}"`);
  return found;
}

type StyleInfo = { basedOn?: string; eastAsia?: string };

/** eastAsia font of an rFonts element; a theme reference counts as no explicit CJK face. */
function eastAsiaOf(rPr: string): string | undefined {
  const rFonts = /<w:rFonts\b[^>]*>/.exec(rPr)?.[0];
  if (!rFonts) return undefined;
  const theme = attr(rFonts, 'w:eastAsiaTheme');
  return theme ? `theme:${theme}` : attr(rFonts, 'w:eastAsia');
}

function parseStyles(xml: string): { styles: Map<string, StyleInfo>; defaultEastAsia?: string } {
  const styles = new Map<string, StyleInfo>();
  for (const m of xml.matchAll(/<w:style\b([^>]*)>([\s\S]*?)<\/w:style>/g)) {
    const id = attr(m[1] ?? '', 'w:styleId');
    const body = m[2] ?? '';
    const rPr = /<w:rPr>([\s\S]*?)<\/w:rPr>/.exec(body)?.[1] ?? '';
    if (id) styles.set(id, { basedOn: valOf(body, 'w:basedOn'), eastAsia: eastAsiaOf(rPr) });
  }
  const defaults = /<w:rPrDefault>([\s\S]*?)<\/w:rPrDefault>/.exec(xml)?.[1] ?? '';
  return { styles, defaultEastAsia: eastAsiaOf(defaults) };
}

function styleEastAsia(styles: Map<string, StyleInfo>, id: string | undefined): string | undefined {
  for (let seen = 0, cur = id; cur && seen < 20; seen++) {
    const style = styles.get(cur);
    if (!style) return undefined;
    if (style.eastAsia) return style.eastAsia;
    cur = style.basedOn;
  }
  return undefined;
}

describe('the rendered NSFC sample', () => {
  let rendered: Awaited<ReturnType<typeof render>>;
  let documentXml: string;
  let numberingXml: string;
  beforeAll(async () => {
    rendered = await render(SAMPLE);
    documentXml = await rendered.part('word/document.xml');
    numberingXml = await rendered.part('word/numbering.xml');
  });

  it('is an intact zip whose every part reads', async () => {
    const names = Object.keys(rendered.zip.files).filter((n) => !rendered.zip.files[n]?.dir);
    expect(names).toEqual(expect.arrayContaining(['[Content_Types].xml', '_rels/.rels', 'word/document.xml', 'word/styles.xml', 'word/footnotes.xml']));
    for (const name of names) expect((await rendered.zip.file(name)?.async('uint8array'))?.byteLength).toBeGreaterThan(0);
  });

  it('has every relationship target in the package', async () => {
    const relsFiles = Object.keys(rendered.zip.files).filter((n) => n.endsWith('.rels'));
    expect(relsFiles.length).toBeGreaterThan(1);
    let checked = 0;
    for (const rels of relsFiles) {
      const xml = await rendered.part(rels);
      // word/_rels/document.xml.rels describes word/document.xml: targets are relative to word/.
      const sourceDir = posix.dirname(posix.dirname(rels));
      for (const m of xml.matchAll(/<Relationship\b[^>]*>/g)) {
        const tag = m[0];
        if (attr(tag, 'TargetMode') === 'External') continue;
        const target = attr(tag, 'Target') ?? '';
        const path = target.startsWith('/') ? target.slice(1) : posix.normalize(posix.join(sourceDir === '.' ? '' : sourceDir, target));
        expect(rendered.zip.file(path), `${rels} → ${target}`).not.toBeNull();
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(10);
  });

  it('declares a content type for every part', async () => {
    const types = await rendered.part('[Content_Types].xml');
    const defaults = new Set([...types.matchAll(/<Default\b[^>]*>/g)].map((m) => attr(m[0], 'Extension')?.toLowerCase()));
    const overrides = new Set([...types.matchAll(/<Override\b[^>]*>/g)].map((m) => attr(m[0], 'PartName')));
    for (const name of Object.keys(rendered.zip.files)) {
      if (rendered.zip.files[name]?.dir || name === '[Content_Types].xml') continue;
      const ext = name.split('.').pop()?.toLowerCase();
      expect(overrides.has(`/${name}`) || defaults.has(ext), name).toBe(true);
    }
    expect(overrides.has('/word/document.xml')).toBe(true);
    expect(overrides.has('/word/footnotes.xml')).toBe(true);
  });

  it('has a real TOC field and asks Word to update fields on open', async () => {
    expect(documentXml).toMatch(/<w:instrText[^>]*>TOC [^<]*\\o &quot;1-3&quot;[^<]*<\/w:instrText>/);
    expect(documentXml).toMatch(/<w:fldChar w:fldCharType="begin" w:dirty="true"\/>/);
    expect(await rendered.part('word/settings.xml')).toMatch(/<w:updateFields( w:val="true")?\/>/);
    // The cached entries carry the numbers Word's numbering gives the headings.
    const sdt = /<w:sdt>[\s\S]*?<\/w:sdt>/.exec(documentXml)?.[0] ?? '';
    const compact = textOf(sdt).replace(/\s+/g, '');
    expect(compact).toContain('（一）立项依据与研究内容');
    expect(compact).toContain('1.项目的立项依据');
    expect(compact).toContain('（1）研究背景与意义');
    expect(compact).toContain('（二）研究基础与工作条件');
    // Each entry ends in a PAGEREF to its heading's bookmark, after a dot leader to a right tab stop
    // inside the text width (A4 less NSFC's 31.8 mm margins: 8300 twips), not docx's default 9025.
    const stops = [...sdt.matchAll(/<w:tab w:val="right"[^>]*w:pos="(\d+)"[^>]*\/>/g)];
    expect(stops.length).toBeGreaterThanOrEqual(10);
    for (const stop of stops) {
      expect(stop[0]).toContain('w:leader="dot"');
      expect(Number(stop[1])).toBeLessThanOrEqual(8300);
    }
    const refs = [...sdt.matchAll(/PAGEREF (\S+) \\h/g)].map((m) => m[1] ?? '');
    expect(refs.length).toBe(stops.length);
    for (const ref of refs) expect(documentXml).toContain(`w:name="${ref}"`);
  });

  it('writes the footnote to footnotes.xml and references it from the body', async () => {
    const footnotes = await rendered.part('word/footnotes.xml');
    const note = /<w:footnote w:id="(\d+)">([\s\S]*?)<\/w:footnote>/g;
    const real = [...footnotes.matchAll(note)].filter((m) => Number(m[1]) > 0);
    expect(real).toHaveLength(1);
    const [, id, body] = real[0] ?? [];
    expect(textOf(body ?? '')).toContain('当前最优模型的实体级F1');
    expect(documentXml).toContain(`<w:footnoteReference w:id="${id}"/>`);
    expect(textOf(paragraphWithText(documentXml, '已接近人类水平'))).not.toContain('[^1]');
  });

  it('numbers headings with Word numbering in Chinese counting, linked to the heading styles', async () => {
    const heading = paragraphWithText(bodyOf(documentXml), '立项依据与研究内容');
    expect(valOf(heading, 'w:pStyle')).toBe('Heading1');
    expect(textOf(heading)).toBe('立项依据与研究内容'); // the （一） comes from numbering, not the text
    const styles = await rendered.part('word/styles.xml');
    const h1 = /<w:style [^>]*w:styleId="Heading1"[^>]*>([\s\S]*?)<\/w:style>/.exec(styles)?.[1] ?? '';
    const numId = valOf(h1, 'w:numId');
    const abstractId = valOf(new RegExp(`<w:num w:numId="${numId}">([\\s\\S]*?)</w:num>`).exec(numberingXml)?.[1] ?? '', 'w:abstractNumId');
    const abstract = new RegExp(`<w:abstractNum [^>]*w:abstractNumId="${abstractId}"[^>]*>([\\s\\S]*?)</w:abstractNum>`).exec(numberingXml)?.[1] ?? '';
    expect(abstract).toMatch(/<w:lvl w:ilvl="0"[^>]*>[\s\S]*?<w:numFmt w:val="chineseCounting"\/>[\s\S]*?<w:lvlText w:val="（%1）"\/>/);
    expect(abstract).toMatch(/<w:lvl w:ilvl="1"[^>]*>[\s\S]*?<w:numFmt w:val="decimal"\/>[\s\S]*?<w:lvlText w:val="%2."\/>/);
    // The references heading stays unnumbered.
    expect(paragraphWithText(bodyOf(documentXml), '参考文献')).toContain('<w:numId w:val="0"/>');
  });

  it('restarts each numbered list: two lists get two numbering instances of one definition', () => {
    const numIdOf = (text: string): string | undefined => valOf(paragraphWithText(documentXml, text), 'w:numId');
    const first = numIdOf('面向版面结构的自监督预训练方法研究');
    const firstAgain = numIdOf('跨语言、跨版式的知识迁移方法研究');
    const second = numIdOf('如何在缺乏标注的情况下');
    expect(first).toBeDefined();
    expect(firstAgain).toBe(first);
    expect(second).not.toBe(first);
    const abstractOf = (id: string | undefined): string | undefined =>
      valOf(new RegExp(`<w:num w:numId="${id}">([\\s\\S]*?)</w:num>`).exec(numberingXml)?.[1] ?? '', 'w:abstractNumId');
    expect(abstractOf(first)).toBe(abstractOf(second));
    const startOverride = (id: string | undefined): string | undefined =>
      /<w:lvlOverride w:ilvl="0">\s*<w:startOverride w:val="(\d+)"\/>/.exec(new RegExp(`<w:num w:numId="${id}">([\\s\\S]*?)</w:num>`).exec(numberingXml)?.[1] ?? '')?.[1];
    expect(startOverride(second)).toBe('1');
  });

  it('renders the references list as [n] numbering', () => {
    const ref = paragraphWithText(documentXml, 'LayoutLMv3: Pre-training for Document AI');
    const numId = valOf(ref, 'w:numId');
    const abstractId = valOf(new RegExp(`<w:num w:numId="${numId}">([\\s\\S]*?)</w:num>`).exec(numberingXml)?.[1] ?? '', 'w:abstractNumId');
    const abstract = new RegExp(`<w:abstractNum [^>]*w:abstractNumId="${abstractId}"[^>]*>([\\s\\S]*?)</w:abstractNum>`).exec(numberingXml)?.[1] ?? '';
    expect(abstract).toContain('<w:lvlText w:val="[%1]"/>');
  });

  it('marks each table header row to repeat and fits the grid to the text width', () => {
    const geometry = pageGeometry(documentTemplates.nsfc);
    const sectPr = /<w:sectPr\b[\s\S]*?<\/w:sectPr>\s*<\/w:body>/.exec(documentXml)?.[0] ?? '';
    const pgSz = /<w:pgSz\b[^>]*>/.exec(sectPr)?.[0] ?? '';
    const pgMar = /<w:pgMar\b[^>]*>/.exec(sectPr)?.[0] ?? '';
    const textWidth = Number(attr(pgSz, 'w:w')) - Number(attr(pgMar, 'w:left')) - Number(attr(pgMar, 'w:right'));
    expect(textWidth).toBe(geometry.textWidth);

    const tables = [...documentXml.matchAll(/<w:tbl>([\s\S]*?)<\/w:tbl>/g)].map((m) => m[1] ?? '');
    expect(tables).toHaveLength(2);
    for (const table of tables) {
      const rows = [...table.matchAll(/<w:tr\b[^>]*>([\s\S]*?)<\/w:tr>/g)].map((m) => m[1] ?? '');
      expect(rows[0]).toMatch(/<w:trPr>[\s\S]*<w:tblHeader\/>[\s\S]*<\/w:trPr>/);
      expect(rows.slice(1).some((r) => r.includes('<w:tblHeader/>'))).toBe(false);
      const grid = [...(/<w:tblGrid>([\s\S]*?)<\/w:tblGrid>/.exec(table)?.[1] ?? '').matchAll(/<w:gridCol w:w="(\d+)"\/>/g)].map((m) => Number(m[1]));
      expect(grid.length).toBeGreaterThanOrEqual(3);
      expect(grid.reduce((a, b) => a + b, 0)).toBe(textWidth);
      expect(table).toMatch(/<w:tblBorders>[\s\S]*<w:insideH w:val="single"/);
    }
  });

  it('gives every run with CJK text an East Asian CJK face, through the run or its styles', async () => {
    const { styles, defaultEastAsia } = parseStyles(await rendered.part('word/styles.xml'));
    expect(CJK_FACE_NAMES).toContain(defaultEastAsia);
    const parts = ['word/document.xml', 'word/footnotes.xml', ...Object.keys(rendered.zip.files).filter((n) => /^word\/(header|footer)\d+\.xml$/.test(n))];
    let cjkRuns = 0;
    const usedStyles = new Set<string>();
    for (const name of parts) {
      for (const p of paragraphs(await rendered.part(name))) {
        const pStyle = valOf(/<w:pPr>([\s\S]*?)<\/w:pPr>/.exec(p)?.[1] ?? '', 'w:pStyle') ?? 'Normal';
        for (const r of runs(p)) {
          const text = textOf(r);
          if (!containsCjk(text)) continue;
          cjkRuns++;
          const rPr = /<w:rPr>([\s\S]*?)<\/w:rPr>/.exec(r)?.[1] ?? '';
          const rStyle = valOf(rPr, 'w:rStyle');
          usedStyles.add(pStyle);
          const face = eastAsiaOf(rPr) ?? styleEastAsia(styles, rStyle) ?? styleEastAsia(styles, pStyle) ?? defaultEastAsia;
          expect(CJK_FACE_NAMES, `${name} [${pStyle}/${rStyle ?? '-'}] "${text.slice(0, 20)}"`).toContain(face);
        }
      }
    }
    expect(cjkRuns).toBeGreaterThan(50);
    expect([...usedStyles]).toEqual(expect.arrayContaining(['Heading1', 'Heading2', 'BodyText', 'TableText', 'Caption', 'FootnoteText']));
    // Headings use the sans CJK face, body text the serif one.
    expect(styleEastAsia(styles, 'Heading1')).toBe('SimHei');
    expect(styleEastAsia(styles, 'BodyText')).toBe('SimSun');
  });

  it('sets the East Asian language to zh-CN and embeds the figure', async () => {
    const styles = await rendered.part('word/styles.xml');
    expect(/<w:rPrDefault>[\s\S]*?<w:lang [^>]*w:eastAsia="zh-CN"/.test(styles)).toBe(true);
    expect(rendered.zip.file('word/media/image1.png')).not.toBeNull();
    expect(textOf(paragraphWithText(documentXml, '低资源文档理解的总体研究框架'))).toBe('图 1　低资源文档理解的总体研究框架');
  });

  it('reports stats, no issue but the 着重号 the PDF leaves out, and a plausible page estimate', () => {
    const { report, pageEstimate } = rendered.result;
    // The sample's one 着重号, which LibreOffice's PDF leaves out, is the only thing the report says.
    expect(report.issues.map((i) => [i.kind, i.location?.excerpt])).toEqual([['emphasis_dots_not_drawn', '标注样本稀缺']]);
    expect(report.stats).toMatchObject({ sections: 7, tables: 2, images: 1, footnotes: 1 });
    expect(report.stats.cjk_chars).toBeGreaterThan(1500);
    // Latin words of the sections' text (the reference list is generated from references.bib, not counted).
    expect(report.stats.words).toBeGreaterThan(50);
    expect(pageEstimate).toBeGreaterThanOrEqual(5);
    expect(pageEstimate).toBeLessThanOrEqual(11);
  });

  it('never overwrites: rendering again writes a -v2 file', async () => {
    const outDir = mkdtempSync(join(tmpdir(), 'folio-docx-v-'));
    const a = await renderDocument(SAMPLE, { outDir, fileName: 'p.docx', paginate: false });
    const b = await renderDocument(SAMPLE, { outDir, fileName: 'p.docx', paginate: false });
    expect(basename(a.path)).toBe('p.docx');
    expect(basename(b.path)).toBe('p-v2.docx');
    const byTitle = await renderDocument(SAMPLE, { outDir, paginate: false });
    expect(basename(byTitle.path)).toBe('面向低资源场景的文档智能理解关键技术研究.docx');
  });
});

describe('rendering problems are reported, not fatal', () => {
  const png = readFileSync(join(SAMPLE, 'figures/framework.png'));

  it('replaces a missing or escaping image with a visible placeholder and an issue', async () => {
    const dir = documentFolder(
      { title: '图片测试', authors: [], template: 'generic', language: 'zh-CN' },
      { '01_a.md': '# 图\n\n![存在的图](img/ok.png)\n\n![缺失的图](img/gone.png)\n\n![越界](../outside.png)\n\n![绝对](/etc/hosts)\n\n![远程](https://example.com/x.png)\n' },
      { 'img/ok.png': png },
    );
    const { result, part, zip } = await render(dir);
    const kinds = result.report.issues.map((i) => `${i.kind}:${i.section}`);
    expect(kinds).toEqual(['missing_image:01_a.md', 'missing_image:01_a.md', 'missing_image:01_a.md', 'unsupported_markdown:01_a.md']);
    expect(result.report.issues[0]?.message).toContain('img/gone.png');
    expect(result.report.issues[1]?.message).toContain('..');
    expect(result.report.stats.images).toBe(1);
    const xml = await part('word/document.xml');
    expect(textOf(paragraphWithText(xml, 'img/gone.png'))).toContain('图片缺失');
    expect(valOf(paragraphWithText(xml, 'img/gone.png'), 'w:pStyle')).toBe('Placeholder');
    expect(Object.keys(zip.files).filter((n) => n.startsWith('word/media/'))).toHaveLength(1);
  });

  it('flags missing NSFC sections, empty sections, long paragraphs and raw HTML', async () => {
    const long = '这是一个很长的段落。'.repeat(50);
    const dir = documentFolder(
      { title: 'T', authors: ['A'], template: 'nsfc', language: 'zh-CN' },
      {
        '01_a.md': `# 立项依据\n\n## 研究意义\n\n## 研究现状\n\n${long}\n\n<div>raw</div>\n`,
        '02_b.md': '# 参考文献\n',
      },
    );
    const { result } = await render(dir);
    const issues = result.report.issues;
    const missing = issues.filter((i) => i.kind === 'missing_section').map((i) => i.message);
    expect(missing.some((m) => m.includes('拟采取的研究方案及可行性分析'))).toBe(true);
    expect(missing.some((m) => m.includes('立项依据'))).toBe(false);
    expect(missing.some((m) => m.includes('参考文献'))).toBe(false);
    expect(issues.some((i) => i.kind === 'empty_section' && i.section === '01_a.md' && i.message.includes('研究意义'))).toBe(true);
    expect(issues.some((i) => i.kind === 'empty_section' && i.message.includes('研究现状'))).toBe(false);
    expect(issues).toContainEqual(expect.objectContaining({ kind: 'empty_section', section: '02_b.md' }));
    expect(issues).toContainEqual(expect.objectContaining({ kind: 'long_paragraph', section: '01_a.md' }));
    expect(issues.some((i) => i.kind === 'unsupported_markdown' && i.message.includes('<div>'))).toBe(true);
  });

  it('numbers report headings decimally and keeps English paragraphs unindented', async () => {
    const dir = documentFolder(
      { title: 'Quarterly report', authors: ['Ann'], template: 'report', language: 'en' },
      { '01.md': '# Overview\n\nSome *text* with a [link](https://example.com) and `code`.\n\n## Detail\n\nMore.\n' },
    );
    const { part } = await render(dir);
    const numbering = await part('word/numbering.xml');
    expect(numbering).toContain('<w:lvlText w:val="%1.%2"/>');
    const xml = await part('word/document.xml');
    expect(textOf(/<w:sdt>[\s\S]*?<\/w:sdt>/.exec(xml)?.[0] ?? '')).toContain('1.1 Detail');
    const linkId = /<w:hyperlink [^>]*r:id="([^"]+)"/.exec(xml)?.[1];
    expect(linkId).toBeDefined();
    const rels = await part('word/_rels/document.xml.rels');
    const rel = new RegExp(`<Relationship [^>]*Id="${linkId}"[^>]*>`).exec(rels)?.[0] ?? '';
    expect(attr(rel, 'Target')).toBe('https://example.com');
    expect(attr(rel, 'TargetMode')).toBe('External');
    const styles = await part('word/styles.xml');
    const body = /<w:style [^>]*w:styleId="BodyText"[^>]*>([\s\S]*?)<\/w:style>/.exec(styles)?.[1] ?? '';
    expect(body).not.toContain('w:firstLine');
    expect(/<w:rPrDefault>[\s\S]*?<w:lang w:val="en-US" w:eastAsia="zh-CN"/.test(styles)).toBe(true);
  });
});
