// Web search settings: which backend `web_search` asks, where, and the name of the key
// variable. The key itself lives in the key store (setApiKey) and never crosses to the renderer.
import { z } from 'zod';

export const SearchBackend = z.enum(['searxng', 'brave', 'tavily', 'bing']);
export type SearchBackend = z.infer<typeof SearchBackend>;

/** Per backend: whether it needs a URL (a self-hosted instance) and the key variable it reads by default. */
export const SEARCH_BACKENDS: Record<SearchBackend, { needsUrl: boolean; defaultKeyEnv: string | null }> = {
  searxng: { needsUrl: true, defaultKeyEnv: null },
  brave: { needsUrl: false, defaultKeyEnv: 'BRAVE_API_KEY' },
  tavily: { needsUrl: false, defaultKeyEnv: 'TAVILY_API_KEY' },
  bing: { needsUrl: false, defaultKeyEnv: 'BING_SEARCH_KEY' },
};

const KeyEnv = z.string().regex(/^[A-Z][A-Z0-9_]{0,99}$/, 'expected an environment variable name like BRAVE_API_KEY');
const BackendUrl = z
  .string()
  .max(2000)
  .url()
  .refine((u) => /^https?:\/\//iu.test(u), 'expected an http:// or https:// URL');

/** What `PATCH /v1/settings {"search": …}` accepts; null turns web search off. */
export const SearchSettingsInput = z
  .strictObject({ backend: SearchBackend, url: BackendUrl.optional(), api_key_env: KeyEnv.optional() })
  .refine((s) => !SEARCH_BACKENDS[s.backend].needsUrl || s.url !== undefined, { message: 'this backend needs the URL of its instance', path: ['url'] });
export type SearchSettingsInput = z.infer<typeof SearchSettingsInput>;

/** What Settings reports: the stored choice and whether a key is available (never the key). */
export const SearchSettings = z.object({
  backend: SearchBackend,
  url: z.string().nullable(),
  api_key_env: z.string().nullable(),
  has_key: z.boolean(),
});
export type SearchSettings = z.infer<typeof SearchSettings>;

/** One test query's outcome, for the Settings "Test" button. */
export const SearchTestReport = z.object({
  ok: z.boolean(),
  message: z.string().nullable(),
  results: z.array(z.object({ title: z.string(), url: z.string() })),
});
export type SearchTestReport = z.infer<typeof SearchTestReport>;
