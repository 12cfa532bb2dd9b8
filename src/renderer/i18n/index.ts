// i18next setup. Language follows the OS/browser unless the user picked one in Settings, and can
// change at runtime without a reload.
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { LocalizedText, UiLanguage } from '../../shared/contract';
import { loadSharedStringsZhCN, sharedStringsEn } from '../../shared/locales/shared-strings';
import en from './locales/en.json';

export type Language = UiLanguage;
export type LanguageSetting = 'system' | Language;

export function resolveLanguage(setting: LanguageSetting, navigatorLanguage: string | undefined): Language {
  if (setting !== 'system') return setting;
  return navigatorLanguage?.toLowerCase().startsWith('zh') ? 'zh-CN' : 'en';
}

function browserLanguage(): string | undefined {
  return typeof navigator === 'undefined' ? undefined : navigator.language;
}

// English is the fallback for every key, so it ships in the first chunk; Chinese loads when it is
// first chosen (the first chunk stays small for the many who never switch). The error catalog and
// the engines' report wording are shared with the CLI, merged in beside the app's own strings.
async function ensureLoaded(lng: Language): Promise<void> {
  if (lng !== 'en' && !i18n.hasResourceBundle(lng, 'translation')) {
    const [{ default: zhCN }, shared] = await Promise.all([import('./locales/zh-CN.json'), loadSharedStringsZhCN()]);
    i18n.addResourceBundle(lng, 'translation', { ...zhCN, ...shared });
  }
  await Promise.all(languageLoaders.map((load) => load(lng)));
}

/** What a later chunk must load before a language is shown (late-strings.ts adds its strings' loader). */
export const languageLoaders: ((lng: Language) => Promise<void>)[] = [];

export async function initI18n(): Promise<void> {
  const lng = resolveLanguage('system', browserLanguage());
  await i18n.use(initReactI18next).init({
    resources: { en: { translation: { ...en, ...sharedStringsEn } } },
    lng: 'en',
    fallbackLng: 'en',
    interpolation: { escapeValue: false }, // React escapes
    returnNull: false,
  });
  await ensureLoaded(lng);
  if (lng !== 'en') await i18n.changeLanguage(lng);
  setDocumentLanguage(lng);
}

function setDocumentLanguage(lng: Language): void {
  if (typeof document !== 'undefined') document.documentElement.lang = lng;
}

export async function applyLanguageSetting(setting: LanguageSetting): Promise<void> {
  const lng = resolveLanguage(setting, browserLanguage());
  await ensureLoaded(lng);
  if (i18n.language !== lng) await i18n.changeLanguage(lng);
  setDocumentLanguage(lng);
}

/** The UI language now shown (i18next may hold a fallback such as `en-US`). */
export function currentLanguage(): Language {
  return i18n.language === 'zh-CN' ? 'zh-CN' : 'en';
}

/** A person-facing text in the UI language now shown. */
export function localized(text: LocalizedText): string {
  return text[currentLanguage()];
}

export { i18n };
