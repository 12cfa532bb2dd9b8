// What every search backend turns its provider's answer into, and the one error type they throw.
import type { SearchBackend } from '../../../shared/contract/search-settings';
import { ToolError } from '../types';

export interface SearchHit {
  title: string;
  url: string;
  snippet: string;
}

/** A configured backend, ready to call: the key (if any) already resolved from the key store or environment. */
export interface SearchConfig {
  backend: SearchBackend;
  /** SearXNG: the instance's base URL; the others: their endpoint, the provider's own by default. */
  url: string | null;
  apiKey: string | null;
  /** The variable the key was read from, named in errors (never the key). */
  apiKeyEnv: string | null;
}

export type SearchErrorKind = 'not_configured' | 'auth' | 'rate_limited' | 'http' | 'malformed' | 'timeout' | 'network';

/**
 * A search that failed. It is a ToolError, so web_search hands it to the model as data; `kind` lets
 * the Settings test and the tests tell the causes apart without parsing messages.
 */
export class SearchError extends ToolError {
  readonly kind: SearchErrorKind;
  constructor(kind: SearchErrorKind, message: string) {
    super(message);
    this.name = 'SearchError';
    this.kind = kind;
  }
}

export interface SearchRequest {
  query: string;
  count: number;
}

/** One provider: how to ask it and how to read its answer (a zod schema in each backend). */
export interface SearchBackendImpl {
  /** The provider's endpoint when the settings give no URL; null when the person must give one. */
  defaultUrl: string | null;
  request(req: SearchRequest, config: SearchConfig, url: string): { url: string; init: RequestInit };
  /** Reads a parsed JSON body; throws SearchError('malformed') when it is not the provider's shape. */
  parse(body: unknown, count: number): SearchHit[];
}
