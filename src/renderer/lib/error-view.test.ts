import { describe, expect, it } from 'vitest';
import { useUiLanguage } from '../i18n/ui-language.test-support';
import { applyLanguageSetting, i18n } from '../i18n';
import { namedErrors } from '../../shared/locales/errors';
import type { ErrorInfo } from '../state/notices';
import { errorView } from './error-view';

describe('errors as a person reads them', () => {
  useUiLanguage();

  it('on an English screen shows the server’s own words under the kind of error', async () => {
    await applyLanguageSetting('en');
    const view = errorView({ code: 'provider_error', name: 'ProviderKeyRejectedError', message: 'HTTP 401 from api.deepseek.com: check DEEPSEEK_API_KEY' }, i18n.t, i18n.language);
    expect(view).toEqual({ title: 'Model provider error', text: 'HTTP 401 from api.deepseek.com: check DEEPSEEK_API_KEY', detail: null });
  });

  it('on a Chinese screen says it in Chinese, by the error’s class where it names the cause, and keeps the English only as detail', async () => {
    await applyLanguageSetting('zh-CN');
    const message = 'HTTP 401 from api.deepseek.com: check DEEPSEEK_API_KEY';
    const view = errorView({ code: 'provider_error', name: 'ProviderKeyRejectedError', message }, i18n.t, i18n.language);
    expect(view.title).toBe('模型服务出错');
    expect(view.text).toContain('拒绝了这个API密钥');
    expect(view.detail).toBe(message);
    expect(view.title + view.text).not.toMatch(/[A-Za-z]{4,}/u);
  });

  it('has a Chinese explanation for every error code and an unknown error', async () => {
    await applyLanguageSetting('zh-CN');
    const { errorCodes } = await import('../../shared/folio-error');
    for (const code of [...errorCodes, 'unknown' as const]) {
      const view = errorView({ code, message: 'Something in English' }, i18n.t, i18n.language);
      expect(view.title, code).not.toMatch(/^[\x20-\x7e]+$/u);
      expect(view.text, code).not.toMatch(/^[\x20-\x7e]+$/u);
    }
    for (const name of namedErrors) {
      const view = errorView({ code: 'internal', name, message: 'Something in English' }, i18n.t, i18n.language);
      expect(view.text, name).not.toBe(i18n.t('errorHelp.internal'));
      expect(view.text, name).not.toMatch(/^[\x20-\x7e]+$/u);
    }
    await applyLanguageSetting('en');
  });

  it('never says the title again as the first sentence under it, in either language', async () => {
    const { errorCodes } = await import('../../shared/folio-error');
    const errors: ErrorInfo[] = [...[...errorCodes, 'unknown' as const].map((code) => ({ code, message: '' })), ...namedErrors.map((name) => ({ code: 'internal' as const, name, message: '' }))];
    for (const language of ['zh-CN', 'en'] as const) {
      await applyLanguageSetting(language);
      for (const error of errors) {
        // A Chinese screen explains; an English one shows the server's words, here none, so the explanation.
        const view = errorView({ ...error, message: language === 'en' ? '' : 'Something in English' }, i18n.t, i18n.language);
        const firstSentence = view.text.split(/[。.！!]/u)[0].trim();
        expect(firstSentence, `${language} ${error.code} ${error.name ?? ''}`).not.toBe(view.title);
        expect(view.text.trim(), error.code).not.toBe('');
      }
    }
    await applyLanguageSetting('zh-CN');
    expect(errorView({ code: 'provider_unreachable', message: 'connect ECONNREFUSED 127.0.0.1:9' }, i18n.t, i18n.language)).toMatchObject({ title: '无法连接模型服务', text: '请检查地址和网络。' });
    await applyLanguageSetting('en');
  });

  it('an error class without its own explanation falls back to its code’s', async () => {
    await applyLanguageSetting('zh-CN');
    const view = errorView({ code: 'rate_limited', name: 'FolioError', message: 'fake.main is rate limited by the provider (429)' }, i18n.t, i18n.language);
    expect(view.text).toBe(i18n.t('errorHelp.rate_limited'));
    expect(view.detail).toBe('fake.main is rate limited by the provider (429)');
    await applyLanguageSetting('en');
  });
});
