// The setup screen's test result names the model as a person knows it, never by its profile id.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { useUiLanguage } from '../i18n/ui-language.test-support';
import type { ModelProfileInfo, ProbeReport } from '../../shared/contract';
import { TestResult } from './SetupScreen';

const report = (ok: boolean): ProbeReport => ({
  profile: 'fake-lan.fake-model',
  rows: [
    { check: 'chat', declared: { kind: 'reply' }, observed: { kind: 'replied', text: 'pong' }, ok: true },
    { check: 'parallel_tools', declared: { kind: 'flag', value: true }, observed: { kind: 'tool_calls', count: 1 }, ok },
  ],
  exit_code: 0,
});

describe('setup test result (zh-CN)', () => {
  useUiLanguage('zh-CN');

  it("names the model by its profile's name", () => {
    const profiles = [{ id: 'fake-lan.fake-model', name: 'Fake LAN 模型', provider: 'fake-lan', model: 'fake-model' }] as ModelProfileInfo[];
    const html = renderToStaticMarkup(<TestResult state={{ status: 'done', report: report(true) }} profiles={profiles} />);
    expect(html).toContain('可以使用：Fake LAN 模型已回复。');
    expect(html).not.toContain('fake-lan.fake-model');
  });

  it('without the profile loaded yet, shows the model part of the id, not the id', () => {
    const html = renderToStaticMarkup(<TestResult state={{ status: 'done', report: report(false) }} profiles={[]} />);
    expect(html).toContain('fake-model');
    expect(html).not.toContain('fake-lan.fake-model');
  });
});

describe('setup test result for a provider added in the app (zh-CN)', () => {
  useUiLanguage('zh-CN');

  // Such a profile's name is only the model id; the person named the provider, and that is the name they know.
  it('names the model by the provider name the person gave', () => {
    const profiles = [{ id: 'custom.fake-model', name: 'fake-model', provider: '本地模型', model: 'fake-model' }] as ModelProfileInfo[];
    const html = renderToStaticMarkup(<TestResult state={{ status: 'done', report: { ...report(true), profile: 'custom.fake-model' } }} profiles={profiles} />);
    expect(html).toContain('可以使用：本地模型已回复。');
  });
});
