// The names of every key a run's commands and scripts must never see in their environment: each
// profile's key variable (not just *_API_KEY), the web search backend's and the embedding profile's.
import type { ModelProfile } from '../models';
import { embeddingKeyEnv, readEmbeddingSettings } from '../settings/embedding-settings';
import { readSearchSettings, searchKeyEnv } from '../settings/search-settings';
import type { StorePort } from '../store/port';

export async function secretEnvNames(store: StorePort, profiles: readonly ModelProfile[]): Promise<string[]> {
  const names = profiles.flatMap((p) => (p.api_key_env ? [p.api_key_env] : []));
  const searchEnv = searchKeyEnv(await readSearchSettings(store));
  if (searchEnv) names.push(searchEnv);
  const embeddingEnv = embeddingKeyEnv(await readEmbeddingSettings(store));
  if (embeddingEnv) names.push(embeddingEnv);
  return names;
}
