// The deck preview's report header, rendered to HTML (no DOM needed): a person must see whether the
// report was read back from the rendered slides or only estimated.
import { renderToStaticMarkup } from 'react-dom/server';
import { beforeAll, describe, expect, it } from 'vitest';
import { applyLanguageSetting, initI18n } from '../../i18n';
import en from '../../i18n/locales/en.json';
import { type DeckSpec, type QualityReport, validateDeckSpec } from '../../../shared/specs/deck';
import { DeckPreview } from './DeckPreview';

const checkedSpec = validateDeckSpec({ title: 'T', slides: [{ layout: 'title', title: 'T' }] });
if (!checkedSpec.ok) throw new Error(checkedSpec.errors.join('; '));
const spec: DeckSpec = checkedSpec.spec;
const base: QualityReport = { slides: [{ index: 0, output_slides: [1], issues: [] }], summary: { slides_in: 1, slides_out: 1, issues: 0 } };

const badge = (mode: string, text: string): string => `data-mode="${mode}">${text}</span>`;
const render = (report: QualityReport): string => renderToStaticMarkup(<DeckPreview taskId="t" spec={spec} report={report} plan={null} />);

describe('DeckPreview report header', () => {
  beforeAll(async () => {
    await initI18n();
    await applyLanguageSetting('en');
  });

  it('says the report was verified against the rendered slides', () => {
    const html = render({ ...base, checked: { mode: 'rendered' } });
    expect(html).toContain(badge('rendered', en.preview.checkedRendered));
  });

  it('says an estimate is one, with the reason on hover, and treats reports from before the check as estimates', () => {
    const html = render({ ...base, checked: { mode: 'estimated', reason: 'LibreOffice not installed' } });
    expect(html).toContain(`title="${en.preview.checkedEstimatedWhy.replace('{{reason}}', 'LibreOffice not installed')}"`);
    expect(html).toContain(badge('estimated', en.preview.checkedEstimated));
    expect(render(base)).toContain(badge('estimated', en.preview.checkedEstimated));
  });
});
