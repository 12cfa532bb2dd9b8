import { describe, expect, it } from 'vitest';
import { planHttpRequest } from '../../shared/http-client';
import earlyScript from '../public/early-requests.js?raw';
import { useTasks } from '../state/tasks-store';
import { createHttpApi } from './http-transport';
import type { EarlyRequests } from './early-requests';
import { fetchAdoptingEarly } from './early-requests';

interface FakePage {
  folio?: unknown;
  __folioEarlyRequests?: EarlyRequests;
}

/** Runs public/early-requests.js against a fake page; returns what it fetched and what it left on the page. */
function runEarlyScript(page: FakePage, search: string, stored: string | null) {
  const fetched: { url: string; init: RequestInit }[] = [];
  const fetch = (url: string, init: RequestInit) => {
    fetched.push({ url, init });
    return Promise.resolve(new Response(JSON.stringify({ url }), { status: 200 }));
  };
  const sessionStorage = { getItem: (key: string) => (key === 'folio.token' ? stored : null) };
  // The shipped script's text, run against the fake page as the browser runs it (it is no module).
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the text is the repository's own file
  const script = new Function('window', 'location', 'sessionStorage', 'fetch', 'URLSearchParams', earlyScript) as (...args: unknown[]) => void;
  script(page, { search }, sessionStorage, fetch, URLSearchParams);
  return fetched;
}

describe('early requests (public/early-requests.js)', () => {
  it('asks for exactly what the first screen asks for: the health check and the first task list', () => {
    const fetched = runEarlyScript({}, '?token=tok-0123456789abcdef', null);
    // The task list's first request is the store's default scope.
    const { filter, query, project } = useTasks.getState();
    expect({ filter, query, project }).toEqual({ filter: 'active', query: '', project: 'all' });
    expect(fetched.map((f) => f.url)).toEqual([planHttpRequest('getHealth', {}).url, planHttpRequest('listTasks', { status: 'active' }).url]);
    for (const { init } of fetched) expect(init).toMatchObject({ method: 'GET', headers: { Authorization: 'Bearer tok-0123456789abcdef' } });
  });

  it('takes the token the page keeps after a reload, and sends nothing without one or in the desktop app', () => {
    expect(runEarlyScript({}, '', 'stored-token-0123456789')[0]?.init).toMatchObject({ headers: { Authorization: 'Bearer stored-token-0123456789' } });
    expect(runEarlyScript({}, '', null)).toEqual([]);
    expect(runEarlyScript({ folio: {} }, '?token=tok-0123456789abcdef', null)).toEqual([]);
  });

  it('the HTTP client adopts each early response once, with the same token, and asks the network after', async () => {
    const page: FakePage = {};
    runEarlyScript(page, '?token=tok-0123456789abcdef', null);
    const network: string[] = [];
    const fetch = fetchAdoptingEarly(page, async (url) => {
      network.push(url);
      return new Response(JSON.stringify({ tasks: [], from: 'network' }), { status: 200 });
    });
    const api = createHttpApi({ token: 'tok-0123456789abcdef', fetch });
    expect(await api.client.listTasks({ status: 'active' })).toEqual({ url: '/v1/tasks?status=active' });
    expect(network).toEqual([]);
    await api.client.listTasks({ status: 'active' });
    expect(network).toEqual(['/v1/tasks?status=active']);
    // Another token (another server's page) never takes them.
    const other = createHttpApi({ token: 'other-token-0123456789', fetch });
    await other.client.getHealth({});
    expect(network).toEqual(['/v1/tasks?status=active', '/v1/health']);
  });
});

describe('early requests that arrive after the app started', () => {
  it('are not sent: the app asks for itself', () => {
    const page: FakePage = {};
    fetchAdoptingEarly(page, () => Promise.reject(new Error('not used')));
    expect(runEarlyScript(page, '?token=tok-0123456789abcdef', null)).toEqual([]);
  });
});
