// The strings of screens opened later (Settings, setup: a probe's findings) stay out of the first
// chunk in every language: this module loads with the first such screen, adds them in English
// (every key's fallback) and in the language shown, and from then on in any language chosen. It is
// handed the app's i18next (imports of it from here would split the first chunk's i18next in two).
import type { i18n as I18n } from 'i18next';
import { loadLateStrings } from '../../shared/locales/late-strings';
import type { Language } from './index';

export interface LateStringsTarget {
  i18n: I18n;
  /** What i18n/index.ts calls before a language is shown. */
  languageLoaders: ((lng: Language) => Promise<void>)[];
  currentLanguage: () => Language;
}

let adder: ((lng: Language) => Promise<void>) | null = null;

export async function ensureLateStrings({ i18n, languageLoaders, currentLanguage }: LateStringsTarget): Promise<void> {
  adder ??= async (lng) => {
    // i18next may have been started again since (tests do): look, rather than remember.
    if (i18n.getResource(lng, 'translation', 'probeReport.title') !== undefined) return;
    i18n.addResourceBundle(lng, 'translation', await loadLateStrings(lng), true, true);
  };
  if (!languageLoaders.includes(adder)) languageLoaders.push(adder);
  await Promise.all([adder('en'), adder(currentLanguage())]);
}
