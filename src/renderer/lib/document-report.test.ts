import { describe, expect, it } from 'vitest';
import { documentIssues } from './document-report';

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
