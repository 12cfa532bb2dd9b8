// The chat's strings: the `chat` locale in src/shared/locales/chat (English and Simplified Chinese),
// read with i18next as the app reads its own. They sit in src/shared because the CLI may not import
// the renderer and the renderer may not import main; shared JSON is data both layers can read.
import { createInstance, type TFunction } from 'i18next';
import { loadLateStrings } from '../../../shared/locales/late-strings';
import { plainTranslate } from '../../../shared/locales/plain-spacing';
import { loadSharedStringsZhCN, sharedStringsEn } from '../../../shared/locales/shared-strings';
import en from '../../../shared/locales/chat/en.json';
import zhCN from '../../../shared/locales/chat/zh-CN.json';

export type ChatLanguage = 'en' | 'zh-CN';
export type Translate = (key: string, vars?: Record<string, string | number>) => string;

/** The app's language setting wins; 'system' follows the locale variables, as a terminal program does. */
export function resolveChatLanguage(setting: 'system' | ChatLanguage | undefined, env: NodeJS.ProcessEnv): ChatLanguage {
  if (setting === 'en' || setting === 'zh-CN') return setting;
  const locale = env.LC_ALL || env.LC_MESSAGES || env.LANG || '';
  return locale.toLowerCase().startsWith('zh') ? 'zh-CN' : 'en';
}

/** The strings of one locale (the chat's unless named), in both languages. */
export type LocaleStrings = Record<ChatLanguage, object>;

/**
 * A locale's strings with the app's shared ones beside them (the error catalog, the reports' wording).
 * A terminal draws no gap between Chinese and Latin, so the gap the catalogs leave to the page's
 * layout is typed in here.
 */
export async function createTranslate(language: ChatLanguage, strings: LocaleStrings = { en, 'zh-CN': zhCN }): Promise<Translate> {
  const i18n = createInstance();
  const [sharedZhCN, lateEn, lateZhCN] = await Promise.all([loadSharedStringsZhCN(), loadLateStrings('en'), loadLateStrings('zh-CN')]);
  await i18n.init({
    resources: { en: { translation: { ...strings.en, ...sharedStringsEn, ...lateEn } }, 'zh-CN': { translation: { ...strings['zh-CN'], ...sharedZhCN, ...lateZhCN } } },
    lng: language,
    fallbackLng: 'en',
    interpolation: { escapeValue: false }, // a terminal, not HTML
    returnNull: false,
  });
  const t: TFunction = i18n.t.bind(i18n);
  const templateOf = (key: string) => {
    const template: unknown = i18n.getResource(language, 'translation', key) ?? i18n.getResource('en', 'translation', key);
    return typeof template === 'string' ? template : undefined;
  };
  return plainTranslate((key, vars: Record<string, string | number>) => t(key, vars), templateOf);
}
