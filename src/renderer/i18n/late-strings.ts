// The strings of screens opened later (Settings, setup: a probe's findings) stay out of the first
// chunk in every language: this module loads with the first such screen, adds them in English
// (every key's fallback) and in the language shown, and from then on in any language chosen.
import { loadLateStrings } from '../../shared/locales/shared-strings';
import { currentLanguage, i18n, languageLoaders, type Language } from './index';

async function addLateStrings(lng: Language): Promise<void> {
  // i18next may have been started again since (tests do): look, rather than remember.
  if (i18n.getResource(lng, 'translation', 'probeReport.title') !== undefined) return;
  i18n.addResourceBundle(lng, 'translation', await loadLateStrings(lng), true, true);
}

export async function ensureLateStrings(): Promise<void> {
  if (!languageLoaders.includes(addLateStrings)) languageLoaders.push(addLateStrings);
  await Promise.all([addLateStrings('en'), addLateStrings(currentLanguage())]);
}
