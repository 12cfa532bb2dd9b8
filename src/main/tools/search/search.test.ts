// Each backend against the fake search server (real HTTP, the providers' answer shapes), its parsing
// on hand-made bodies, and every failure returned as a typed SearchError.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FAKE_SEARCH_KEY, type FakeSearch, startFakeSearch } from '../../../../testing/fake-search/server';
import type { SearchBackend } from '../../../shared/contract/search-settings';
import { plainSnippet, SEARCH_BACKEND_IMPLS } from './backends';
import { fetchSearchJson } from './http';
import { runSearch, type SearchConfig, SearchError } from '.';

let fake: FakeSearch;
beforeAll(async () => {
  fake = await startFakeSearch();
});
afterAll(async () => {
  await fake.close();
});
beforeEach(() => fake.reset());

const BACKENDS: SearchBackend[] = ['searxng', 'brave', 'tavily', 'bing'];

function config(backend: SearchBackend, key: string | null = FAKE_SEARCH_KEY): SearchConfig {
  return { backend, url: fake.urls[backend], apiKey: backend === 'searxng' ? null : key, apiKeyEnv: null };
}

async function failure(p: Promise<unknown>): Promise<SearchError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(SearchError);
  return err as SearchError;
}

describe.each(BACKENDS)('%s against the fake backend', (backend) => {
  it('sends the query (and the key in the provider’s header) and reads titles, URLs and snippets', async () => {
    const hits = await runSearch(config(backend), 'heat islands', 2, { outbound: null });
    expect(hits).toEqual([
      { title: 'Result 1 about heat islands', url: `${fake.origin}/pages/1`, snippet: 'Snippet 1: what the web says about heat islands.' },
      { title: 'Result 2 about heat islands', url: `${fake.origin}/pages/2`, snippet: 'Snippet 2: what the web says about heat islands.' },
    ]);
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]).toMatchObject({ backend, query: 'heat islands', keyOk: true });
    if (backend !== 'searxng') expect(fake.requests[0].count).toBe(2);
  });

  it('a 500 is an http error naming the backend', async () => {
    fake.setFault('server_error');
    const err = await failure(runSearch(config(backend), 'q', 3, { outbound: null }));
    expect(err.kind).toBe('http');
    expect(err.message).toMatch(/HTTP 500/u);
  });

  it('malformed JSON is a malformed error, not a crash', async () => {
    fake.setFault('malformed');
    const err = await failure(runSearch(config(backend), 'q', 3, { outbound: null }));
    expect(err.kind).toBe('malformed');
  });

  it('a backend slower than the time limit is a timeout error', async () => {
    fake.setFault('slow', 2_000);
    const started = Date.now();
    const err = await failure(runSearch(config(backend), 'q', 3, { outbound: null, timeoutMs: 200 }));
    expect(err.kind).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(1_500);
  });

  it('a 401 is an auth error that points to Settings', async () => {
    fake.setFault('unauthorized');
    const err = await failure(runSearch(config(backend), 'q', 3, { outbound: null }));
    expect(err.kind).toBe('auth');
    expect(err.message).toMatch(/HTTP 401.*Settings → Web search/u);
  });
});

describe('keys', () => {
  it.each(['brave', 'tavily', 'bing'] as const)('%s with a wrong key gets the provider’s 401, and the key is not in the message', async (backend) => {
    const err = await failure(runSearch(config(backend, 'wrong-key-abc'), 'q', 3, { outbound: null }));
    expect(err.kind).toBe('auth');
    expect(err.message).not.toContain('wrong-key-abc');
  });

  it.each(['brave', 'tavily', 'bing'] as const)('%s without a key fails before any request, naming the variable', async (backend) => {
    const err = await failure(runSearch({ ...config(backend, null), apiKeyEnv: 'MY_SEARCH_KEY' }, 'q', 3, { outbound: null }));
    expect(err.kind).toBe('not_configured');
    expect(err.message).toContain('MY_SEARCH_KEY');
    expect(fake.requests).toHaveLength(0);
  });

  it('SearXNG without a URL is not configured', async () => {
    const err = await failure(runSearch({ backend: 'searxng', url: null, apiKey: null, apiKeyEnv: null }, 'q', 3, { outbound: null }));
    expect(err.kind).toBe('not_configured');
  });
});

describe('SearXNG without the JSON format', () => {
  it('its 403 is explained: the instance must allow format=json', async () => {
    const err = await failure(fetchSearchJson(`${fake.urls.searxng}/search?q=x&format=html`, {}, { outbound: null, backendLabel: 'SearXNG', keyLabel: 'the SearXNG URL' }));
    expect(err.kind).toBe('auth');
    expect(err.message).toMatch(/HTTP 403.*search\.formats in its settings\.yml/u);
  });
});

describe('network errors', () => {
  it('an address nobody listens on is a network error naming the URL setting', async () => {
    const err = await failure(runSearch({ backend: 'searxng', url: 'http://127.0.0.1:9', apiKey: null, apiKeyEnv: null }, 'q', 3, { outbound: null }));
    expect(err.kind).toBe('network');
    expect(err.message).toMatch(/Could not reach SearXNG at http:\/\/127\.0\.0\.1:9.*Settings → Web search/u);
  });
});

describe('parsing', () => {
  it('SearXNG: caps the count itself, drops non-http and repeated URLs, fills a missing title with the URL', () => {
    const body = {
      results: [
        { url: 'https://a.example/1', title: 'A', content: 'one' },
        { url: 'javascript:alert(1)', title: 'bad', content: '' },
        { url: 'https://a.example/1', title: 'A again', content: 'dup' },
        { url: 'https://b.example/', title: null, content: null },
        { url: 'https://c.example/', title: 'C', content: 'three' },
      ],
    };
    expect(SEARCH_BACKEND_IMPLS.searxng.parse(body, 2)).toEqual([
      { title: 'A', url: 'https://a.example/1', snippet: 'one' },
      { title: 'https://b.example/', url: 'https://b.example/', snippet: '' },
    ]);
  });

  it('Brave: no web section means no results; <strong> marks are removed', () => {
    expect(SEARCH_BACKEND_IMPLS.brave.parse({ type: 'search', news: { results: [] } }, 5)).toEqual([]);
    const hits = SEARCH_BACKEND_IMPLS.brave.parse({ web: { results: [{ url: 'https://x.example', title: 'X', description: 'the <strong>heat</strong> &amp; cold' }] } }, 5);
    expect(hits[0].snippet).toBe('the heat & cold');
  });

  it('Bing: reads webPages.value (name, url, snippet); no webPages means no results', () => {
    expect(SEARCH_BACKEND_IMPLS.bing.parse({ _type: 'SearchResponse' }, 5)).toEqual([]);
    expect(SEARCH_BACKEND_IMPLS.bing.parse({ webPages: { value: [{ name: 'N', url: 'https://n.example', snippet: 'S' }] } }, 5)).toEqual([
      { title: 'N', url: 'https://n.example', snippet: 'S' },
    ]);
  });

  it.each([
    ['searxng', { results: 'nope' }],
    ['brave', { web: { results: [{ title: 'no url' }] } }],
    ['tavily', { answer: 'x' }],
    ['bing', { webPages: { value: {} } }],
    ['tavily', null],
  ] as const)('%s: a body of the wrong shape is a malformed SearchError naming the field', (backend, body) => {
    let caught: unknown;
    try {
      SEARCH_BACKEND_IMPLS[backend].parse(body, 5);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(SearchError);
    expect((caught as SearchError).kind).toBe('malformed');
  });

  it('plainSnippet strips tags and decodes the common entities', () => {
    expect(plainSnippet('<b>a</b>&nbsp;&lt;b&gt; &quot;c&quot;\n d')).toBe('a <b> "c" d');
  });
});
