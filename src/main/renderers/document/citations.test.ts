// Citations `[@key]` against a folder's .bib of twelve entries (journal, conference, book, thesis, web page;
// Chinese and English): numbered in order of first citation, written as GB/T 7714 superscripts, the list
// generated under 参考文献 with the standard's type codes, and what is wrong reported. The list as LibreOffice
// prints it is checked in proposals-libreoffice.test.ts, which shares one conversion.
import { cpSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildDocx, loadDocumentFolder } from './index';
import { paragraphsOf, runsOf, styleOf, textOf } from './testing/docx';
import { countCjkChars, countWords } from './text-metrics';
import JSZip from 'jszip';

const FIXTURE = join(import.meta.dirname, 'fixtures/citations');
const ORDER = ['zhang2020layout', 'lecun2015deep', 'goodfellow2016deep', 'xu2020layoutlm', 'chen2021ccl', 'li2022ocr', 'zhou2016ml', 'wang2019thesis', 'vaswani2017attention', 'nsfc2024guide', 'hf2023docs'];

async function documentXml(bytes: Uint8Array): Promise<string> {
  return (await (await JSZip.loadAsync(bytes)).file('word/document.xml')?.async('string')) ?? '';
}

describe('citations', () => {
  it('numbers entries in order of first citation and writes GB/T 7714 superscripts, collapsing runs', async () => {
    const built = await buildDocx(loadDocumentFolder(FIXTURE));
    expect(built.report.citations?.style).toBe('gb-t-7714-2015');
    expect(Object.entries(built.report.citations?.numbers ?? {}).sort((a, b) => a[1] - b[1]).map(([key]) => key)).toEqual(ORDER);
    const xml = await documentXml(built.bytes);
    const superscripts = paragraphsOf(xml)
      .flatMap(runsOf)
      .filter((run) => run.includes('<w:vertAlign w:val="superscript"/>'))
      .map(textOf);
    // Each mark is joined to the word before it (U+2060), so no line starts with one.
    expect(superscripts).toEqual(['[1]', '[2,3]', '[4]', '[5]', '[6]', '[7]', '[8]', '[9]', '[10]', '[11]', '[2]', '[1,4,5]', '[?]'].map((mark) => `\u2060${mark}`));
    expect(xml).not.toContain('[@');
  });

  it('generates the list under 参考文献 in citation order and reports the uncited entry, the unknown key and the incomplete entry', async () => {
    const built = await buildDocx(loadDocumentFolder(FIXTURE));
    const references = built.report.citations?.references ?? [];
    expect(references.map((r) => r.key)).toEqual(ORDER);
    expect(references[0]?.text).toBe('张伟, 李娜, 王强, 等. 面向版面分析的文档图像理解方法[J]. 计算机学报, 2020, 43(5): 801-815.');
    expect(references[1]?.text).toBe('LECUN Y, BENGIO Y, HINTON G. Deep learning[J]. Nature, 2015, 521(7553): 436-444. DOI:10.1038/nature14539.');
    const issues = built.report.issues;
    const kinds = issues.map((i) => i.kind);
    expect(kinds).not.toContain('empty_section');
    expect(issues.find((i) => i.kind === 'unknown_citation')?.message).toMatch(/\[@nobody2020\] is in no bibliography file/u);
    expect(issues.find((i) => i.kind === 'unknown_citation')?.location?.paragraph).toBe(3);
    expect(issues.filter((i) => i.kind === 'uncited_reference').map((i) => i.message)).toEqual([expect.stringMatching(/never cited .*: smith2018thesis /u)]);
    expect(issues.filter((i) => i.kind === 'incomplete_reference').map((i) => i.message)).toEqual([expect.stringMatching(/vaswani2017attention \(article-journal\) lacks journal \/ booktitle/u)]);
    expect(issues.filter((i) => i.kind === 'missing_section').map((i) => i.message).join()).not.toMatch(/参考文献/u);
  });

  it('reads CSL-JSON, writes Vancouver in the line for an English document, and adds a References heading when there is none', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'folio-cite-'));
    writeFileSync(join(dir, 'document.json'), JSON.stringify({ title: 'Plan', template: 'generic', language: 'en' }));
    cpSync(join(FIXTURE, 'sections'), join(dir, 'sections'), { recursive: true });
    writeFileSync(join(dir, 'sections/01_rationale.md'), 'As shown before [@b; @a], and again [@a].\n');
    writeFileSync(
      join(dir, 'library.json'),
      JSON.stringify([
        { id: 'a', type: 'book', title: 'A Book', author: [{ family: 'Doe', given: 'Jane' }], publisher: 'Press', issued: { 'date-parts': [[2020]] } },
        { id: 'b', type: 'article-journal', title: 'A Paper', author: [{ family: 'Roe', given: 'Rick' }], 'container-title': 'Journal', issued: { 'date-parts': [[2021]] } },
      ]),
    );
    const built = await buildDocx(loadDocumentFolder(dir));
    expect(built.report.citations?.style).toBe('vancouver');
    const xml = await documentXml(built.bytes);
    expect(xml).not.toContain('superscript');
    const texts = paragraphsOf(xml).map(textOf);
    expect(texts).toContain('As shown before \u2060[1, 2], and again \u2060[2].');
    const heading = texts.lastIndexOf('References');
    expect(heading).toBeGreaterThan(0);
    expect(texts[heading + 1]).toMatch(/^Roe R\. A Paper\. Journal\. 2021/u);
    expect(texts[heading + 2]).toMatch(/^Doe J\. A Book/u);
  });

  it('counts the words and Han characters the document prints: citations as numbers, the generated list, captions with their numbers', async () => {
    // The cited fixture, the stress proposal (31 tables, some uncaptioned, a figure) and the NSFC sample (a footnote).
    for (const folder of [FIXTURE, join(FIXTURE, '../stress-proposal'), join(FIXTURE, '../../../../../../samples/proposal-nsfc')]) {
      const built = await buildDocx(loadDocumentFolder(folder));
      const zip = await JSZip.loadAsync(built.bytes);
      const footnotes = (await zip.file('word/footnotes.xml')?.async('string')) ?? '';
      // The body as written into the .docx (everything after the cover and the contents), and the footnotes.
      const printed = [...paragraphsOf(await documentXml(built.bytes)).filter((p) => !/^(?:Cover|TOC)/u.test(styleOf(p) ?? '')), ...paragraphsOf(footnotes)]
        .map(textOf)
        .join('\n')
        // Break opportunities (soft hyphens, zero-width spaces, word joiners) are not text a reader sees.
        .replace(/[\u00AD\u200B\u2060]/gu, '');
      expect(built.report.stats, folder).toMatchObject({ words: countWords(printed), cjk_chars: countCjkChars(printed) });
    }
    const list = (await buildDocx(loadDocumentFolder(FIXTURE))).report.citations?.references ?? [];
    expect(countWords(list.map((r) => r.text).join('\n'))).toBeGreaterThan(100);
  });
});
