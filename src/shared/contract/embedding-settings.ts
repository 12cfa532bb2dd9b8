// Embedding profile: an OpenAI-compatible /embeddings endpoint for semantic library
// search. The key lives in the key store (setApiKey) under api_key_env and never crosses to the
// renderer, the database, logs or prompts: Settings reports only whether one is available.
import { z } from 'zod';

/** The key variable when the person names none. */
export const EMBEDDING_DEFAULT_KEY_ENV = 'FOLIO_EMBEDDING_API_KEY';

const KeyEnv = z.string().regex(/^[A-Z][A-Z0-9_]{0,99}$/, 'expected an environment variable name like FOLIO_EMBEDDING_API_KEY');
const BaseUrl = z
  .string()
  .trim()
  .max(2000)
  .url()
  .refine((u) => /^https?:\/\//iu.test(u), 'expected an http:// or https:// URL');

/** What `PATCH /v1/settings {"embedding": …}` accepts; null turns semantic search off. */
export const EmbeddingSettingsInput = z.strictObject({
  /** The API base, e.g. https://api.openai.com/v1 (requests go to {base_url}/embeddings). */
  base_url: BaseUrl,
  model: z.string().trim().min(1).max(200),
  api_key_env: KeyEnv.optional(),
  /** For models that can shorten their vectors (text-embedding-3-*). */
  dimensions: z.number().int().min(1).max(8192).optional(),
});
export type EmbeddingSettingsInput = z.infer<typeof EmbeddingSettingsInput>;

/** What Settings reports: the stored profile and whether a key is available (never the key). */
export const EmbeddingSettings = z.object({
  base_url: z.string(),
  model: z.string(),
  dimensions: z.number().int().nullable(),
  api_key_env: z.string(),
  has_key: z.boolean(),
});
export type EmbeddingSettings = z.infer<typeof EmbeddingSettings>;

/** One test embedding's outcome, for the Settings "Test" button. */
export const EmbeddingTestReport = z.object({
  ok: z.boolean(),
  message: z.string().nullable(),
  /** The length of the vector the endpoint returned. */
  dimensions: z.number().int().nullable(),
});
export type EmbeddingTestReport = z.infer<typeof EmbeddingTestReport>;
