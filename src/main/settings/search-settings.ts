// settings.search: the web search backend the person chose, stored in the settings table
// without the key; the key is in the key store (or the environment) under api_key_env.
import type { OutboundAudit } from '../net/outbound-audit';
import type { ServiceHandlers, SearchSettings, SearchSettingsInput } from '../../shared/contract';
import { SEARCH_BACKENDS, SearchBackend } from '../../shared/contract/search-settings';
import { z } from 'zod';
import type { StorePort } from '../store/port';
import { runSearch, type SearchConfig, SearchError } from '../tools/search';
import { keyFrom, type KeyedSettingContext, storedSetting } from './stored-setting';

const SETTINGS_KEY = 'search';
const TEST_QUERY = 'Folio web search test';

const Stored = z.object({ backend: SearchBackend, url: z.string().nullable(), api_key_env: z.string().nullable() });
type Stored = z.infer<typeof Stored>;

type SearchContext = KeyedSettingContext;
const setting = storedSetting(SETTINGS_KEY, Stored);

/** The stored choice; a damaged value counts as none (the person sets it again in Settings). */
export function readSearchSettings(store: StorePort): Promise<Stored | null> {
  return setting.read(store);
}

export function writeSearchSettings(store: StorePort, input: SearchSettingsInput | null): Promise<void> {
  return setting.write(store, input === null ? null : { backend: input.backend, url: input.url ?? null, api_key_env: input.api_key_env ?? null });
}

/** The variable the configured backend's key is read from (its own default unless the person named one). */
export function searchKeyEnv(stored: Stored | null): string | null {
  if (stored === null) return null;
  return stored.api_key_env ?? SEARCH_BACKENDS[stored.backend].defaultKeyEnv;
}

function keyFor(ctx: SearchContext, stored: Stored): string | null {
  return keyFrom(ctx, searchKeyEnv(stored));
}

/** What Settings shows: never the key, only whether one is available. */
export async function searchInfo(ctx: SearchContext): Promise<SearchSettings | undefined> {
  const stored = await readSearchSettings(ctx.store);
  if (stored === null) return undefined;
  return { backend: stored.backend, url: stored.url, api_key_env: searchKeyEnv(stored), has_key: keyFor(ctx, stored) !== null };
}

/** The backend web_search calls, with its key; null when web search is not set up. */
export async function resolveSearchConfig(ctx: SearchContext): Promise<SearchConfig | null> {
  const stored = await readSearchSettings(ctx.store);
  if (stored === null) return null;
  return { backend: stored.backend, url: stored.url, apiKey: keyFor(ctx, stored), apiKeyEnv: searchKeyEnv(stored) };
}

/** Settings typed in the form and not saved, with the key typed beside them or else the one stored for their variable. */
function unsavedConfig(ctx: SearchContext, input: SearchSettingsInput, typedKey: string | undefined): SearchConfig {
  const stored: Stored = { backend: input.backend, url: input.url ?? null, api_key_env: input.api_key_env ?? null };
  return { backend: stored.backend, url: stored.url, apiKey: typedKey?.trim() || keyFor(ctx, stored), apiKeyEnv: searchKeyEnv(stored) };
}

export function searchHandlers(ctx: SearchContext & { outbound: OutboundAudit | null }): Pick<ServiceHandlers, 'testSearch'> {
  return {
    async testSearch(input) {
      const config = input.search ? unsavedConfig(ctx, input.search, input.key) : await resolveSearchConfig(ctx);
      if (config === null) return { ok: false, message: 'No search backend is configured.', results: [] };
      try {
        const hits = await runSearch(config, input.query ?? TEST_QUERY, 3, { outbound: ctx.outbound });
        return { ok: true, message: null, results: hits.map(({ title, url }) => ({ title, url })) };
      } catch (err) {
        // A failed test is the answer, not a failed call: the form shows why.
        if (err instanceof SearchError) return { ok: false, message: err.message, results: [] };
        throw err;
      }
    },
  };
}
