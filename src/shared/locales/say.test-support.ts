// The shared strings as the app and the CLI read them (i18next, English the fallback), in one
// language: for tests of code that words something with a `Say`.
import { createInstance } from 'i18next';
import type { Say } from './say';
import { loadLateStrings } from './late-strings';
import { loadSharedStringsZhCN, sharedStringsEn } from './shared-strings';

export async function sharedSay(language: 'en' | 'zh-CN'): Promise<Say> {
  const i18n = createInstance();
  await i18n.init({
    resources: {
      en: { translation: { ...sharedStringsEn, ...(await loadLateStrings('en')) } },
      'zh-CN': { translation: { ...(await loadSharedStringsZhCN()), ...(await loadLateStrings('zh-CN')) } },
    },
    lng: language,
    fallbackLng: 'en',
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  return (key, values) => i18n.t(key, values);
}
