import { describe, expect, it } from 'vitest';
import type { FolioBridge } from '../../shared/transport';
import { extractToken, selectTransport, TOKEN_STORAGE_KEY, type BrowserEnvironment } from './select-transport';

function env(href: string, stored: Record<string, string> = {}, folio?: FolioBridge) {
  const storage = new Map(Object.entries(stored));
  const replaced: string[] = [];
  const e: BrowserEnvironment = {
    folio,
    location: { href },
    history: { replaceState: (_d, _u, url) => replaced.push(String(url)) },
    sessionStorage: { getItem: (k) => storage.get(k) ?? null, setItem: (k, v) => void storage.set(k, v) },
  };
  return { e, storage, replaced };
}

describe('extractToken', () => {
  it('removes only the token from the URL', () => {
    expect(extractToken('http://127.0.0.1:5000/?token=abc&x=1#files')).toEqual({ token: 'abc', cleanedUrl: '/?x=1#files' });
    expect(extractToken('http://127.0.0.1:5000/?token=abc')).toEqual({ token: 'abc', cleanedUrl: '/' });
    expect(extractToken('http://127.0.0.1:5000/')).toEqual({ token: null, cleanedUrl: 'http://127.0.0.1:5000/' });
  });
});

describe('selectTransport', () => {
  it('uses IPC when the preload bridge exists', () => {
    const bridge: FolioBridge = { call: async () => ({ ok: true, value: null }), subscribeRun: () => () => undefined, getPathForFile: () => '' };
    const { e, replaced } = env('http://127.0.0.1:1/?token=abc', {}, bridge);
    expect(selectTransport(e).kind).toBe('ipc');
    expect(replaced).toEqual([]);
  });

  it('takes the token from the URL on first load, stores it and hides it from the address bar', () => {
    const { e, storage, replaced } = env('http://127.0.0.1:1/?token=abc');
    expect(selectTransport(e).kind).toBe('http');
    expect(storage.get(TOKEN_STORAGE_KEY)).toBe('abc');
    expect(replaced).toEqual(['/']);
  });

  it('reuses the stored token after a reload', async () => {
    const { e } = env('http://127.0.0.1:1/', { [TOKEN_STORAGE_KEY]: 'kept' });
    let auth = '';
    const original = globalThis.fetch;
    globalThis.fetch = async (_input: RequestInfo | URL, init?: RequestInit) => {
      auth = (init?.headers as Record<string, string>).Authorization;
      return new Response(JSON.stringify({ tasks: [] }), { status: 200 });
    };
    try {
      await selectTransport(e).client.listTasks({});
    } finally {
      globalThis.fetch = original;
    }
    expect(auth).toBe('Bearer kept');
  });
});
