// The one block every Test and Save button answers with (setup, Settings' services and models):
// a pass as the form shows it, a typed error explained in the person's language, or the form's own
// headline with the server's words, inline in English and only to copy in Chinese.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { latinSentences, visibleText } from '../../shared/latin-text.test-support';
import { useUiLanguage } from '../i18n/ui-language.test-support';
import { markingEdited } from '../state/use-save-and-test';
import { errorOutcome, TestOutcome } from './TestOutcome';

const refused = { code: 'provider_error', name: 'ProviderKeyRejectedError', message: 'The provider rejected the API key (401) for profile deepseek.chat' } as const;

describe('TestOutcome in Chinese', () => {
  useUiLanguage('zh-CN');

  it('explains a refused key in Chinese; the server words are only offered to copy', () => {
    const html = renderToStaticMarkup(<TestOutcome outcome={errorOutcome(refused)} testId="setup-test-result" />);
    expect(html).toMatch(/^<div class="inline-error" role="alert" data-testid="setup-test-result" data-ok="false">/u);
    expect(html).toContain('模型服务拒绝了这个API密钥');
    expect(latinSentences(html)).toEqual([]);
    expect(html).toContain('data-testid="copy-original"');
  });

  it("heads a failure with the form's own words and offers the server's only to copy", () => {
    const html = renderToStaticMarkup(<TestOutcome outcome={{ kind: 'failed', headline: '测试失败。', detail: 'HTTP 502' }} testId="x-test-error" />);
    expect(html).toMatch(/<strong>测试失败。<\/strong> <button[^>]*data-testid="copy-original"/u);
    expect(visibleText(html)).not.toContain('HTTP 502');
  });

  it('shows a pass as the form gives it, and nothing without an outcome', () => {
    expect(renderToStaticMarkup(<TestOutcome outcome={{ kind: 'passed', view: <b>fine</b> }} testId="x" />)).toBe('<b>fine</b>');
    expect(renderToStaticMarkup(<TestOutcome outcome={errorOutcome(null)} testId="x" />)).toBe('');
  });
});

describe('TestOutcome in English', () => {
  useUiLanguage('en');

  it("puts the server's words inline after the headline", () => {
    const html = renderToStaticMarkup(<TestOutcome outcome={{ kind: 'failed', headline: 'The test failed.', detail: 'HTTP 502' }} testId="x" />);
    expect(html).toContain('<strong>The test failed.</strong> <span>HTTP 502</span>');
  });
});

describe('markingEdited', () => {
  it('sets the value, then marks the form edited', () => {
    const calls: string[] = [];
    const handler = markingEdited<string>((value) => calls.push(`set ${value}`), () => calls.push('edited'));
    handler('https://a.example/v1');
    expect(calls).toEqual(['set https://a.example/v1', 'edited']);
  });
});
