// One build serves both modes: inside Electron the preload exposes `window.folio`; in a browser the
// page was opened as `http://127.0.0.1:<port>/?token=...` by `folio serve`.
import type { FolioBridge } from '../../shared/transport';
import type { FolioApi } from './folio-api';
import { createHttpApi } from './http-transport';
import { createIpcApi } from './ipc-transport';

export const TOKEN_STORAGE_KEY = 'folio.token';

/** Splits the token out of a page URL; the cleaned URL keeps every other query field and the hash. */
export function extractToken(href: string): { token: string | null; cleanedUrl: string } {
  const url = new URL(href);
  const token = url.searchParams.get('token');
  if (token === null) return { token: null, cleanedUrl: href };
  url.searchParams.delete('token');
  return { token, cleanedUrl: url.pathname + url.search + url.hash };
}

export interface BrowserEnvironment {
  folio?: FolioBridge;
  location: { href: string };
  history: { replaceState(data: unknown, unused: string, url?: string): void };
  sessionStorage: Pick<Storage, 'getItem' | 'setItem'>;
}

export function selectTransport(env: BrowserEnvironment): FolioApi {
  if (env.folio) return createIpcApi(env.folio);
  const { token, cleanedUrl } = extractToken(env.location.href);
  if (token !== null) {
    env.sessionStorage.setItem(TOKEN_STORAGE_KEY, token);
    // Keep the token out of the address bar, history and anything the user copies or shares.
    env.history.replaceState(null, '', cleanedUrl);
  }
  return createHttpApi({ token: token ?? env.sessionStorage.getItem(TOKEN_STORAGE_KEY) ?? '' });
}

/** Whether calls can be authorised: the desktop bridge, or a web page that was given a token. */
export function hasAccessToken(env: Pick<BrowserEnvironment, 'folio' | 'sessionStorage'>): boolean {
  return env.folio !== undefined || Boolean(env.sessionStorage.getItem(TOKEN_STORAGE_KEY));
}
