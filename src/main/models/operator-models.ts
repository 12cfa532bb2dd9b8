// Models the operator offers every tenant of the team service (`folio serve --operator-models`):
// profiles read from a folder or one file, their keys from a secrets file or the worker's
// environment. A tenant uses them and cannot change them: an operator profile wins over a tenant's
// of the same id, and its key is bound to the profile, never looked up by a variable name a tenant
// could name beside a URL of its own (a profile, the search or embedding settings).
import { readFileSync, statSync } from 'node:fs';
import { FolioError } from '../../shared/errors';
import type { ConfigWarning } from '../../shared/contract';
import { EnvName, type ModelProfile } from './profile-schema';
import { readOperatorProfiles } from './load-profiles';

export interface OperatorModels {
  /** A folder of `*.yaml` profile files, or one such file. */
  path: string;
  /** The operator's keys by the variable its profiles' `api_key_env` names. */
  keys: ReadonlyMap<string, string>;
  /** What the operator should hear at start: files or fields skipped, a profile without a key or a price. */
  notes: readonly string[];
}

let offered: OperatorModels | null = null;

/** Set once at the start of `folio serve --multi-tenant`; null: no operator models (the desktop). */
export function offerOperatorModels(next: OperatorModels | null): void {
  offered = next;
}

export function operatorModels(): OperatorModels | null {
  return offered;
}

/**
 * An operator profile's key ('' when it needs none); undefined for any other profile or when the
 * operator gave no key for it.
 */
export function operatorKey(profile: Pick<ModelProfile, 'api_key_env' | 'source'>): string | undefined {
  if (profile.source !== 'operator' || offered === null) return undefined;
  if (profile.api_key_env === null) return '';
  return offered.keys.get(profile.api_key_env);
}

/**
 * A secrets file: `NAME=value` lines (blank lines and `#` comments skipped; the value is taken as
 * written, without quotes), as Docker and Kubernetes secrets are mounted, or one JSON object.
 */
export function parseSecretsFile(file: string, text: string): Map<string, string> {
  const keys = new Map<string, string>();
  const trimmed = text.trim();
  if (trimmed.startsWith('{')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(trimmed);
    } catch {
      throw new FolioError('invalid_input', `${file}: not valid JSON (expected {"NAME": "key", …} or NAME=key lines)`);
    }
    for (const [name, value] of Object.entries(parsed as Record<string, unknown>)) {
      if (!EnvName.safeParse(name).success || typeof value !== 'string') throw new FolioError('invalid_input', `${file}: ${name.slice(0, 60)}: expected a variable name and a string`);
      keys.set(name, value.trim());
    }
    return keys;
  }
  for (const [i, line] of text.split(/\r?\n/).entries()) {
    const l = line.trim();
    if (l === '' || l.startsWith('#')) continue;
    const eq = l.indexOf('=');
    const name = eq > 0 ? l.slice(0, eq).trim() : '';
    // The line is never repeated: it may hold a key.
    if (!EnvName.safeParse(name).success) throw new FolioError('invalid_input', `${file}, line ${i + 1}: expected NAME=key`);
    keys.set(name, l.slice(eq + 1).trim());
  }
  return keys;
}

/** Reads the operator's models at start: the path must exist; keys from the secrets file first, then the environment. */
export function loadOperatorModels(path: string, secretsFile: string | null, env: Record<string, string | undefined>): OperatorModels {
  try {
    statSync(path);
  } catch {
    throw new FolioError('invalid_input', `--operator-models: ${path} does not exist`);
  }
  const secrets = secretsFile === null ? new Map<string, string>() : parseSecretsFile(secretsFile, readSecrets(secretsFile));
  const keys = new Map<string, string>();
  for (const [name, value] of Object.entries(env)) if (value && EnvName.safeParse(name).success) keys.set(name, value.trim());
  for (const [name, value] of secrets) if (value !== '') keys.set(name, value);
  const warnings: ConfigWarning[] = [];
  const profiles = readOperatorProfiles(path, warnings);
  const notes = warnings.map((w) => `${w.source}: ${w.message}`);
  if (profiles.length === 0) throw new FolioError('invalid_input', `--operator-models: no usable profile in ${path}${notes.length > 0 ? ` (${notes.join('; ')})` : ''}`);
  for (const p of profiles) {
    if (p.api_key_env !== null && !keys.has(p.api_key_env)) notes.push(`${p.id}: no key (${p.api_key_env} is in neither the secrets file nor the environment); tenants see it without a key`);
    // A tenant's money budget counts what calls cost at the profile's price: without one it never moves.
    if (p.price.input === 0 && p.price.output === 0) notes.push(`${p.id}: no price, so cost_per_month budgets do not count its use`);
  }
  return { path, keys, notes };
}

function readSecrets(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    throw new FolioError('invalid_input', `--operator-secrets: cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? 'error'}`);
  }
}
