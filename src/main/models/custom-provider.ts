// A provider added from the UI by base URL: one user profile file, `<data>/models/<slug>.yaml`,
// written atomically, with the key in the key store under a generated variable name (never in the
// yaml). The fields written are documented in config/models/README.md ("Providers added in the app").
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { yamlLib } from '../config/yaml';
import { FolioError, ValidationError } from '../../shared/errors';
import type { KeyStore } from './keys';
import { EnvName, ProfileFields, ProfileKey } from './profile-schema';

/** The first line of every file Folio writes here; only such a file is ever replaced. */
export const CUSTOM_PROVIDER_MARKER = '# Written by Folio (Settings → Models → Add a provider).';

/** Used when the server does not say how long a context its model takes; edit the file to raise it. */
export const DEFAULT_CUSTOM_CONTEXT = 32_768;
const MAX_DEFAULT_OUTPUT = 8_192;

export interface CustomProviderSpec {
  name: string;
  apiBase: string;
  apiKey?: string;
  models: { id: string; context_length: number | null }[];
}

export interface WrittenProvider {
  provider: string;
  file: string;
  api_key_env: string | null;
  profile_ids: string[];
}

/** `My LAN box!` → `my-lan-box`; a shipped provider's stem gets `-custom` so it never shadows the shipped file. */
export function providerSlug(name: string, builtinStems: ReadonlySet<string>): string {
  const base =
    name
      .normalize('NFKD')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 40)
      .replace(/-+$/, '') || 'custom';
  return builtinStems.has(base) ? `${base}-custom` : base;
}

/** `FOLIO_<SLUG>_API_KEY`: the name the key is stored under, unique per provider file. */
export function customKeyEnv(slug: string): string {
  return EnvName.parse(`FOLIO_${slug.toUpperCase().replace(/-/g, '_')}_API_KEY`);
}

/** Model ids (`meta-llama/Llama-3-8B`, `qwen3:8b`) become profile keys (`meta-llama-Llama-3-8B`, `qwen3-8b`). */
export function profileKeyFor(modelId: string, taken: Set<string>): string {
  const base = modelId.replace(/[^A-Za-z0-9_-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60) || 'model';
  let key = base;
  for (let n = 2; taken.has(key); n++) key = `${base}-${n}`;
  taken.add(ProfileKey.parse(key));
  return key;
}

export function writeCustomProvider(userDir: string, builtinStems: ReadonlySet<string>, keys: KeyStore, spec: CustomProviderSpec): WrittenProvider {
  const slug = providerSlug(spec.name, builtinStems);
  const file = join(userDir, `${slug}.yaml`);
  if (existsSync(file) && !readFileSync(file, 'utf8').startsWith(CUSTOM_PROVIDER_MARKER)) {
    throw new FolioError('conflict', `${file} already exists and was not written by Folio; choose another provider name`);
  }
  const apiKey = spec.apiKey?.trim() ?? '';
  const env = apiKey === '' ? null : customKeyEnv(slug);

  const taken = new Set<string>();
  const profiles: Record<string, Record<string, unknown>> = {};
  for (const model of spec.models) {
    const maxContext = model.context_length ?? DEFAULT_CUSTOM_CONTEXT;
    profiles[profileKeyFor(model.id, taken)] = {
      name: model.id,
      model: model.id,
      role: 'chat',
      max_context: maxContext,
      max_output: Math.min(MAX_DEFAULT_OUTPUT, Math.floor(maxContext / 4)),
    };
  }
  if (Object.keys(profiles).length === 0) throw new ValidationError('Choose at least one model');
  const fileFields = { provider: spec.name, api_base: spec.apiBase, api_key_env: env };
  // Checked with the loader's own schema before anything is written, so the file always loads.
  for (const [key, fields] of Object.entries(profiles)) {
    const result = ProfileFields.safeParse({ ...fileFields, ...fields });
    if (!result.success) throw new ValidationError(`${key}: ${result.error.issues[0]?.message ?? 'invalid profile'}`);
  }

  const doc = new (yamlLib().Document)({ ...fileFields, profiles });
  doc.commentBefore = [
    CUSTOM_PROVIDER_MARKER.slice(1),
    env ? ` The key is in Folio's key store under ${env}, never in this file.` : ' This server needs no key.',
    ' max_context is what the server reported, else a safe default: raise it if the model takes more.',
  ].join('\n');

  // The key first: a stored key without a profile is harmless, a profile without its key is not.
  if (env) keys.set(env, apiKey);
  mkdirSync(userDir, { recursive: true });
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    writeFileSync(tmp, doc.toString({ lineWidth: 0 }));
    renameSync(tmp, file);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
  return { provider: spec.name, file, api_key_env: env, profile_ids: Object.keys(profiles).map((k) => `${slug}.${k}`) };
}
