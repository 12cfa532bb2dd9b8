// settings.embedding: the embedding profile for semantic library search, stored in the
// settings table without the key; the key is in the key store (or the environment) under api_key_env.
// resolveEmbedder() is what library search and the backfill call: null when no profile is set.
import { z } from 'zod';
import type { EmbeddingSettings, EmbeddingSettingsInput, ServiceHandlers } from '../../shared/contract';
import { EMBEDDING_DEFAULT_KEY_ENV } from '../../shared/contract/embedding-settings';
import { createEmbeddingBackfill, type BackfillOptions, type EmbeddingBackfill } from '../library/backfill';
import { createEmbedder, EmbeddingError, type EmbeddingProfile } from '../library/embeddings';
import type { Embedder } from '../library/search';
import type { StorePort } from '../store/port';
import type { OutboundAudit } from '../net/outbound-audit';
import { keyFrom, type KeyedSettingContext, storedSetting } from './stored-setting';

const SETTINGS_KEY = 'embedding';
const TEST_TEXT = 'Folio 检索增强生成 embedding test';

const Stored = z.object({ base_url: z.string(), model: z.string(), api_key_env: z.string().nullable(), dimensions: z.number().int().nullable() });
type Stored = z.infer<typeof Stored>;

/** The settings' context, with who the endpoint's requests are charged to (the team service's audit rows). */
type EmbeddingContext = KeyedSettingContext & { outbound: OutboundAudit | null };
const setting = storedSetting(SETTINGS_KEY, Stored);

/** The stored profile; a damaged value counts as none (the person sets it again in Settings). */
export function readEmbeddingSettings(store: StorePort): Promise<Stored | null> {
  return setting.read(store);
}

function toStored(input: EmbeddingSettingsInput): Stored {
  return { base_url: input.base_url, model: input.model, api_key_env: input.api_key_env ?? null, dimensions: input.dimensions ?? null };
}

export function writeEmbeddingSettings(store: StorePort, input: EmbeddingSettingsInput | null): Promise<void> {
  return setting.write(store, input === null ? null : toStored(input));
}

/** The variable the profile's key is read from; null when no profile is set. */
export function embeddingKeyEnv(stored: Stored | null): string | null {
  return stored === null ? null : (stored.api_key_env ?? EMBEDDING_DEFAULT_KEY_ENV);
}

function keyFor(ctx: EmbeddingContext, stored: Stored): string | null {
  return keyFrom(ctx, embeddingKeyEnv(stored) ?? EMBEDDING_DEFAULT_KEY_ENV);
}

/** What Settings shows: never the key, only whether one is available. */
export async function embeddingInfo(ctx: EmbeddingContext): Promise<EmbeddingSettings | undefined> {
  const stored = await readEmbeddingSettings(ctx.store);
  if (stored === null) return undefined;
  return { base_url: stored.base_url, model: stored.model, dimensions: stored.dimensions, api_key_env: embeddingKeyEnv(stored) ?? EMBEDDING_DEFAULT_KEY_ENV, has_key: keyFor(ctx, stored) !== null };
}

/** The endpoint with its key (local servers such as Ollama need none); null without a profile. */
export async function resolveEmbeddingProfile(ctx: EmbeddingContext): Promise<EmbeddingProfile | null> {
  const stored = await readEmbeddingSettings(ctx.store);
  if (stored === null) return null;
  return { baseUrl: stored.base_url, model: stored.model, apiKey: keyFor(ctx, stored), dimensions: stored.dimensions };
}

/** A profile typed in the form and not saved, with the key typed beside it or else the one stored for its variable. */
function unsavedProfile(ctx: EmbeddingContext, input: EmbeddingSettingsInput, typedKey: string | undefined): EmbeddingProfile {
  const stored = toStored(input);
  return { baseUrl: stored.base_url, model: stored.model, apiKey: typedKey?.trim() || keyFor(ctx, stored), dimensions: stored.dimensions };
}

/** The embedder library search and the backfill use, built from the current settings each call. */
export async function resolveEmbedder(ctx: EmbeddingContext): Promise<Embedder | null> {
  const profile = await resolveEmbeddingProfile(ctx);
  return profile === null ? null : createEmbedder(profile, { outbound: ctx.outbound });
}

/**
 * The core's one backfill: it reads the settings at each pass, so a changed profile needs only a
 * kick() (after updateSettings, after indexing, and once at start-up to resume).
 */
export function createLibraryBackfill(ctx: EmbeddingContext, opts?: BackfillOptions): EmbeddingBackfill {
  return createEmbeddingBackfill(ctx.store, () => resolveEmbedder(ctx), opts);
}

export function embeddingHandlers(ctx: EmbeddingContext): Pick<ServiceHandlers, 'testEmbedding'> {
  return {
    async testEmbedding(input) {
      const profile = input.embedding ? unsavedProfile(ctx, input.embedding, input.key) : await resolveEmbeddingProfile(ctx);
      if (profile === null) return { ok: false, message: 'No embedding profile is configured.', dimensions: null };
      try {
        const [vector] = await createEmbedder(profile, { outbound: ctx.outbound }).embed([TEST_TEXT]);
        return { ok: true, message: null, dimensions: vector?.length ?? null };
      } catch (err) {
        // A failed test is the answer, not a failed call: the form shows why.
        if (err instanceof EmbeddingError) return { ok: false, message: err.message, dimensions: null };
        throw err;
      }
    },
  };
}
