import { describe, expect, it } from 'vitest';
import { documentIssues, documentPages } from './document-report';

describe('documentIssues', () => {
  it('keeps well-formed issues with their section', () => {
    const report = {
      issues: [
        { kind: 'missing_section', message: 'No heading matches 研究目标' },
        { kind: 'missing_image', section: 'sections/02.md', message: 'figures/x.png does not exist' },
      ],
      stats: { sections: 2 },
    };
    expect(documentIssues(report)).toEqual([
      { kind: 'missing_section', message: 'No heading matches 研究目标' },
      { kind: 'missing_image', section: 'sections/02.md', message: 'figures/x.png does not exist' },
    ]);
  });

  it('keeps an issue location and drops a malformed one', () => {
    const report = {
      issues: [
        { kind: 'undefined_footnote', section: '01.md', location: { paragraph: 3, line: 5, excerpt: '不足[^x]' }, message: 'm' },
        { kind: 'empty_list_item', section: '02.md', location: { paragraph: 'two', excerpt: 'x' }, message: 'n' },
      ],
    };
    expect(documentIssues(report)).toEqual([
      { kind: 'undefined_footnote', section: '01.md', location: { paragraph: 3, line: 5, excerpt: '不足[^x]' }, message: 'm' },
      { kind: 'empty_list_item', section: '02.md', message: 'n' },
    ]);
  });

  it('ignores malformed reports and entries', () => {
    expect(documentIssues(null)).toEqual([]);
    expect(documentIssues({ issues: 'none' })).toEqual([]);
    expect(documentIssues({ issues: [{ kind: 1, message: 'x' }, 'text', { kind: 'empty_section', message: 'Empty', section: 3 }] })).toEqual([
      { kind: 'empty_section', message: 'Empty' },
    ]);
  });
});

describe('documentPages', () => {
  it('reads laid-out pages with the contents, dropping malformed lines', () => {
    const report = {
      pages: { mode: 'rendered', total: 8, body: 6, contents: [{ level: 1, title: '一、立项依据', page: 1 }, { level: 2, title: '（一）背景', page: null }, { title: 3 }] },
    };
    expect(documentPages(report)).toEqual({
      mode: 'rendered',
      total: 8,
      body: 6,
      contents: [
        { level: 1, title: '一、立项依据', page: 1 },
        { level: 2, title: '（一）背景', page: null },
      ],
    });
  });

  it('reads an estimate with its reason, and nothing from reports without pages', () => {
    expect(documentPages({ pages: { mode: 'estimated', total: 7, reason: 'LibreOffice not installed' } })).toEqual({ mode: 'estimated', total: 7, reason: 'LibreOffice not installed' });
    expect(documentPages({ issues: [] })).toBeNull();
    expect(documentPages({ pages: { mode: 'rendered', total: -1 } })).toBeNull();
  });

  it('keeps the heading an issue came from', () => {
    expect(documentIssues({ issues: [{ kind: 'missing_glyph', message: 'm', section: 'a.md', heading: '特色' }] })).toEqual([{ kind: 'missing_glyph', message: 'm', section: 'a.md', heading: '特色' }]);
  });
});
