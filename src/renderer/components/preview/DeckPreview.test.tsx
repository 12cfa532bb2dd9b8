// The deck preview's report header, rendered to HTML (no DOM needed): a person must see whether the
// report was read back from the rendered slides or only estimated.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { visibleText } from '../../../shared/latin-text.test-support';
import { useUiLanguage } from '../../i18n/ui-language.test-support';
import en from '../../i18n/locales/en.json';
import reportEn from '../../../shared/locales/report/en.json';
import { type DeckSpec, type QualityReport, validateDeckSpec } from '../../../shared/specs/deck';
import type { DeckPlan } from '../../../shared/specs/deck-plan';
import { previewTheme } from '../../lib/deck-preview';
import { DeckNotesView } from './DeckNotesView';
import { DeckPreview } from './DeckPreview';

const checkedSpec = validateDeckSpec({ title: 'T', slides: [{ layout: 'title', title: 'T' }] });
if (!checkedSpec.ok) throw new Error(checkedSpec.errors.join('; '));
const spec: DeckSpec = checkedSpec.spec;
const base: QualityReport = { slides: [{ index: 0, output_slides: [1], issues: [] }], summary: { slides_in: 1, slides_out: 1, issues: 0 } };

const badge = (mode: string, text: string): string => `data-mode="${mode}">${text}</span>`;
const render = (report: QualityReport): string => renderToStaticMarkup(<DeckPreview taskId="t" spec={spec} report={report} plan={null} />);

describe('DeckPreview report header', () => {
  useUiLanguage();

  it('says the report was verified against the rendered slides', () => {
    const html = render({ ...base, checked: { mode: 'rendered' } });
    expect(html).toContain(badge('rendered', reportEn.report.checkedRendered));
  });

  it('says an estimate is one, with the reason on hover, and treats reports from before the check as estimates', () => {
    const html = render({ ...base, checked: { mode: 'estimated', reason: 'LibreOffice not installed' } });
    expect(html).toContain(`title="${reportEn.report.checkedEstimatedWhy.replace('{{reason}}', 'LibreOffice not installed')}"`);
    expect(html).toContain(badge('estimated', reportEn.report.checkedEstimated));
    expect(render(base)).toContain(badge('estimated', reportEn.report.checkedEstimated));
  });
});

/** The report with `count` findings on its one slide. */
const withIssues = (count: number): QualityReport => ({
  ...base,
  slides: [{ index: 0, output_slides: [1], issues: Array.from({ length: count }, () => ({ kind: 'shrunk' as const, message: 'title shrunk from 28 to 24 pt to fit' })) }],
  summary: { ...base.summary, issues: count },
});

describe('the deck summary counts issues as a person writes them (en)', () => {
  useUiLanguage();

  it('says "1 issue" for one and "2 issues" for two', () => {
    const one = visibleText(render(withIssues(1)));
    expect(one).toContain('1 slide in the spec · 1 slide in the file · 1 issue');
    expect(one).not.toContain('1 issues');
    expect(visibleText(render(withIssues(2)))).toContain('1 slide in the file · 2 issues');
    expect(visibleText(render(base))).toContain('1 slide in the file · 0 issues');
  });
});

describe('presenter notes view', () => {
  useUiLanguage();

  const notesSpec = validateDeckSpec({
    title: 'Notes',
    slides: [
      { layout: 'bullets', title: 'Why now', bullets: ['a'], notes: 'Open with the customer story.' },
      { layout: 'bullets', title: 'Quiet slide', bullets: ['b'] },
    ],
  });
  if (!notesSpec.ok) throw new Error(notesSpec.errors.join('; '));
  const slide = (source_index: number, part: number, notes?: string) => ({ source_index, part, master: 'content' as const, background: '#FFFFFF', elements: [], ...(notes ? { notes } : {}) });
  const plan: DeckPlan = {
    size: { w: 13.333, h: 7.5 },
    theme: 'default',
    metrics: 'font',
    slides: [slide(0, 0, 'Open with the customer story.\n\nThe long point, in full.'), slide(0, 1, 'A point cut for space.'), slide(1, 0)],
  };

  it('puts every output slide beside its notes, the moved text apart, and says when there are none', () => {
    const html = renderToStaticMarkup(<DeckNotesView taskId="t" spec={notesSpec.spec} plan={plan} theme={previewTheme(notesSpec.spec.theme).theme} />);
    expect(html.match(/data-testid="deck-notes-row"/gu)).toHaveLength(3);
    expect(html).toContain('Slide 1 · Why now');
    expect(html).toContain(`Slide 2 · Why now · ${en.preview.continued}`);
    const own = 'Open with the customer story.';
    expect(html).toContain(`data-testid="deck-notes-own">${own}</div>`);
    expect(html).toContain(en.deckNotes.moved);
    expect(html).toContain('The long point, in full.');
    expect(html).toContain('A point cut for space.');
    expect(html).toContain(en.preview.noNotes);
  });

  it('offers the notes view in the deck preview once a plan exists', () => {
    expect(renderToStaticMarkup(<DeckPreview taskId="t" spec={notesSpec.spec} report={null} plan={plan} />)).toContain(`data-testid="deck-view-notes">${en.deckNotes.notes}</button>`);
    expect(renderToStaticMarkup(<DeckPreview taskId="t" spec={notesSpec.spec} report={null} plan={null} />)).not.toContain('deck-view-notes');
  });
});

describe('the deck preview in Chinese', () => {
  useUiLanguage('zh-CN');

  it("names a built-in theme in Chinese, and a template by its author's name", () => {
    expect(render(base)).toContain('主题：学术');
    const template = { ...previewTheme('academic').theme, name: 'lab-brand', label: 'Lab Brand' };
    expect(renderToStaticMarkup(<DeckPreview taskId="t" spec={spec} report={base} plan={null} drawnTheme={template} />)).toContain('主题：Lab Brand');
  });

  it('counts issues with the Chinese measure word, the same for one and for two', () => {
    expect(visibleText(render(withIssues(1)))).toContain('规格1页幻灯片 · 文件1页幻灯片 · 1个问题');
    expect(visibleText(render(withIssues(2)))).toContain('文件1页幻灯片 · 2个问题');
  });

  it("explains a finding in Chinese and offers the engine's English words only to copy", () => {
    const message = 'title shrunk from 28 to 24 pt to fit';
    const html = render({ ...base, slides: [{ index: 0, output_slides: [1], issues: [{ kind: 'shrunk', message }] }], summary: { ...base.summary, issues: 1 } });
    expect(html).toContain('文字已缩小字号，以放进文本框。');
    expect(visibleText(html)).not.toContain('shrunk from');
    expect(html).toContain('data-testid="copy-original"');
  });
});
