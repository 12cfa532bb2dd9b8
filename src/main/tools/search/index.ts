// Runs one query against the configured backend: the request, the HTTP call, the parse.
import { SEARCH_BACKENDS } from '../../../shared/contract/search-settings';
import { BACKEND_LABELS, SEARCH_BACKEND_IMPLS } from './backends';
import { fetchSearchJson } from './http';
import type { OutboundAudit } from '../../net/outbound-audit';
import { type SearchConfig, SearchError, type SearchHit } from './types';

export { SearchError, type SearchConfig, type SearchHit } from './types';

export interface RunSearchOptions {
  /** Who the request is charged to (the team service's audit rows); null on the desktop. */
  outbound: OutboundAudit | null;
  signal?: AbortSignal;
  timeoutMs?: number;
}

export async function runSearch(config: SearchConfig, query: string, count: number, opts: RunSearchOptions): Promise<SearchHit[]> {
  const impl = SEARCH_BACKEND_IMPLS[config.backend];
  const label = BACKEND_LABELS[config.backend];
  const endpoint = config.url ?? impl.defaultUrl;
  if (endpoint === null) throw new SearchError('not_configured', `${label} needs the URL of its instance: set it in Settings → Web search.`);
  const keyEnv = config.apiKeyEnv ?? SEARCH_BACKENDS[config.backend].defaultKeyEnv;
  if (keyEnv !== null && !config.apiKey) {
    throw new SearchError('not_configured', `${label} needs an API key and none is stored under ${keyEnv}: the person must add it in Settings → Web search.`);
  }
  const { url, init } = impl.request({ query, count }, config, endpoint);
  const body = await fetchSearchJson(url, init, {
    outbound: opts.outbound,
    signal: opts.signal,
    timeoutMs: opts.timeoutMs,
    backendLabel: label,
    keyLabel: keyEnv ? `the ${label} key (${keyEnv})` : `the ${label} URL`,
  });
  return impl.parse(body, count);
}
