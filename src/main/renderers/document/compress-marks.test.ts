import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { withCompressedMarks, withFeatureFaces } from './compress-marks';
import { paragraphsOf, runsOf, textOf } from './testing/docx';

const EMPTY_FONTS = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:fonts xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"/>';
const body = (paragraphs: string): string => `<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${paragraphs}</w:body></w:document>`;

async function docx(paragraphs: string): Promise<Uint8Array> {
  const zip = new JSZip();
  zip.file('word/document.xml', body(paragraphs));
  zip.file('word/fontTable.xml', EMPTY_FONTS);
  return zip.generateAsync({ type: 'uint8array' });
}

async function parts(bytes: Uint8Array): Promise<{ document: string; fonts: string }> {
  const zip = await JSZip.loadAsync(bytes);
  return { document: (await zip.file('word/document.xml')?.async('string')) ?? '', fonts: (await zip.file('word/fontTable.xml')?.async('string')) ?? '' };
}

// What docx writes: a body paragraph of plain runs, the zero-width break after 、 that break-opportunities.ts adds.
const PARAGRAPH = '<w:p><w:pPr><w:pStyle w:val="BodyText"/></w:pPr><w:r><w:t xml:space="preserve">我们在FUNSD、\u200BCORD与XFUND数据集上。</w:t></w:r></w:p>';
const BOLD = '<w:p><w:r><w:rPr><w:rFonts w:eastAsia="SimHei"/><w:b/></w:rPr><w:t xml:space="preserve">重点，</w:t></w:r><w:r><w:t xml:space="preserve">其余（A）</w:t></w:r></w:p>';

describe('marks set half width in the built .docx', () => {
  it('gives each chosen mark a run of its own in the face with the half-width feature, and the text stays as it was', async () => {
    const text = '我们在FUNSD、CORD与XFUND';
    const out = await parts(await withCompressedMarks(await docx(PARAGRAPH), [{ text, occurrence: 0, of: 1, offsets: [text.indexOf('、')] }], 'SimSun'));
    const [p] = paragraphsOf(out.document);
    expect(textOf(p ?? '')).toBe('我们在FUNSD、\u200BCORD与XFUND数据集上。');
    expect(runsOf(p ?? '')).toEqual([
      '<w:t xml:space="preserve">我们在FUNSD</w:t>',
      '<w:rPr><w:rFonts w:eastAsia="SimSun:halt"/></w:rPr><w:t xml:space="preserve">、</w:t>',
      '<w:t xml:space="preserve">\u200BCORD与XFUND数据集上。</w:t>',
    ]);
    // Word knows no "SimSun:halt": the font table sends it to SimSun.
    expect(out.fonts).toContain('<w:font w:name="SimSun:halt"><w:altName w:val="SimSun"/>');
  });

  it('keeps a run’s own properties and face (黑体 for bold Chinese), and reaches marks in any run of the paragraph', async () => {
    const text = '重点，其余（A）';
    const out = await parts(await withCompressedMarks(await docx(BOLD), [{ text, occurrence: 0, of: 1, offsets: [2, 5] }], 'SimSun'));
    const runs = runsOf(paragraphsOf(out.document)[0] ?? '');
    expect(runs).toContain('<w:rPr><w:rFonts w:eastAsia="SimHei:halt"/><w:b/></w:rPr><w:t xml:space="preserve">，</w:t>');
    expect(runs).toContain('<w:rPr><w:rFonts w:eastAsia="SimSun:halt"/></w:rPr><w:t xml:space="preserve">（</w:t>');
    expect(textOf(out.document)).toBe('重点，其余（A）');
    expect(out.fonts).toContain('w:name="SimHei:halt"');
  });

  it('changes nothing when the text appears a different number of times than the PDF showed it', async () => {
    const bytes = await docx(PARAGRAPH + PARAGRAPH);
    expect(await withCompressedMarks(bytes, [{ text: '我们在FUNSD、CORD', occurrence: 0, of: 1, offsets: [8] }], 'SimSun')).toBe(bytes);
    expect(await withCompressedMarks(bytes, [{ text: '不在文中', occurrence: 0, of: 1, offsets: [0] }], 'SimSun')).toBe(bytes);
  });

  it('adds each feature face to the font table once', () => {
    const once = withFeatureFaces(EMPTY_FONTS, new Set(['SimSun:halt']));
    expect(withFeatureFaces(once, new Set(['SimSun:halt']))).toBe(once);
    expect(once).toMatch(/<w:fonts [^>]*><w:font w:name="SimSun:halt">[\s\S]*<\/w:fonts>$/u);
  });
});
