// What each error means to a person, held once for every surface that shows one (the app and the
// CLI): `errorKind` names the kind of error ("Model provider error"), `errorHelp` says what happened
// and what to do. Both are keyed by error code, and `errorHelp` also by the error classes that name a
// cause more precisely than their code. The catalog's type makes a missing explanation a compile
// error in each language where it is loaded (shared-strings.ts); this module holds no strings, so
// code that only needs a key does not pull the catalog into its chunk.
import type { ErrorCode } from '../folio-error';

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

function isNamedError(name: string | undefined): name is NamedError {
  return (namedErrors as readonly (string | undefined)[]).includes(name);
}

/** The key of an error's explanation: its class's where that names the cause, else its code's. */
export function errorHelpKey(error: { name?: string | undefined; code: string }): string {
  return isNamedError(error.name) ? `errorHelp.${error.name}` : `errorHelp.${error.code}`;
}
