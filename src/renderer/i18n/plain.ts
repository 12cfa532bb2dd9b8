// Text the browser shows or reads without the page's layout: a tooltip (`title`), an aria label, the
// run announcer. The page draws the Chinese–Latin gap (`text-autospace`); these get it typed in.
import { useTranslation } from 'react-i18next';
import { plainTranslate } from '../../shared/locales/plain-spacing';
import { i18n } from './index';

/** A key's raw template in the current language, so a value used inside a nested key is passed as it is. */
export function templateOf(key: string): string | undefined {
  if (!i18n.isInitialized) return undefined; // i18next adds its resource methods at init
  const template: unknown = i18n.getResource(i18n.language, 'translation', key);
  return typeof template === 'string' ? template : undefined;
}

/** `t` for a plain-text sink: the gap typed at the template's boundaries and a value's edges, values untouched. */
export const plainT = plainTranslate((key: string, values: Record<string, unknown>) => String(i18n.t(key, values)), templateOf);

/** `plainT` for a component that words nothing on the page: it re-renders when the language changes, as `useTranslation` does. */
export function usePlainT(): typeof plainT {
  useTranslation();
  return plainT;
}
