// i18next setup. Language follows the OS/browser unless the user picked one in Settings, and can
// change at runtime without a reload.
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import en from './locales/en.json';
import zhCN from './locales/zh-CN.json';

export type Language = 'en' | 'zh-CN';
export type LanguageSetting = 'system' | Language;

export function resolveLanguage(setting: LanguageSetting, navigatorLanguage: string | undefined): Language {
  if (setting !== 'system') return setting;
  return navigatorLanguage?.toLowerCase().startsWith('zh') ? 'zh-CN' : 'en';
}

function browserLanguage(): string | undefined {
  return typeof navigator === 'undefined' ? undefined : navigator.language;
}

export async function initI18n(): Promise<void> {
  const lng = resolveLanguage('system', browserLanguage());
  await i18n.use(initReactI18next).init({
    resources: { en: { translation: en }, 'zh-CN': { translation: zhCN } },
    lng,
    fallbackLng: 'en',
    interpolation: { escapeValue: false }, // React escapes
    returnNull: false,
  });
  setDocumentLanguage(lng);
}

function setDocumentLanguage(lng: Language): void {
  if (typeof document !== 'undefined') document.documentElement.lang = lng;
}

export async function applyLanguageSetting(setting: LanguageSetting): Promise<void> {
  const lng = resolveLanguage(setting, browserLanguage());
  if (i18n.language !== lng) await i18n.changeLanguage(lng);
  setDocumentLanguage(lng);
}

export { i18n };
