// The four providers web_search can ask, each one request shape and one zod schema for its answer.
// Shapes from the providers' docs: SearXNG's Search API (GET /search?format=json), Brave Web Search
// (GET /res/v1/web/search, X-Subscription-Token), Tavily (POST /search, bearer key), Bing Web Search
// v7 (GET /v7.0/search, Ocp-Apim-Subscription-Key). Only the fields used are required; the rest pass.
import { z } from 'zod';
import type { SearchBackend } from '../../../shared/contract/search-settings';
import { type SearchBackendImpl, SearchError, type SearchHit } from './types';

/** Brave marks query words with <strong>; SearXNG and Bing sometimes send entities. Snippets are plain text. */
export function plainSnippet(text: string): string {
  return text
    .replace(/<[^>]*>/gu, '')
    .replace(/&(amp|lt|gt|quot|#39|apos|nbsp);/gu, (_m, name: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", apos: "'", nbsp: ' ' })[name] ?? '')
    .replace(/\s+/gu, ' ')
    .trim();
}

function parseWith<T extends z.ZodType>(schema: T, body: unknown, label: string): z.output<T> {
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue ? `${issue.path.join('.') || '(top level)'}: ${issue.message}` : 'unexpected shape';
    throw new SearchError('malformed', `${label} sent an answer that is not a search result list (${where}).`);
  }
  return parsed.data;
}

/** Keeps http(s) results with a URL, one per URL, at most `count`. */
function hits(items: { title?: string | null; url: string; snippet?: string | null }[], count: number): SearchHit[] {
  const out: SearchHit[] = [];
  const seen = new Set<string>();
  for (const item of items) {
    if (out.length >= count) break;
    if (!/^https?:\/\//iu.test(item.url) || seen.has(item.url)) continue;
    seen.add(item.url);
    out.push({ title: plainSnippet(item.title ?? '') || item.url, url: item.url, snippet: plainSnippet(item.snippet ?? '') });
  }
  return out;
}

const Text = z.string().nullish();

const SearxngAnswer = z.object({ results: z.array(z.object({ url: z.string(), title: Text, content: Text })) });
const searxng: SearchBackendImpl = {
  defaultUrl: null,
  request({ query }, config, base) {
    const url = new URL('search', base.endsWith('/') ? base : `${base}/`);
    url.searchParams.set('q', query);
    url.searchParams.set('format', 'json');
    // An instance behind a proxy that wants a token gets it as a bearer key, when one is configured.
    const auth: Record<string, string> = config.apiKey ? { Authorization: `Bearer ${config.apiKey}` } : {};
    return { url: url.href, init: { method: 'GET', headers: { Accept: 'application/json', ...auth } } };
  },
  parse(body, count) {
    // SearXNG has no result-count parameter: it answers one page (about 20) and the rest is cut here.
    const answer = parseWith(SearxngAnswer, body, 'SearXNG');
    return hits(answer.results.map((r) => ({ title: r.title, url: r.url, snippet: r.content })), count);
  },
};

const BraveAnswer = z.object({ web: z.object({ results: z.array(z.object({ url: z.string(), title: Text, description: Text })) }).optional() });
const brave: SearchBackendImpl = {
  defaultUrl: 'https://api.search.brave.com/res/v1/web/search',
  request({ query, count }, config, endpoint) {
    const url = new URL(endpoint);
    url.searchParams.set('q', query);
    url.searchParams.set('count', String(Math.min(count, 20)));
    return { url: url.href, init: { method: 'GET', headers: { Accept: 'application/json', 'X-Subscription-Token': config.apiKey ?? '' } } };
  },
  parse(body, count) {
    // No `web` section means no web results (e.g. only news matched), not a malformed answer.
    const answer = parseWith(BraveAnswer, body, 'Brave');
    return hits((answer.web?.results ?? []).map((r) => ({ title: r.title, url: r.url, snippet: r.description })), count);
  },
};

const TavilyAnswer = z.object({ results: z.array(z.object({ url: z.string(), title: Text, content: Text })) });
const tavily: SearchBackendImpl = {
  defaultUrl: 'https://api.tavily.com/search',
  request({ query, count }, config, endpoint) {
    return {
      url: endpoint,
      init: {
        method: 'POST',
        headers: { Accept: 'application/json', 'Content-Type': 'application/json', Authorization: `Bearer ${config.apiKey ?? ''}` },
        body: JSON.stringify({ query, max_results: Math.min(count, 20), search_depth: 'basic' }),
      },
    };
  },
  parse(body, count) {
    const answer = parseWith(TavilyAnswer, body, 'Tavily');
    return hits(answer.results.map((r) => ({ title: r.title, url: r.url, snippet: r.content })), count);
  },
};

const BingAnswer = z.object({ webPages: z.object({ value: z.array(z.object({ url: z.string(), name: Text, snippet: Text })) }).optional() });
const bing: SearchBackendImpl = {
  defaultUrl: 'https://api.bing.microsoft.com/v7.0/search',
  request({ query, count }, config, endpoint) {
    const url = new URL(endpoint);
    url.searchParams.set('q', query);
    url.searchParams.set('count', String(Math.min(count, 50)));
    url.searchParams.set('textFormat', 'Raw');
    return { url: url.href, init: { method: 'GET', headers: { Accept: 'application/json', 'Ocp-Apim-Subscription-Key': config.apiKey ?? '' } } };
  },
  parse(body, count) {
    const answer = parseWith(BingAnswer, body, 'Bing');
    return hits((answer.webPages?.value ?? []).map((r) => ({ title: r.name, url: r.url, snippet: r.snippet })), count);
  },
};

export const SEARCH_BACKEND_IMPLS: Record<SearchBackend, SearchBackendImpl> = { searxng, brave, tavily, bing };

export const BACKEND_LABELS: Record<SearchBackend, string> = { searxng: 'SearXNG', brave: 'Brave Search', tavily: 'Tavily', bing: 'Bing Web Search' };
