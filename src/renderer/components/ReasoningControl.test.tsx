// The chat header's reasoning picker rendered to HTML: disabled with a reason for a profile that cannot
// reason, and unsupported settings marked for one that can reason only partly.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { useUiLanguage } from '../i18n/ui-language.test-support';
import type { ReasoningMode } from '../../shared/contract';
import { i18n } from '../i18n';
import { applyRunEvent, createLiveRun } from '../state/live-run';
import { ReasoningPicker } from './ReasoningControl';

type Profile = { name: string; reasoning_modes: ReasoningMode[] };
const plain: Profile = { name: 'Plain', reasoning_modes: [] };
const glm: Profile = { name: 'GLM', reasoning_modes: ['none', 'thinking'] };
const deepseek: Profile = { name: 'DeepSeek', reasoning_modes: ['none', 'thinking', 'max'] };

function render(value: ReasoningMode | null, profile: Profile | undefined): string {
  return renderToStaticMarkup(<ReasoningPicker value={value} profile={profile} onChange={() => undefined} />);
}

/** The option as React renders it; labels come from the locale so the test follows its wording. */
function option(value: string, attrs: string, label: string): string {
  return ['<option value="', value, '"', attrs, '>', label, '</option>'].join('');
}

useUiLanguage();

describe('ReasoningPicker', () => {
  it('is not shown for a profile that cannot reason', () => {
    expect(render(null, plain)).toBe('');
  });

  it('keeps a setting chosen before, disabled with the reason, for a profile that cannot reason', () => {
    const html = render('thinking', plain);
    expect(html).toContain(`title="${i18n.t('reasoning.cannotReason', { name: 'Plain' })}"`);
    expect(html).toMatch(/<select[^>]*disabled=""/);
  });

  it('marks the settings a profile cannot honour, keeping a chosen one selectable', () => {
    const max = i18n.t('reasoningModes.max');
    const unsupportedMax = i18n.t('reasoning.notSupported', { mode: max });
    const html = render(null, glm);
    expect(html).toContain(option('max', ' disabled=""', unsupportedMax));
    expect(html).toContain(option('none', '', i18n.t('reasoningModes.none')));
    expect(html).not.toMatch(/<select[^>]*disabled=""/);
    expect(render('max', glm)).toContain(option('max', ' selected=""', unsupportedMax));
    const full = render('thinking', deepseek);
    expect(full).toContain(option('max', '', max));
    expect(full).toContain(option('thinking', ' selected=""', i18n.t('reasoningModes.thinking')));
    // An unknown profile (chosen at run time): every setting is offered.
    expect(render(null, undefined)).not.toContain('disabled');
  });

  it('the run note reaches the live draft as its own item', () => {
    const run = applyRunEvent(createLiveRun('t1', 'r1'), { run_id: 'r1', task_id: 't1', seq: 1, at: 1, type: 'reasoning_ignored', profile: 'x.plain', requested: 'max', applied: 'none' });
    expect(run.items).toEqual([{ kind: 'reasoning_ignored', profile: 'x.plain', requested: 'max', applied: 'none' }]);
  });
});
