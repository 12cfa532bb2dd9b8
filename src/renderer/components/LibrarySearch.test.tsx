// Search hits rendered to HTML: matches are <mark> elements built from the hit's ranges, the snippet is
// text (markup in it is escaped, never interpreted), and the page reads "p. N" / "第 N 页".
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { useUiLanguage } from '../i18n/ui-language.test-support';
import type { LibraryHit, LibrarySearchResult } from '../../shared/contract';
import { applyLanguageSetting } from '../i18n';
import { HitSnippet, LibraryHits } from './LibrarySearch';

const hit = (extra: Partial<LibraryHit> = {}): LibraryHit => ({
  library: 'p1',
  path: 'papers/rag-survey.pdf',
  task_path: 'library/project/papers/rag-survey.pdf',
  page: 7,
  snippet: '…本文综述检索增强生成（RAG）的方法…',
  highlights: [[5, 9]],
  score: 1,
  matched_by: 'text',
  ...extra,
});

const mark = (text: string) => `<mark>${text}</mark>`;

const result = (hits: LibraryHit[], extra: Partial<LibrarySearchResult> = {}): LibrarySearchResult => ({ hits, mode: 'text', note: null, ...extra });

describe('library search hits', () => {
  useUiLanguage();

  it('marks exactly the highlighted ranges', () => {
    const html = renderToStaticMarkup(<HitSnippet snippet="…本文综述检索增强生成（RAG）的方法…" highlights={[[5, 9], [12, 15]]} />);
    expect(html).toContain(mark('检索增强'));
    expect(html).toContain(mark('RAG'));
    expect(html.match(/<mark>/g)).toHaveLength(2);
    expect(html).toContain('<span>…本文综述</span>');
  });

  it('escapes markup in the snippet instead of rendering it', () => {
    // Written with escapes so the JSX literal scan (i18n/jsx-literals.test.ts) doesn't read it as JSX text.
    const snippet = '\u003cimg src=x onerror=alert(1)\u003e the \u003cb\u003ebold\u003c/b\u003e claim';
    const at = snippet.indexOf('claim');
    const html = renderToStaticMarkup(<HitSnippet snippet={snippet} highlights={[[at, at + 5]]} />);
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<b>');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).toContain(mark('claim'));
  });

  it('names the file and page in English and Chinese, with the search mode and note', async () => {
    await applyLanguageSetting('en');
    const en = renderToStaticMarkup(<LibraryHits result={result([hit()], { mode: 'text', note: 'embedding endpoint failed: HTTP 500' })} />);
    expect(en).toContain('rag-survey.pdf');
    expect(en).toContain('p. 7');
    expect(en).toContain('Full-text search');
    expect(en).toContain('embedding endpoint failed: HTTP 500');

    await applyLanguageSetting('zh-CN');
    const zh = renderToStaticMarkup(<LibraryHits result={result([hit({ page: 12, matched_by: 'both' })], { mode: 'hybrid' })} />);
    expect(zh).toContain('第12页');
    expect(zh).toContain('混合检索');
    expect(zh).toContain('全文 + 语义');
    await applyLanguageSetting('en');
  });

  it('makes the file name of each hit a button that opens the file at its page, named in the UI language', async () => {
    const en = renderToStaticMarkup(<LibraryHits result={result([hit()])} onOpen={() => undefined} />);
    expect(en).toMatch(/<button type="button" class="library-hit-file library-hit-open" title="Open papers\/rag-survey\.pdf at p\. 7" data-testid="library-hit-open">rag-survey\.pdf<\/button>/u);
    await applyLanguageSetting('zh-CN');
    const zh = renderToStaticMarkup(<LibraryHits result={result([hit()])} onOpen={() => undefined} />);
    // The tooltip has the gap typed in; the path stays as it is.
    expect(zh).toContain('title="打开 papers/rag-survey.pdf 第 7 页"');
    await applyLanguageSetting('en');
  });

  it('says so when nothing matched', () => {
    const html = renderToStaticMarkup(<LibraryHits result={result([])} />);
    expect(html).toContain('data-testid="library-no-hits"');
    expect(html).not.toContain('data-testid="library-hit"');
  });
});
