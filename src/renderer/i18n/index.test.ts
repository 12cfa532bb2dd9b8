// Chinese strings are not in the first chunk: they load when Chinese is chosen, and the switch
// waits for them, so no English flashes in between.
import { describe, expect, it } from 'vitest';
import zhCN from './locales/zh-CN.json';
import { applyLanguageSetting, i18n, initI18n } from '.';

describe('i18n language loading', () => {
  it('starts with English only and loads Chinese when it is chosen', async () => {
    await initI18n();
    await applyLanguageSetting('en');
    expect(i18n.hasResourceBundle('zh-CN', 'translation')).toBe(false);

    await applyLanguageSetting('zh-CN');
    expect(i18n.language).toBe('zh-CN');
    expect(i18n.t('common.loading')).toBe(zhCN.common.loading);

    await applyLanguageSetting('en');
    expect(i18n.t('common.loading')).not.toBe(zhCN.common.loading);
  });
});
