// Loads model profiles from the shipped config/models/*.yaml and the user's <data>/models/*.yaml.
// Bad user config never throws: the offending file or profile is skipped with a warning that names
// the file and field, and everything else still loads.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, extname, join } from 'node:path';
import { yamlLib } from '../config/yaml';
import type { ConfigWarning } from '../../shared/contract';
import { formatZodError, zodErrorFields } from '../../shared/errors';
import { configWarning, yamlErrorLine } from '../config/config-warning';
import { knownProfileKeys, ModelFile, ProfileFields, ProfileKey, type ModelProfile } from './profile-schema';

export interface ModelProfileDirs {
  builtin: string;
  user?: string;
  /** The team service's operator profiles: a folder or one file; they win over the user's of the same id. */
  operator?: string;
}

export interface LoadedProfiles {
  profiles: ModelProfile[];
  warnings: ConfigWarning[];
}

interface RawProfile {
  id: string;
  stem: string;
  file: string;
  fields: Record<string, unknown>;
}

/** Fields merged one level deep on override, so `price: {input: 1}` keeps the shipped currency. */
const nestedFields = ['price', 'extra_body', 'reasoning_effort_for'] as const;

/**
 * The last load, keyed by the folders and every YAML file's size and times. Profiles are read at
 * the start of every run (twice: the pick, and the key names tools must not see); parsing the YAML
 * and validating each profile was tens of milliseconds of each run's time to its first delta. An
 * edited, added or removed file changes the key, so edits still apply from the next run.
 */
let cache: { key: string; loaded: LoadedProfiles } | null = null;

export function loadModelProfiles(dirs: ModelProfileDirs): LoadedProfiles {
  const key = folderKey(dirs.builtin) + '\n' + (dirs.user === undefined ? '' : folderKey(dirs.user)) + '\n' + (dirs.operator === undefined ? '' : folderKey(dirs.operator));
  if (cache?.key !== key) cache = { key, loaded: readModelProfiles(dirs) };
  // A copy: callers own what they get, as they did when each call parsed the files.
  return structuredClone(cache.loaded);
}

/** What a load depends on: the folder, its YAML files and their size, modification and change times. */
function folderKey(dir: string): string {
  if (/\.ya?ml$/i.test(dir)) {
    try {
      const st = statSync(dir);
      return `${dir}:${st.size}:${st.mtimeMs}:${st.ctimeMs}:${st.ino}`;
    } catch {
      return `${dir}:none`;
    }
  }
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => /\.ya?ml$/i.test(n)).sort();
  } catch {
    return `${dir}:none`;
  }
  const parts = [dir];
  for (const name of names) {
    try {
      const st = statSync(join(dir, name));
      parts.push(`${name}:${st.size}:${st.mtimeMs}:${st.ctimeMs}:${st.ino}`);
    } catch {
      parts.push(`${name}:gone`);
    }
  }
  return parts.join('|');
}

function readModelProfiles(dirs: ModelProfileDirs): LoadedProfiles {
  const warnings: ConfigWarning[] = [];
  const builtinRaw = readProfileDir(dirs.builtin, warnings, { required: true });
  const userRaw = dirs.user === undefined ? [] : readProfileDir(dirs.user, warnings, { required: false });

  const byId = new Map<string, ModelProfile>();
  const builtinFields = new Map<string, Record<string, unknown>>();
  for (const raw of builtinRaw) {
    const profile = validate(raw, 'builtin', warnings);
    if (!profile) continue;
    byId.set(raw.id, profile);
    builtinFields.set(raw.id, raw.fields);
  }
  for (const raw of userRaw) {
    const base = builtinFields.get(raw.id);
    const merged = base === undefined ? raw : { ...raw, fields: mergeFields(base, raw.fields) };
    const profile = validate(merged, 'user', warnings);
    if (profile) byId.set(raw.id, profile);
    else if (byId.has(raw.id)) warnings.push(configWarning(raw.file, { kind: 'override_skipped', profile: raw.id }));
  }
  if (dirs.operator !== undefined) {
    for (const profile of readOperatorProfiles(dirs.operator, warnings)) {
      const own = byId.get(profile.id);
      // A tenant cannot redefine an operator's profile: its base URL would receive the operator's key.
      if (own?.source === 'user') warnings.push(configWarning(own.file, { kind: 'operator_shadows', profile: profile.id }));
      byId.set(profile.id, profile);
    }
  }
  return { profiles: [...byId.values()], warnings };
}

/** The team service's operator profiles (a folder of `*.yaml` files, or one file), validated. */
export function readOperatorProfiles(path: string, warnings: ConfigWarning[]): ModelProfile[] {
  const raws = /\.ya?ml$/i.test(path) ? readProfileFile(path, warnings) : readProfileDir(path, warnings, { required: true });
  return raws.map((raw) => validate(raw, 'operator', warnings)).filter((p): p is ModelProfile => p !== null);
}

function readProfileDir(dir: string, warnings: ConfigWarning[], opts: { required: boolean }): RawProfile[] {
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => /\.ya?ml$/i.test(n)).sort();
  } catch (err) {
    // A user without a models folder is the normal case; a missing shipped folder is a packaging bug.
    if (opts.required) warnings.push(configWarning(dir, { kind: 'profile_folder_unreadable' }, errorMessage(err)));
    return [];
  }
  const out: RawProfile[] = [];
  const seenIds = new Set<string>();
  for (const name of names) {
    const file = join(dir, name);
    for (const raw of readProfileFile(file, warnings)) {
      if (seenIds.has(raw.id)) {
        warnings.push(configWarning(file, { kind: 'defined_twice', profile: raw.id, folder: dir }));
        continue;
      }
      seenIds.add(raw.id);
      out.push(raw);
    }
  }
  return out;
}

function readProfileFile(file: string, warnings: ConfigWarning[]): RawProfile[] {
  const stem = basename(file, extname(file));
  if (!ProfileKey.safeParse(stem).success) {
    warnings.push(configWarning(file, { kind: 'profile_file_name', stem }));
    return [];
  }
  let doc: unknown;
  try {
    doc = yamlLib().parse(readFileSync(file, 'utf8'));
  } catch (err) {
    warnings.push(configWarning(file, { kind: 'invalid_yaml', line: yamlErrorLine(err) }, firstLine(errorMessage(err))));
    return [];
  }
  const parsed = ModelFile.safeParse(doc ?? {});
  if (!parsed.success) {
    warnings.push(configWarning(file, { kind: 'file_invalid', fields: zodErrorFields(parsed.error) }, formatZodError(parsed.error)));
    return [];
  }
  // A field the file level does not take (a `price` for all profiles) would otherwise vanish without
  // a word, and a model the operator offers would then cost nothing against a tenant's money budget.
  for (const unknownKey of Object.keys(isRecord(doc) ? doc : {}).filter((k) => !(k in ModelFile.shape))) {
    warnings.push(configWarning(file, { kind: 'unknown_file_field', field: unknownKey, per_profile: knownProfileKeys.has(unknownKey) }));
  }
  const { profiles, currency, ...fileDefaults } = parsed.data;
  const out: RawProfile[] = [];
  for (const [key, value] of Object.entries(profiles)) {
    const id = `${stem}.${key}`;
    if (!ProfileKey.safeParse(key).success) {
      warnings.push(configWarning(file, { kind: 'profile_key_invalid', key }));
      continue;
    }
    if (!isRecord(value)) {
      warnings.push(configWarning(file, { kind: 'profile_not_mapping', key }));
      continue;
    }
    const fields: Record<string, unknown> = { ...stripUndefined(fileDefaults), ...value };
    if (currency !== undefined && isRecord(fields.price) && fields.price.currency === undefined) {
      fields.price = { ...fields.price, currency };
    }
    for (const unknownKey of Object.keys(value).filter((k) => !knownProfileKeys.has(k))) {
      warnings.push(configWarning(file, { kind: 'unknown_field', profile: id, field: unknownKey }));
    }
    out.push({ id, stem, file, fields });
  }
  return out;
}

function validate(raw: RawProfile, source: ModelProfile['source'], warnings: ConfigWarning[]): ModelProfile | null {
  const result = ProfileFields.safeParse({ provider: raw.stem, ...raw.fields });
  if (!result.success) {
    warnings.push(configWarning(raw.file, { kind: 'profile_invalid', profile: raw.id, fields: zodErrorFields(result.error) }, formatZodError(result.error)));
    return null;
  }
  return { ...result.data, id: raw.id, source, file: raw.file };
}

function mergeFields(base: Record<string, unknown>, override: Record<string, unknown>): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...base, ...override };
  for (const key of nestedFields) {
    const a = base[key];
    const b = override[key];
    if (isRecord(a) && isRecord(b)) merged[key] = { ...a, ...b };
  }
  return merged;
}

function stripUndefined(obj: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(obj).filter(([, v]) => v !== undefined));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function firstLine(s: string): string {
  return s.split('\n')[0] ?? s;
}
