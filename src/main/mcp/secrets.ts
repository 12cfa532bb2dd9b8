// MCP secrets (every env value of a stdio server, every header of an HTTP server) are stored like
// API keys: in the key store (safeStorage-encrypted in the desktop app, a 0600 file otherwise), with
// mcp.json holding only a reference, `folio-keystore:MCP_...`. A value typed straight into the file
// still works (and is moved into the key store the next time the config is saved from Settings);
// the file itself is written 0600. The UI only ever sees "••••".
import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { MCP_REDACTED, type McpConfigProblem } from '../../shared/contract/mcp';
import type { KeyStore } from '../models/keys';
import { readMcpConfigFile, type RawMcpConfig } from './config';

export const SECRET_REF_PREFIX = 'folio-keystore:';
/** Only key-store entries under this prefix can be named from mcp.json (never a model's API key). */
const SECRET_NAME = /^MCP_[A-Z0-9_]{1,95}$/u;
const SECTIONS = ['env', 'headers'] as const;
type Section = (typeof SECTIONS)[number];

/** The key-store name for one secret: readable, and unique per (server, section, key) thanks to the hash. */
export function secretName(server: string, section: Section, key: string): string {
  const slug = (s: string, max: number) => s.toUpperCase().replace(/[^A-Z0-9]+/gu, '_').slice(0, max);
  const hash = createHash('sha256').update(`${server}\0${section}\0${key}`).digest('hex').slice(0, 6).toUpperCase();
  return `MCP_${slug(server, 30)}_${section === 'env' ? 'E' : 'H'}_${slug(key, 40)}_${hash}`;
}

function secretRef(value: string): string | null {
  if (!value.startsWith(SECRET_REF_PREFIX)) return null;
  const name = value.slice(SECRET_REF_PREFIX.length);
  return SECRET_NAME.test(name) ? name : null;
}

function sectionOf(entry: unknown, section: Section): Record<string, unknown> | null {
  if (typeof entry !== 'object' || entry === null) return null;
  const value = (entry as Record<string, unknown>)[section];
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

/** The values to start a server with: references looked up in the key store. A missing one is an error naming the key. */
export function resolveSecrets(values: Record<string, string>, keys: KeyStore): { values: Record<string, string>; missing: string[] } {
  const out: Record<string, string> = {};
  const missing: string[] = [];
  for (const [key, value] of Object.entries(values)) {
    const name = secretRef(value);
    if (name === null) {
      out[key] = value;
      continue;
    }
    const stored = keys.get(name);
    if (stored === undefined) missing.push(key);
    else out[key] = stored;
  }
  return { values: out, missing };
}

/** Every secret a server's config holds, resolved: what logs, errors and stderr tails are scrubbed of. */
export function secretValues(values: Record<string, string>, keys: KeyStore): string[] {
  return Object.values(resolveSecrets(values, keys).values).filter((v) => v.length >= 4);
}

/** The config as the UI sees it: every env value and header replaced by "••••". */
export function redactConfig(raw: RawMcpConfig): RawMcpConfig {
  const servers: Record<string, unknown> = {};
  for (const [name, entry] of Object.entries(raw.mcpServers)) {
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      servers[name] = entry;
      continue;
    }
    const copy: Record<string, unknown> = { ...(entry as Record<string, unknown>) };
    for (const section of SECTIONS) {
      const values = sectionOf(entry, section);
      if (values) copy[section] = Object.fromEntries(Object.keys(values).map((k) => [k, MCP_REDACTED]));
    }
    servers[name] = copy;
  }
  return { ...raw, mcpServers: servers };
}

/**
 * The config to write when the person saves `next` (as edited from the redacted text) over `previous`:
 * "••••" keeps the previous value, every other non-empty value goes into the key store and is replaced
 * by its reference, and key-store entries no longer referenced are removed.
 */
export function storeSecrets(next: RawMcpConfig, previous: RawMcpConfig, keys: KeyStore): { raw: RawMcpConfig; problems: McpConfigProblem[] } {
  const problems: McpConfigProblem[] = [];
  const before = referencedNames(previous);
  const servers: Record<string, unknown> = {};
  for (const [server, entry] of Object.entries(next.mcpServers)) {
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      servers[server] = entry;
      continue;
    }
    const copy: Record<string, unknown> = { ...(entry as Record<string, unknown>) };
    for (const section of SECTIONS) {
      const values = sectionOf(entry, section);
      if (!values) continue;
      const old = sectionOf(previous.mcpServers[server], section) ?? {};
      const kept: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(values)) {
        if (typeof value !== 'string' || value === '' || secretRef(value) !== null) {
          kept[key] = value;
        } else if (value === MCP_REDACTED) {
          if (typeof old[key] === 'string') kept[key] = old[key];
          else problems.push({ server, message: `${section}.${key}: "${MCP_REDACTED}" keeps a stored value, but none is stored; enter the value.` });
        } else {
          const name = secretName(server, section, key);
          keys.set(name, value);
          kept[key] = `${SECRET_REF_PREFIX}${name}`;
        }
      }
      copy[section] = kept;
    }
    servers[server] = copy;
  }
  const raw = { ...next, mcpServers: servers };
  const after = referencedNames(raw);
  for (const name of before) if (!after.has(name)) keys.set(name, '');
  return { raw, problems };
}

function referencedNames(raw: RawMcpConfig): Set<string> {
  const names = new Set<string>();
  for (const entry of Object.values(raw.mcpServers)) {
    for (const section of SECTIONS) {
      for (const value of Object.values(sectionOf(entry, section) ?? {})) {
        const name = typeof value === 'string' ? secretRef(value) : null;
        if (name) names.add(name);
      }
    }
  }
  return names;
}

/** Writes mcp.json owner-only (0600) and atomically, like the key file. */
export function writeConfigFile(path: string, raw: RawMcpConfig): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(raw, null, 2)}\n`, { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, path);
  chmodSync(path, 0o600);
}

/**
 * A config pasted straight into mcp.json (e.g. from claude_desktop_config.json) holds its secrets in
 * plain text: at start they are moved into the key store and the file keeps references, as if it had
 * been saved from Settings. A missing or unparsable file is left alone. True when the file changed.
 */
export function moveFileSecretsToKeyStore(path: string, keys: KeyStore): boolean {
  const { raw } = readMcpConfigFile(path);
  const stored = storeSecrets(raw, raw, keys);
  if (JSON.stringify(stored.raw) === JSON.stringify(raw)) return false;
  writeConfigFile(path, stored.raw);
  return true;
}
