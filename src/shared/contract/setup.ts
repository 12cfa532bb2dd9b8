// The model setup a first run needs (first-run): whether any profile can be used, the providers the
// person can set up, and a custom OpenAI-compatible provider added by base URL.
import { z } from 'zod';
import { TaskMode } from './entities';

/** A provider's base URL as a person types it: http(s), no trailing slash (the SDK appends paths). */
export const ProviderBase = z
  .url({ protocol: /^https?$/, error: 'expected an http(s) URL, e.g. http://127.0.0.1:11434/v1' })
  .max(2048)
  .transform((s) => s.replace(/\/+$/, ''));

export const ProviderKey = z.string().max(500);

export const SetupProvider = z.object({
  /** The provider's name as the profiles say it (`deepseek`, a custom provider's own name). */
  provider: z.string(),
  api_base: z.string(),
  /** null: a key-less (local) server such as Ollama. */
  api_key_env: z.string().nullable(),
  has_key: z.boolean(),
  /** Key-less providers only: whether the server answered just now (null for providers with a key). */
  reachable: z.boolean().nullable(),
  source: z.enum(['builtin', 'user', 'operator']),
  profiles: z.array(z.object({ id: z.string(), name: z.string(), role: z.enum(['chat', 'worker']) })),
});
export type SetupProvider = z.infer<typeof SetupProvider>;

export const SetupStatus = z.object({
  /** A new task of this mode would find a usable model. */
  ready: z.boolean(),
  mode: TaskMode,
  /** Why not, naming the setting to change; null when ready. */
  problem: z.string().nullable(),
  providers: z.array(SetupProvider),
});
export type SetupStatus = z.infer<typeof SetupStatus>;

export const ProviderModel = z.object({
  id: z.string(),
  /** The context window when the server tells it (OpenRouter `context_length`, vLLM `max_model_len`). */
  context_length: z.number().int().positive().nullable(),
});
export type ProviderModel = z.infer<typeof ProviderModel>;

export const CustomProviderInput = z.strictObject({
  /** Shown in the UI; also names the file (`<data>/models/<slug>.yaml`) and the key variable. */
  name: z.string().trim().min(1).max(64),
  api_base: ProviderBase,
  api_key: ProviderKey.optional(),
  models: z.array(z.string().min(1).max(200)).min(1).max(50),
});

export const CustomProviderResult = z.object({
  provider: z.string(),
  /** The profile file written, `<data>/models/<slug>.yaml`. */
  file: z.string(),
  /** The generated variable the key is stored under (null without a key). */
  api_key_env: z.string().nullable(),
  profile_ids: z.array(z.string()),
});
export type CustomProviderResult = z.infer<typeof CustomProviderResult>;
