// The contents as written into the .docx, without LibreOffice: page numbers given to the build land
// in the TOC field's result next to the right headings; the running header is cut to one line.
import JSZip from 'jszip';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { documentTemplates } from '../../../shared/specs/document';
import { tableMeasurer } from '../typesetting/fonts';
import { collectCaptions } from '../../../shared/specs/document-captions';
import { RenderContext } from './context';
import { coverTitleLines, headerText } from './frame';
import { pageGeometry } from './geometry';
import { buildDocx, loadDocumentFolder } from './index';
import { documentMeasureStyle } from './measure-style';
import { HEADER_SIZE_PT } from './styles';
import { documentFolder } from './testing/docx';

const SAMPLE = join(import.meta.dirname, '../../../../samples/proposal-nsfc');

async function contentsOf(bytes: Uint8Array): Promise<string> {
  const xml = (await (await JSZip.loadAsync(bytes)).file('word/document.xml')?.async('string')) ?? '';
  return /<w:sdt>[\s\S]*?<\/w:sdt>/.exec(xml)?.[0] ?? '';
}

/** Each contents entry's visible text: title, tab, page number (field results only). */
function entries(sdt: string): string[] {
  return [...sdt.matchAll(/<w:p>[\s\S]*?<\/w:p>/g)]
    .map((p) => [...p[0].matchAll(/<w:t[^>]*>([^<]*)<\/w:t>|<w:tab\/>/g)].map((m) => m[1] ?? '\t').join(''))
    .filter((t) => t !== '');
}

describe('contents page numbers', () => {
  it('writes the page found for each heading after a tab, and nothing before they are known', async () => {
    const loaded = loadDocumentFolder(SAMPLE);
    const blank = await buildDocx(loaded);
    expect(entries(await contentsOf(blank.bytes))[0]).toMatch(/^（一）\s*立项依据与研究内容\t$/u);

    const pages = new Map(blank.toc.map((e, i) => [e.href, i + 3] as const));
    const numbered = await buildDocx(loaded, { headingPages: pages });
    const lines = entries(await contentsOf(numbered.bytes));
    expect(lines).toHaveLength(blank.toc.length);
    lines.forEach((line, i) => {
      const entry = blank.toc[i];
      expect(line.replace(/\s+/g, '')).toBe(`${entry?.title.replace(/\s+/g, '')}${i + 3}`);
    });
    // Still a field Word can refresh, but with every number filled it is not dirty and Word does not ask on opening.
    expect(await contentsOf(numbered.bytes)).toMatch(/<w:fldChar w:fldCharType="begin"( w:dirty="false")?\/>/u);
    expect(await contentsOf(blank.bytes)).toMatch(/<w:fldChar w:fldCharType="begin" w:dirty="true"\/>/u);
    const settings = async (bytes: Uint8Array): Promise<string> => (await (await JSZip.loadAsync(bytes)).file('word/settings.xml')?.async('string')) ?? '';
    expect(await settings(numbered.bytes)).not.toContain('<w:updateFields');
    expect(await settings(blank.bytes)).toMatch(/<w:updateFields/u);
  });
});

describe('running header', () => {
  const template = documentTemplates.nsfc;
  const ctx = new RenderContext('/nowhere', template, 'zh-CN', pageGeometry(template), collectCaptions([]));
  const style = documentMeasureStyle('body', 'zh-CN', HEADER_SIZE_PT);
  const width = ctx.geometry.textWidth / 20;

  it('keeps a title that fits', () => {
    expect(headerText('面向低资源场景的文档智能理解关键技术研究', ctx, tableMeasurer)).toBe('面向低资源场景的文档智能理解关键技术研究');
  });

  it('keeps a mixed title that fits with Writer’s Chinese–Latin gap, though a slide’s wider gap would not fit it', () => {
    // Units of Chinese and a Latin letter, two script changes each, then Chinese characters up to the width.
    let title = '';
    while (tableMeasurer.widthPt(`${title}模型A`, style) <= width) title += '模型A';
    while (tableMeasurer.widthPt(`${title}型`, style) <= width) title += '型';
    expect(tableMeasurer.widthPt(title, { ...style, setting: 'slide' })).toBeGreaterThan(width);
    expect(headerText(title, ctx, tableMeasurer)).toBe(title);
  });

  it('cuts a long title to one line with an ellipsis', () => {
    const title = '基于多模态大模型的'.repeat(20);
    const cut = headerText(title, ctx, tableMeasurer);
    expect(cut.endsWith('…')).toBe(true);
    expect(tableMeasurer.widthPt(cut, style)).toBeLessThanOrEqual(width);
    expect(cut.length).toBeGreaterThan(30);
  });
});

describe('cover title', () => {
  const template = documentTemplates.nsfc_youth;
  const ctx = new RenderContext('/nowhere', template, 'zh-CN', pageGeometry(template), collectCaptions([]));

  it('sets a two-line title in two lines of about the same length, not a stub under a full line', () => {
    const title = '面向个人知识工作的本地化可控智能体关键技术研究';
    const lines = coverTitleLines(title, ctx, tableMeasurer);
    expect(lines).toHaveLength(2);
    expect(lines.join('')).toBe(title);
    const [first = '', second = ''] = lines;
    expect(Math.abs(first.length - second.length)).toBeLessThanOrEqual(2);
  });

  it('keeps a title that fits on one line as it is', () => {
    expect(coverTitleLines('城市绿地降温机制研究', ctx, tableMeasurer)).toEqual(['城市绿地降温机制研究']);
  });

  it('writes the balanced break into the cover paragraph', async () => {
    const folder = documentFolder({ title: '面向个人知识工作的本地化可控智能体关键技术研究', template: 'nsfc_youth', language: 'zh-CN' }, { '01.md': '# 立项依据与研究内容\n\n正文。\n' });
    const built = await buildDocx(loadDocumentFolder(folder));
    const xml = (await (await JSZip.loadAsync(built.bytes)).file('word/document.xml')?.async('string')) ?? '';
    const cover = /<w:p>(?:(?!<\/w:p>)[\s\S])*?w:val="CoverTitle"[\s\S]*?<\/w:p>/u.exec(xml)?.[0] ?? '';
    expect(cover).toContain('<w:br/>');
  });
});
