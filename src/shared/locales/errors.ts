// What each error means to a person, held once for every surface that shows one (the app and the
// CLI): `errorKind` names the kind of error ("Model provider error"), `errorHelp` says what happened
// and what to do. Both are keyed by error code, and `errorHelp` also by the error classes that name a
// cause more precisely than their code. The types make a missing explanation a compile error in
// each language; English is imported here (it is every screen's fallback), Chinese is loaded on
// demand so the app's first chunk does not carry it.
import type { ErrorCode } from '../folio-error';
import en from './errors/en.json';

/** Error classes whose explanation is more precise than their code's. */
export const namedErrors = [
  'ProviderKeyRejectedError',
  'NotOpenAiCompatibleError',
  'NoUsableModelError',
  'MissingApiKeyError',
  'ProviderUnreachableError',
  'ProviderTimeoutError',
  'PathEscapeError',
] as const;
export type NamedError = (typeof namedErrors)[number];

export interface ErrorCatalog {
  errorKind: Record<ErrorCode | 'unknown', string>;
  errorHelp: Record<ErrorCode | NamedError | 'unknown', string>;
}

export const errorCatalogEn: ErrorCatalog = en;

export async function loadErrorCatalogZhCN(): Promise<ErrorCatalog> {
  const { default: zhCN } = await import('./errors/zh-CN.json');
  return zhCN;
}

function isNamedError(name: string | undefined): name is NamedError {
  return (namedErrors as readonly (string | undefined)[]).includes(name);
}

/** The key of an error's explanation: its class's where that names the cause, else its code's. */
export function errorHelpKey(error: { name?: string | undefined; code: string }): string {
  return isNamedError(error.name) ? `errorHelp.${error.name}` : `errorHelp.${error.code}`;
}
