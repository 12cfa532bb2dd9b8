// Citing a search_library hit: the hit carries a [@lib:…] key, and a document that cites it gets a reference
// entry made from the library file, numbered and listed like any other; the folder's own .bib entry wins.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { LibraryHit } from '../../shared/contract/projects';
import { libraryCitationKey } from '../../shared/specs/document-citations';
import { buildDocx, loadDocumentFolder } from '../renderers/document';
import { documentFolder } from '../renderers/document/testing/docx';
import { libraryEntries, libraryTitle } from './library-references';
import { searchLibraryTool } from './search-library';
import { contextFor, makeTempRoot } from './testing';
import type { LibraryDoc, LibraryPort } from './types';

const PAPER = 'papers/RAG survey.pdf';
const PAPER_TEXT = '<!-- page 1 -->\narXiv:2312.10997v5 [cs.CL] 27 Mar 2024\nRetrieval-Augmented Generation for Large Language Models: A Survey\nYunfan Gao, Yun Xiong\n';
const doc = (path: string): LibraryDoc => ({ scope: 'project', path, taskPath: `library/project/${path}`, status: 'ok', pages: 1, message: null });

const port: LibraryPort = {
  list: (scope) => Promise.resolve(scope === 'project' ? [doc(PAPER), doc('guides/指南.pdf')] : []),
  read: (_scope, path) => Promise.resolve(path === PAPER ? { doc: doc(PAPER), markdown: PAPER_TEXT } : { doc: doc(path), markdown: '<!-- page 1 -->\n2024年度国家自然科学基金项目指南\n' }),
  search: () =>
    Promise.resolve({
      mode: 'text' as const,
      note: null,
      hits: [{ library: 'personal', path: PAPER, task_path: `library/project/${PAPER}`, page: 1, snippet: 'retrieval augmented', highlights: [], score: 1, matched_by: 'text' } satisfies LibraryHit],
    }),
};

describe('citing library hits', () => {
  it('gives each search_library hit a key the model can put in [@…] as is', async () => {
    const key = libraryCitationKey(PAPER);
    expect(key).toBe('lib:papers/RAG-survey');
    const result = await searchLibraryTool.execute({ query: 'retrieval' }, { ...contextFor(makeTempRoot('folio-lib-')), library: port });
    expect(result.content).toContain(`[@${key}]`);
  });

  it('makes the entry from the file (its title, not the arXiv line) and lists it in citation order; a .bib entry with the key wins', async () => {
    expect(libraryTitle(doc(PAPER), PAPER_TEXT)).toBe('Retrieval-Augmented Generation for Large Language Models: A Survey');
    const sections = { '01.md': `# 立项依据\n\n检索增强生成[@${libraryCitationKey(PAPER)}]，见指南[@${libraryCitationKey('guides/指南.pdf')}]，另见[@lib:missing]。\n\n# 参考文献\n` };
    const folder = documentFolder({ title: '引用', template: 'nsfc_general', language: 'zh-CN' }, sections);
    const loaded = loadDocumentFolder(folder);
    const entries = await libraryEntries(port, loaded.sections.map((s) => s.markdown));
    expect(entries.map((e) => e.id)).toEqual(['lib:papers/RAG-survey', 'lib:guides/指南']);
    loaded.libraryEntries = entries;
    const built = await buildDocx(loaded);
    const references = built.report.citations?.references ?? [];
    expect(references.map((r) => r.number)).toEqual([1, 2]);
    expect(references[0]?.text).toContain('Retrieval-Augmented Generation for Large Language Models: A Survey');
    expect(references[1]?.text).toContain('2024年度国家自然科学基金项目指南');
    expect(built.report.issues.map((i) => i.kind)).toEqual(expect.arrayContaining(['unknown_citation', 'incomplete_reference']));

    writeFileSync(join(folder, 'refs.bib'), '@article{lib:papers/RAG-survey, author={Gao, Yunfan and Xiong, Yun}, title={Retrieval-Augmented Generation for Large Language Models: A Survey}, journal={arXiv preprint}, year={2024}}\n');
    const withBib = await buildDocx({ ...loadDocumentFolder(folder), libraryEntries: entries });
    expect(withBib.report.citations?.references[0]?.text).toMatch(/^GAO Y, XIONG Y\. Retrieval-Augmented Generation .*\[J\]/u);
  });
});
