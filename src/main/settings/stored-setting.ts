// A setting that names a service by endpoint and key variable: stored in the settings table as
// validated JSON without the key, the key read from the key store (or the environment) when used.
import type { z } from 'zod';
import { resolveApiKey, type KeyStore } from '../models';
import type { StorePort } from '../store/port';

export interface KeyedSettingContext {
  store: StorePort;
  keys: KeyStore;
  env: NodeJS.ProcessEnv;
}

export interface StoredSetting<T> {
  /** The stored value; a damaged one counts as none (the person sets it again in Settings). */
  read(store: StorePort): Promise<T | null>;
  /** null clears it. */
  write(store: StorePort, value: T | null): Promise<void>;
}

export function storedSetting<S extends z.ZodType>(key: string, schema: S): StoredSetting<z.infer<S>> {
  return {
    async read(store) {
      const parsed = schema.safeParse(await store.settings.get(key));
      return parsed.success ? parsed.data : null;
    },
    async write(store, value) {
      await store.settings.set(key, value === null ? undefined : value);
    },
  };
}

/** The key under `env`, from the key store or the environment; null when there is none. */
export function keyFrom(ctx: KeyedSettingContext, env: string | null): string | null {
  return env === null ? null : (resolveApiKey({ api_key_env: env }, ctx.keys, ctx.env) ?? null);
}
