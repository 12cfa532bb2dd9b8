// Library search over a real migrated database (FTS5 trigram index, triggers): Chinese and English,
// short CJK terms, FTS5 syntax typed as text, scope, deletion; then real Debian PDFs extracted by the
// app's own extraction, where the right page is decided from the extracted text itself.
import fs from 'node:fs';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { LibrarySearchResult } from '../../shared/contract/projects';
import { DEBIAN_PDFS } from '../sources/testing';
import { searchLibrary } from './search';
import { addLibraryFile, addProject, extractPdfPages, openTestLibraryDb, type TestLibraryDb } from './testing';

function highlighted(result: LibrarySearchResult): string[][] {
  return result.hits.map((h) => h.highlights.map(([s, e]) => h.snippet.slice(s, e)));
}

describe('searchLibrary (full text)', () => {
  let lib: TestLibraryDb;
  let projectA: string;
  let projectB: string;
  const search = (query: string, libraries: string[] = [projectA], limit = 10) => searchLibrary(lib.db, { libraries, query, limit }, null);

  beforeEach(() => {
    lib = openTestLibraryDb();
    projectA = addProject(lib.db, 'A');
    projectB = addProject(lib.db, 'B');
    addLibraryFile(lib.db, projectA, 'rag-survey.pdf', [
      '本文综述检索增强生成（RAG）技术的发展。',
      'Retrieval-Augmented Generation combines a retriever with a generator. 检索模块先召回文档，检索结果再交给模型。',
      '大语言模型的训练需要大量数据。模型规模越大，效果越好。',
      'Compiler flags: gcc -O2 *.c and "NEAR" (quoted) in a shell line; a-b AND c OR d.',
    ]);
    addLibraryFile(lib.db, projectB, 'other.pdf', ['检索增强生成 in project B only: Retrieval everywhere.']);
    addLibraryFile(lib.db, null, 'cv.pdf', ['个人简历：研究方向为检索增强生成。']);
  });
  afterEach(() => lib.close());

  it('finds a 4-character Chinese term inside a longer word (检索增强 in 检索增强生成)', async () => {
    const r = await search('检索增强');
    expect(r.mode).toBe('text');
    expect(r.hits.map((h) => [h.path, h.page])).toEqual([['rag-survey.pdf', 1]]);
    expect(highlighted(r)).toEqual([['检索增强']]);
    expect(r.hits[0]?.task_path).toBe('library/project/rag-survey.pdf');
  });

  it('finds 2-character Chinese terms the trigram index cannot, the page with more of them first', async () => {
    const r = await search('检索');
    expect(r.hits.map((h) => h.page).sort()).toEqual([1, 2]);
    expect(highlighted(r)[r.hits.findIndex((h) => h.page === 2)]).toEqual(['检索', '检索']);
    const model = await search('模型');
    expect(model.hits.map((h) => h.page)).toEqual([3, 2]);
    expect(model.hits[0]?.score).toBeGreaterThan(model.hits[1]?.score ?? Infinity);
  });

  it('is case-insensitive for English and matches mixed Chinese-English queries', async () => {
    const r = await search('retrieval-augmented');
    expect(r.hits.map((h) => h.page)).toEqual([2]);
    expect(highlighted(r)).toEqual([['Retrieval-Augmented']]);
    expect((await search('RAG 检索增强')).hits.map((h) => h.page)).toEqual([1]);
    // A long and a short term together: the short one filters the index's candidates.
    expect((await search('generator 检索')).hits.map((h) => h.page)).toEqual([2]);
  });

  it('needs every term first, then falls back to pages with any of them', async () => {
    expect((await search('retriever 大语言')).hits.map((h) => h.page).sort()).toEqual([2, 3]);
  });

  it('treats FTS5 syntax characters as text', async () => {
    for (const q of ['"unbalanced', 'NEAR(a b)', '-O2', 'gcc*', 'a-b AND c OR d', 'text:检索', '(', '""', '*', 'NOT', "it's"]) {
      await expect(search(q), q).resolves.toBeDefined();
    }
    expect((await search('-O2 *.c')).hits.map((h) => h.page)).toEqual([4]);
    expect((await search('"NEAR" (quoted)')).hits.map((h) => h.page)).toEqual([4]);
    expect((await search('NEAR(a b)')).hits).toEqual([]);
    expect((await search('"a-b AND c"')).hits.map((h) => h.page)).toEqual([4]);
  });

  it('searches only the libraries asked for: another project never appears; personal when named', async () => {
    expect((await search('project B')).hits).toEqual([]);
    expect((await search('检索增强生成', [projectB])).hits.map((h) => h.path)).toEqual(['other.pdf']);
    const both = await search('检索增强生成', [projectA, 'personal']);
    expect(both.hits).toHaveLength(2);
    expect(both.hits.map((h) => [h.library, h.path])).toEqual(expect.arrayContaining([['personal', 'cv.pdf'], [projectA, 'rag-survey.pdf']]));
    expect(both.hits.find((h) => h.library === 'personal')?.task_path).toBe('library/personal/cv.pdf');
    expect((await search('检索', ['personal'])).hits.map((h) => h.path)).toEqual(['cv.pdf']);
  });

  it("deleting a file's rows removes its hits (index and short-term scan alike)", async () => {
    expect((await search('检索增强', [projectA, 'personal'])).hits).toHaveLength(2);
    lib.db.prepare("DELETE FROM library_files WHERE path = 'rag-survey.pdf'").run();
    expect((await search('检索增强', [projectA, 'personal'])).hits.map((h) => h.path)).toEqual(['cv.pdf']);
    expect((await search('模型', [projectA, 'personal'])).hits).toEqual([]);
  });

  it('respects the limit and orders by score', async () => {
    const r = await search('检', [projectA, projectB, 'personal'], 2);
    expect(r.hits).toHaveLength(2);
    expect(r.hits[0].score).toBeGreaterThanOrEqual(r.hits[1].score);
  });
});

const installed = DEBIAN_PDFS.filter((pdf) => fs.existsSync(pdf.path));
const missing = DEBIAN_PDFS.filter((pdf) => !fs.existsSync(pdf.path));

describe('searchLibrary over real PDFs', () => {
  let lib: TestLibraryDb;
  let project: string;
  const texts = new Map<string, string[]>();

  beforeAll(async () => {
    if (missing.length > 0) console.warn(`library search: skipping ${missing.map((p) => `${p.name} (install Debian package ${p.debianPackage})`).join(', ')}`);
    lib = openTestLibraryDb();
    project = addProject(lib.db, 'papers');
    const other = addProject(lib.db, 'other');
    for (const pdf of installed) {
      const pages = await extractPdfPages(pdf.path);
      texts.set(pdf.name, pages);
      addLibraryFile(lib.db, project, `${pdf.name}.pdf`, pages);
      // The same text in another project: its pages must never show up.
      addLibraryFile(lib.db, other, `copy-of-${pdf.name}.pdf`, pages);
    }
  }, 240_000);
  afterAll(() => lib?.close());

  /** Pages (1-based) whose extracted text contains `phrase`, case-insensitively. */
  function pagesWith(name: string, phrase: string): number[] {
    const p = phrase.toLowerCase();
    return (texts.get(name) ?? []).flatMap((text, i) => (text.toLowerCase().includes(p) ? [i + 1] : []));
  }

  for (const pdf of DEBIAN_PDFS) {
    it.skipIf(!fs.existsSync(pdf.path))(`${pdf.name}: each of its words finds a page that has them first`, async () => {
      for (const word of pdf.words) {
        const expected = pagesWith(pdf.name, word);
        expect(expected.length, word).toBeGreaterThan(0);
        const r = await searchLibrary(lib.db, { libraries: [project], query: `"${word}"`, limit: 5 }, null);
        const top = r.hits[0];
        expect(top?.path, word).toBe(`${pdf.name}.pdf`);
        expect(expected, word).toContain(top?.page);
        if (expected.length === 1) expect(top?.page, word).toBe(expected[0]);
        expect(r.hits.every((h) => h.library === project)).toBe(true);
        expect(top?.highlights.length, word).toBeGreaterThan(0);
      }
    });
  }

  const zh = DEBIAN_PDFS.find((p) => p.name === 'lshort-zh-cn');
  it.skipIf(!zh || !fs.existsSync(zh.path))('lshort-zh-cn (CID fonts): unquoted Chinese and a 2-character term', async () => {
    // 宏包 (package) is on many pages: every hit has it, the densest pages rank above the sparse ones.
    const term = '宏包';
    const withTerm = pagesWith('lshort-zh-cn', term);
    expect(withTerm.length).toBeGreaterThan(10);
    const r = await searchLibrary(lib.db, { libraries: [project], query: term, limit: 10 }, null);
    expect(r.hits).toHaveLength(10);
    const pages = texts.get('lshort-zh-cn') ?? [];
    const density = (page: number) => (pages[page - 1] ?? '').split(term).length - 1;
    for (const h of r.hits) expect(withTerm).toContain(h.page);
    const meanDensity = withTerm.reduce((s, p) => s + density(p), 0) / withTerm.length;
    expect(density(r.hits[0].page)).toBeGreaterThan(meanDensity);

    const phrase = zh?.words[0] ?? '';
    const unquoted = await searchLibrary(lib.db, { libraries: [project], query: phrase, limit: 3 }, null);
    expect(pagesWith('lshort-zh-cn', phrase)).toContain(unquoted.hits[0]?.page);
  });
});
