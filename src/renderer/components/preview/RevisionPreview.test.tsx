// A revised .docx in the preview: insertions and deletions marked by author, Folio's reasons beside them.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { useUiLanguage } from '../../i18n/ui-language.test-support';
import { RevisionPreview } from './RevisionPreview';

const revision = {
  source: 'source/草稿.docx',
  truncated: false,
  changes: [{ author: 'Folio', insertions: 1, deletions: 1 }],
  paragraphs: [
    { heading: true, segments: [{ text: '立项依据', change: null, author: null }], comments: [] },
    {
      heading: false,
      segments: [
        { text: '本项目', change: null, author: null },
        { text: '拟', change: 'del' as const, author: 'Folio' },
        { text: '研究', change: null, author: null },
        { text: '审稿人新增', change: 'ins' as const, author: 'Alice' },
      ],
      comments: [{ id: '3', author: 'Folio', text: '删去冗余的“拟”' }],
    },
  ],
};

describe('RevisionPreview', () => {
  useUiLanguage('zh-CN');

  it("shows Folio's deletion struck, another reviewer's insertion marked apart, and the reason beside the paragraph", () => {
    const out = renderToStaticMarkup(<RevisionPreview revision={revision} />);
    expect(out).toMatch(/<del class="rev-del own" title="Folio 删除" data-testid="rev-del">拟<\/del>/);
    expect(out).toMatch(/<ins class="rev-ins" title="Alice 插入" data-testid="rev-ins">审稿人新增<\/ins>/);
    expect(out).toContain('data-testid="rev-comment"><strong>Folio</strong> 删去冗余的“拟”');
    expect(out).toContain('Folio：插入1处，删除1处');
    expect(out).toContain('修订自source/草稿.docx');
  });

  it('draws table rows as one table, changes marked in their cells', () => {
    const cell = (text: string, change: 'ins' | 'del' | null = null) => [{ text, change, author: change ? 'Folio' : null }];
    const rows = [
      { heading: false, segments: [], comments: [], cells: [cell('站点'), cell('温差')] },
      { heading: false, segments: [], comments: [{ id: '1', author: 'Folio', text: '统一用词' }], cells: [[...cell('城区', 'del'), ...cell('市区', 'ins')], cell('2.5')] },
    ];
    const out = renderToStaticMarkup(<RevisionPreview revision={{ ...revision, paragraphs: [revision.paragraphs[0], ...rows] }} />);
    expect(out).toMatch(/<table class="rev-table" data-testid="rev-table"><tbody><tr><td>站点<\/td><td>温差<\/td><\/tr><tr><td><del[^>]*>城区<\/del><ins[^>]*>市区<\/ins><\/td><td>2.5<\/td><\/tr><\/tbody><\/table>/u);
    expect(out).toContain('<strong>Folio</strong> 统一用词');
  });
});

describe('RevisionPreview in English', () => {
  useUiLanguage('en');

  it('counts changes in words, one and many, without "(s)"', () => {
    const out = renderToStaticMarkup(<RevisionPreview revision={{ ...revision, changes: [{ author: 'Folio', insertions: 1, deletions: 3 }] }} />);
    expect(out).toContain('Folio: 1 insertion, 3 deletions');
    expect(out).not.toContain('(s)');
  });
});
