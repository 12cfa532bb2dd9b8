// Library search over a real migrated database, on each store (SQLite: FTS5 trigram index and
// triggers; PostgreSQL: pg_trgm-backed ILIKE): Chinese and English, short CJK terms, FTS5 syntax
// typed as text, scope, deletion; then real Debian PDFs extracted by the app's own extraction, where
// the right page is decided from the extracted text itself. On PostgreSQL also: tenants never see
// each other's pages, and search without pg_trgm still answers (and says so once).
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { LibrarySearchResult } from '../../shared/contract/projects';
import { DEBIAN_PDFS } from '../sources/testing';
import type { StorePort } from '../store/port';
import { freshStoreEach, type OpenedPort, portBackends } from '../store/port-backends.test-support';
import { NO_TRIGRAM_WARNING } from '../store/postgres/library-search';
import { searchLibrary } from './search';
import { addLibraryFile, addProject, extractPdfPages } from './testing';

function highlighted(result: LibrarySearchResult): string[][] {
  return result.hits.map((h) => h.highlights.map(([s, e]) => h.snippet.slice(s, e)));
}

for (const backend of portBackends) {
  const skip = backend.skip();
  if (skip) console.warn(`library search: skipping ${backend.name}: ${skip}`);
}

const RAG_PAGES = [
  '本文综述检索增强生成（RAG）技术的发展。',
  'Retrieval-Augmented Generation combines a retriever with a generator. 检索模块先召回文档，检索结果再交给模型。',
  '大语言模型的训练需要大量数据。模型规模越大，效果越好。',
  'Compiler flags: gcc -O2 *.c and "NEAR" (quoted) in a shell line; a-b AND c OR d.',
];

describe.each(portBackends.map((b) => [b.name, b] as const))('searchLibrary (full text) on %s', (name, backend) => {
  const skip = backend.skip() !== null;
  let port: StorePort;
  let projectA: string;
  let projectB: string;
  const search = (query: string, libraries: string[] = [projectA], limit = 10, on: StorePort = port) => searchLibrary(on, { libraries, query, limit }, null);
  const store = freshStoreEach(backend, async (opened) => {
    port = opened.port;
    projectA = await addProject(port, 'A');
    projectB = await addProject(port, 'B');
    await addLibraryFile(port, projectA, 'rag-survey.pdf', RAG_PAGES);
    await addLibraryFile(port, projectB, 'other.pdf', ['检索增强生成 in project B only: Retrieval everywhere.']);
    await addLibraryFile(port, null, 'cv.pdf', ['个人简历：研究方向为检索增强生成。']);
  });

  it.skipIf(skip)('finds a 4-character Chinese term inside a longer word (检索增强 in 检索增强生成)', async () => {
    const r = await search('检索增强');
    expect(r.mode).toBe('text');
    expect(r.hits.map((h) => [h.path, h.page])).toEqual([['rag-survey.pdf', 1]]);
    expect(highlighted(r)).toEqual([['检索增强']]);
    expect(r.hits[0]?.task_path).toBe('library/project/rag-survey.pdf');
  });

  it.skipIf(skip)('finds 2-character Chinese terms the trigram index cannot, the page with more of them first', async () => {
    const r = await search('检索');
    expect(r.hits.map((h) => h.page).sort()).toEqual([1, 2]);
    expect(highlighted(r)[r.hits.findIndex((h) => h.page === 2)]).toEqual(['检索', '检索']);
    const model = await search('模型');
    expect(model.hits.map((h) => h.page)).toEqual([3, 2]);
    expect(model.hits[0]?.score).toBeGreaterThan(model.hits[1]?.score ?? Infinity);
  });

  it.skipIf(skip)('is case-insensitive for English and matches mixed Chinese-English queries', async () => {
    const r = await search('retrieval-augmented');
    expect(r.hits.map((h) => h.page)).toEqual([2]);
    expect(highlighted(r)).toEqual([['Retrieval-Augmented']]);
    expect((await search('RAG 检索增强')).hits.map((h) => h.page)).toEqual([1]);
    // A long and a short term together: the short one filters the index's candidates.
    expect((await search('generator 检索')).hits.map((h) => h.page)).toEqual([2]);
  });

  it.skipIf(skip)('needs every term first, then falls back to pages with any of them', async () => {
    expect((await search('retriever 大语言')).hits.map((h) => h.page).sort()).toEqual([2, 3]);
    // Two short terms on different pages: any of them.
    expect((await search('召回 规模')).hits.map((h) => h.page).sort()).toEqual([2, 3]);
  });

  it.skipIf(skip)('treats FTS5 and LIKE syntax characters as text', async () => {
    for (const q of ['"unbalanced', 'NEAR(a b)', '-O2', 'gcc*', 'a-b AND c OR d', 'text:检索', '(', '""', '*', 'NOT', "it's", '%', '_', '\\', '100%_\\']) {
      await expect(search(q), q).resolves.toBeDefined();
    }
    expect((await search('-O2 *.c')).hits.map((h) => h.page)).toEqual([4]);
    expect((await search('"NEAR" (quoted)')).hits.map((h) => h.page)).toEqual([4]);
    expect((await search('NEAR(a b)')).hits).toEqual([]);
    expect((await search('"a-b AND c"')).hits.map((h) => h.page)).toEqual([4]);
    // LIKE's wildcards match only themselves.
    expect((await search('%')).hits).toEqual([]);
    expect((await search('g_c')).hits).toEqual([]);
  });

  it.skipIf(skip)('searches only the libraries asked for: another project never appears; personal when named', async () => {
    expect((await search('project B')).hits).toEqual([]);
    expect((await search('检索增强生成', [projectB])).hits.map((h) => h.path)).toEqual(['other.pdf']);
    const both = await search('检索增强生成', [projectA, 'personal']);
    expect(both.hits).toHaveLength(2);
    expect(both.hits.map((h) => [h.library, h.path])).toEqual(expect.arrayContaining([['personal', 'cv.pdf'], [projectA, 'rag-survey.pdf']]));
    expect(both.hits.find((h) => h.library === 'personal')?.task_path).toBe('library/personal/cv.pdf');
    expect((await search('检索', ['personal'])).hits.map((h) => h.path)).toEqual(['cv.pdf']);
  });

  it.skipIf(skip)("deleting a file removes its hits (index and short-term scan alike)", async () => {
    expect((await search('检索增强', [projectA, 'personal'])).hits).toHaveLength(2);
    expect(await port.library.delete(projectA, 'rag-survey.pdf')).toBe(true);
    expect((await search('检索增强', [projectA, 'personal'])).hits.map((h) => h.path)).toEqual(['cv.pdf']);
    expect((await search('模型', [projectA, 'personal'])).hits).toEqual([]);
  });

  it.skipIf(skip)('respects the limit and orders by score', async () => {
    const r = await search('检', [projectA, projectB, 'personal'], 2);
    expect(r.hits).toHaveLength(2);
    expect(r.hits[0].score).toBeGreaterThanOrEqual(r.hits[1].score);
  });

  // Tenancy and pg_trgm exist only on PostgreSQL: the tests are declared there alone.
  if (name === 'postgres') it.skipIf(skip)('never crosses tenants: another tenant’s pages, projects and personal library stay out (long and 2-character terms)', async () => {
    const acme = store().as({ tenant_id: 'acme', user_id: 'ann' });
    const acmeProject = await addProject(acme, 'Acme');
    await addLibraryFile(acme, acmeProject, 'acme.pdf', ['Acme 检索增强生成 retrieval notes; 模型 模型 模型.']);
    await addLibraryFile(acme, null, 'acme-cv.pdf', ['Acme personal: 检索增强生成 and 模型.']);

    for (const q of ['检索增强生成', '模型', 'retrieval']) {
      const local = await search(q, [projectA, 'personal']);
      expect(local.hits.every((h) => h.path !== 'acme.pdf' && h.path !== 'acme-cv.pdf'), q).toBe(true);
      // Naming another tenant's project reads as a project with no pages.
      expect((await search(q, [acmeProject, 'personal'])).hits.every((h) => !h.path.startsWith('acme')), q).toBe(true);
      const theirs = await search(q, [acmeProject, 'personal'], 10, acme);
      expect(theirs.hits.length, q).toBeGreaterThan(0);
      expect(theirs.hits.every((h) => h.path.startsWith('acme')), q).toBe(true);
    }
    // The 2-character term in acme's own library: the denser page first, highlighted.
    const model = await search('模型', [acmeProject, 'personal'], 10, acme);
    expect(model.hits.map((h) => h.path)).toEqual(['acme.pdf', 'acme-cv.pdf']);
    expect(highlighted(model)[0]).toEqual(['模型', '模型', '模型']);
    // Page ids of another tenant never load, even when asked for directly.
    const ids = (await acme.library.matchPages({ projects: [acmeProject], personal: true }, ['模型'], 'all', 10)).map((r) => r.id);
    expect(ids).toHaveLength(2);
    expect(await port.library.foundPages(ids)).toEqual([]);
    // Nor can another tenant's backfill write their vectors.
    const [page] = await acme.library.foundPages(ids.slice(0, 1));
    const vector = { id: page.id, text: page.text, embedding: new Uint8Array(8) };
    expect(await port.library.storeVectors('m', [vector])).toBe(0);
    expect(await acme.library.storeVectors('m', [vector])).toBe(1);
    expect(await port.library.pagesWithVectors({ projects: [acmeProject], personal: true }, 'm')).toEqual([]);
    expect(await port.library.pagesToEmbed('m', 0, 100)).toHaveLength(RAG_PAGES.length + 2);
  });

  // Tenancy and pg_trgm exist only on PostgreSQL: the tests are declared there alone.
  if (name === 'postgres') it.skipIf(skip)('without pg_trgm, search scans and answers the same, and the log says so once', async () => {
    const before = await search('retrieval-augmented 检索');
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    // What a managed server whose role may not create extensions looks like: no index, no extension.
    await store().scalar('DROP EXTENSION pg_trgm CASCADE');
    const fresh = await backend.open();
    try {
      // open() emptied the tables: the same rows again.
      const a = await addProject(fresh.port, 'A');
      await addLibraryFile(fresh.port, a, 'rag-survey.pdf', RAG_PAGES);
      const r = await search('retrieval-augmented 检索', [a], 10, fresh.port);
      expect(r.hits.map((h) => [h.page, h.snippet, h.highlights])).toEqual(before.hits.map((h) => [h.page, h.snippet, h.highlights]));
      expect((await search('模型', [a], 10, fresh.port)).hits.map((h) => h.page)).toEqual([3, 2]);
      expect(warn.mock.calls.filter(([line]) => line === NO_TRIGRAM_WARNING)).toHaveLength(1);
    } finally {
      warn.mockRestore();
      await fresh.scalar('CREATE EXTENSION pg_trgm');
      await fresh.scalar('CREATE INDEX library_pages_trgm ON library_pages USING gin (text gin_trgm_ops)');
      await fresh.close();
    }
  });
});

const installed = DEBIAN_PDFS.filter((pdf) => fs.existsSync(pdf.path));
const missing = DEBIAN_PDFS.filter((pdf) => !fs.existsSync(pdf.path));
let extracted: Promise<Map<string, string[]>> | null = null;
/** Each installed PDF extracted once for every backend's suite. */
function extractedTexts(): Promise<Map<string, string[]>> {
  extracted ??= (async () => {
    const texts = new Map<string, string[]>();
    for (const pdf of installed) texts.set(pdf.name, await extractPdfPages(pdf.path));
    return texts;
  })();
  return extracted;
}

describe.each(portBackends.map((b) => [b.name, b] as const))('searchLibrary over real PDFs on %s', (_name, backend) => {
  const skip = backend.skip() !== null;
  let opened: OpenedPort | undefined;
  let project: string;
  let texts = new Map<string, string[]>();

  beforeAll(async () => {
    if (skip) return;
    if (missing.length > 0) console.warn(`library search: skipping ${missing.map((p) => `${p.name} (install Debian package ${p.debianPackage})`).join(', ')}`);
    await backend.setUp();
    opened = await backend.open();
    texts = await extractedTexts();
    project = await addProject(opened.port, 'papers');
    const other = await addProject(opened.port, 'other');
    for (const [name, pages] of texts) {
      await addLibraryFile(opened.port, project, `${name}.pdf`, pages);
      // The same text in another project: its pages must never show up.
      await addLibraryFile(opened.port, other, `copy-of-${name}.pdf`, pages);
    }
  }, 240_000);
  afterAll(async () => {
    await opened?.close();
    if (!skip) await backend.tearDown();
  });

  /** Pages (1-based) whose extracted text contains `phrase`, case-insensitively. */
  function pagesWith(name: string, phrase: string): number[] {
    const p = phrase.toLowerCase();
    return (texts.get(name) ?? []).flatMap((text, i) => (text.toLowerCase().includes(p) ? [i + 1] : []));
  }

  for (const pdf of DEBIAN_PDFS) {
    it.skipIf(skip || !fs.existsSync(pdf.path))(`${pdf.name}: each of its words finds a page that has them first`, async () => {
      for (const word of pdf.words) {
        const expected = pagesWith(pdf.name, word);
        expect(expected.length, word).toBeGreaterThan(0);
        const r = await searchLibrary(opened!.port, { libraries: [project], query: `"${word}"`, limit: 5 }, null);
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
  it.skipIf(skip || !zh || !fs.existsSync(zh.path))('lshort-zh-cn (CID fonts): unquoted Chinese and a 2-character term', async () => {
    // 宏包 (package) is on many pages: every hit has it, the densest pages rank above the sparse ones.
    const term = '宏包';
    const withTerm = pagesWith('lshort-zh-cn', term);
    expect(withTerm.length).toBeGreaterThan(10);
    const r = await searchLibrary(opened!.port, { libraries: [project], query: term, limit: 10 }, null);
    expect(r.hits).toHaveLength(10);
    const pages = texts.get('lshort-zh-cn') ?? [];
    const density = (page: number) => (pages[page - 1] ?? '').split(term).length - 1;
    for (const h of r.hits) expect(withTerm).toContain(h.page);
    const meanDensity = withTerm.reduce((s, p) => s + density(p), 0) / withTerm.length;
    expect(density(r.hits[0].page)).toBeGreaterThan(meanDensity);

    const phrase = zh?.words[0] ?? '';
    const unquoted = await searchLibrary(opened!.port, { libraries: [project], query: phrase, limit: 3 }, null);
    expect(pagesWith('lshort-zh-cn', phrase)).toContain(unquoted.hits[0]?.page);
  });
});
