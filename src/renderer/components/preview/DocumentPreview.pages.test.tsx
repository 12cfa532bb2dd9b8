// The document preview's contents and page count, rendered to HTML (no DOM needed): laid-out pages
// show the contents with their page numbers and the true count; an estimate says it is one.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { useUiLanguage } from '../../i18n/ui-language.test-support';
import { type DocumentSpec } from '../../../shared/specs/document';
import { DocumentPreview } from './DocumentPreview';

const spec: DocumentSpec = { title: '标题', authors: [], template: 'nsfc', language: 'zh-CN' };
const sections = [{ file: '01.md', markdown: '# 立项依据\n\n正文。\n' }];
const stats = { sections: 1, words: 0, cjk_chars: 2, tables: 0, images: 0, footnotes: 0 };
const render = (report: unknown): string => renderToStaticMarkup(<DocumentPreview spec={spec} sections={sections} report={report} />);

describe('DocumentPreview pages', () => {
  useUiLanguage();

  it('lists the contents with page numbers and the true page count when the pages were laid out', () => {
    const html = render({
      issues: [{ kind: 'missing_glyph', section: '01.md', heading: '立项依据', message: 'no font has 𓀀' }],
      stats,
      pages: { mode: 'rendered', total: 8, body: 6, contents: [{ level: 1, title: '一、立项依据', page: 1 }, { level: 2, title: '（一）背景', page: 3 }] },
    });
    expect(html).toContain('8 pages (6 body), laid out by LibreOffice');
    expect(html).toMatch(/data-testid="doc-contents"/u);
    expect(html).toMatch(/一、立项依据<\/span><span class="doc-contents-page">1<\/span>/u);
    expect(html).toMatch(/level-2"><span class="doc-contents-text">（一）背景<\/span><span class="doc-contents-page">3</u);
    expect(html).toContain('<span class="doc-issue-heading">立项依据</span>');
  });

  it('heads the contents as the .docx does, in the document language rather than the UI language', () => {
    const pages = { mode: 'rendered', total: 3, body: 2, contents: [{ level: 1, title: 'Background', page: 1 }] };
    // A Chinese document in the English UI: the .docx says 目　录.
    expect(render({ issues: [], stats, pages })).toContain('<div class="doc-contents-title">目　录</div>');
    const english = renderToStaticMarkup(<DocumentPreview spec={{ ...spec, language: 'en' }} sections={sections} report={{ issues: [], stats, pages }} />);
    expect(english).toMatch(/doc-contents-title">(?:Contents)</u);
  });

  it('says an estimate is one, without contents numbers', () => {
    const html = render({ issues: [], stats, pages: { mode: 'estimated', total: 7, reason: 'LibreOffice not installed' } });
    expect(html).toContain('about 7 pages (estimated)');
    expect(html).toContain('title="LibreOffice not installed"');
    expect(html).not.toContain('doc-contents"');
    expect(html).toContain('Page numbers in the contents appear when Word updates fields');
  });
});
