// API keys: the environment wins (so CI and power users never touch the store), then <data>/keys.json.
// The file is owner-only (0600) and written atomically; the Electron root can plug in safeStorage
// through `codec` so keys are encrypted at rest. Nothing here logs a key or puts one in an error.
import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { ValidationError } from '../../shared/errors';
import { EnvName, type ModelProfile } from './profile-schema';
import { operatorKey } from './operator-models';

export interface KeyStore {
  get(env: string): string | undefined;
  /** Stores a key; an empty key removes it. */
  set(env: string, key: string): void;
  has(env: string): boolean;
}

/**
 * A key store that answers with `brought` first (the keys a team-service request brought, by
 * variable name: used for that request and its runs, never stored); storing goes to `inner`.
 */
export function withBroughtKeys(inner: KeyStore, brought: ReadonlyMap<string, string> | null): KeyStore {
  if (brought === null || brought.size === 0) return inner;
  const get = (env: string) => brought.get(env) ?? inner.get(env);
  return { get, has: (env) => get(env) !== undefined, set: (env, key) => inner.set(env, key) };
}

/** Turns a key into what is written to disk and back (e.g. safeStorage + base64). */
export interface KeyCodec {
  encode(plain: string): string;
  decode(stored: string): string;
}

const identity: KeyCodec = { encode: (s) => s, decode: (s) => s };

export function keyFilePath(dataDir: string): string {
  return join(dataDir, 'keys.json');
}

/** The file's entries as stored (encoded); an absent or corrupt file holds none. */
function readKeyFile(file: string): Record<string, string> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return {};
  }
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return {};
    return Object.fromEntries(Object.entries(parsed).filter((e): e is [string, string] => typeof e[1] === 'string'));
  } catch {
    // A corrupt file must not take the app down; the next `set` rewrites it.
    return {};
  }
}

/** Every key the file holds, decoded (what logs are scrubbed of); one that does not decode is left out. */
export function storedKeyValues(dataDir: string, codec: KeyCodec = identity): string[] {
  const values: string[] = [];
  for (const stored of Object.values(readKeyFile(keyFilePath(dataDir)))) {
    try {
      const key = codec.decode(stored);
      if (key !== '') values.push(key);
    } catch {
      // Sealed under a key-encryption key this worker does not have: it cannot reach a log from here either.
    }
  }
  return values;
}

export function createFileKeyStore(dataDir: string, codec: KeyCodec = identity): KeyStore {
  const file = keyFilePath(dataDir);
  const readAll = (): Record<string, string> => readKeyFile(file);

  const writeAll = (entries: Record<string, string>): void => {
    mkdirSync(dataDir, { recursive: true });
    const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    writeFileSync(tmp, JSON.stringify(entries, null, 2) + '\n', { mode: 0o600 });
    // The mode given to writeFileSync is masked by umask; chmod makes 0600 certain.
    chmodSync(tmp, 0o600);
    renameSync(tmp, file);
    chmodSync(file, 0o600);
  };

  const get = (env: string): string | undefined => {
    const stored = readAll()[env];
    if (stored === undefined) return undefined;
    try {
      const key = codec.decode(stored);
      return key === '' ? undefined : key;
    } catch {
      // Undecodable (e.g. encrypted on another machine): treat as absent rather than leak or crash.
      return undefined;
    }
  };

  return {
    get,
    has: (env) => get(env) !== undefined,
    set(env, key) {
      if (!EnvName.safeParse(env).success) throw new ValidationError(`Not an environment variable name: ${env.slice(0, 100)}`);
      const entries = readAll();
      const trimmed = key.trim();
      if (trimmed === '') delete entries[env];
      else entries[env] = codec.encode(trimmed);
      writeAll(entries);
    },
  };
}

/**
 * The key for a profile: the environment variable first, then the store. '' for profiles that need
 * no key (api_key_env null); undefined when one is needed and none is available.
 */
export function resolveApiKey(
  profile: Pick<ModelProfile, 'api_key_env'> & { source?: ModelProfile['source'] },
  keyStore: KeyStore,
  env: Record<string, string | undefined> = process.env,
): string | undefined {
  // An operator's profile takes the operator's key only: a tenant's key of the same name never goes to the operator's provider, nor the reverse.
  if (profile.source === 'operator') return operatorKey({ api_key_env: profile.api_key_env, source: profile.source });
  if (profile.api_key_env === null) return '';
  const fromEnv = env[profile.api_key_env]?.trim();
  if (fromEnv) return fromEnv;
  return keyStore.get(profile.api_key_env);
}

export function hasApiKey(
  profile: Pick<ModelProfile, 'api_key_env'> & { source?: ModelProfile['source'] },
  keyStore: KeyStore,
  env: Record<string, string | undefined> = process.env,
): boolean {
  return resolveApiKey(profile, keyStore, env) !== undefined;
}
