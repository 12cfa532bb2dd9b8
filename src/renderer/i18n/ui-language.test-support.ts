// Component and helper tests render with i18next set up as the app sets it up (initI18n), in one
// UI language. Each file starts English after this; a describe that switches language mid-test
// (applyLanguageSetting) is put back to English after it, so the next describe starts where it expects.
import { afterAll, beforeAll } from 'vitest';
import { applyLanguageSetting, currentLanguage, i18n, initI18n, languageLoaders, type Language } from './index';
import { ensureLateStrings } from './late-strings';

/** Sets up i18next before the enclosing describe (or file) in `language`, and goes back to English after it. */
export function useUiLanguage(language: Language = 'en'): void {
  beforeAll(async () => {
    await initI18n();
    // Every screen's strings, those of screens opened later (Settings, setup) included.
    await ensureLateStrings({ i18n, languageLoaders, currentLanguage });
    await applyLanguageSetting(language);
  });
  afterAll(async () => {
    await applyLanguageSetting('en');
  });
}
