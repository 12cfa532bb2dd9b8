// Scrubbing secrets out of text that leaves Folio or is kept: a model's stream, a tool's output, an
// MCP server's listing, a request log line. Each secret is matched as written and in the encoded or
// disguised copies a server or a model may echo (see secretPattern).
import { MCP_REDACTED } from '../../shared/contract/mcp';

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&');

/**
 * The secret's base64 as it appears inside a longer base64 text: for each of the three byte
 * alignments, only the characters that depend on the secret alone (standard and URL-safe alphabets).
 */
function base64Forms(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  const forms: string[] = [];
  for (const k of [0, 1, 2]) {
    const encoded = Buffer.concat([Buffer.alloc(k), bytes]).toString('base64');
    const start = [0, 2, 3][k] ?? 0;
    const end = Math.floor(((k + bytes.length) * 8) / 6);
    const stable = encoded.slice(start, end);
    if (stable.length >= 6) forms.push(stable, stable.replace(/\+/gu, '-').replace(/\//gu, '_'));
  }
  return forms;
}

/** Characters a copy may be spread out with ("s k - 1 2 3", one letter per line, zero-width joins). */
const SPREAD = '[\\s\\u200b-\\u200d\\u2060\\ufeff.,:;_|-]{0,3}';

/**
 * One pattern for every copy of a secret a server (or a model) may echo: as is, spread out, reversed,
 * in base64 (any alignment, either alphabet), hex, or percent-encoded; the whole pattern ignores case
 * (hex and percent escapes come in both). Short values (under 8 characters) are not matched spread
 * out or reversed: that would match prose.
 */
function secretPattern(secret: string): string {
  const forms = new Set<string>([escapeRegExp(secret)]);
  const bytes = Buffer.from(secret, 'utf8');
  if (secret.length >= 6) {
    for (const b64 of base64Forms(secret)) forms.add(escapeRegExp(b64));
    forms.add(bytes.toString('hex'));
    forms.add([...bytes].map((b) => `%${b.toString(16).padStart(2, '0')}`).join(''));
    forms.add(escapeRegExp(encodeURIComponent(secret)));
  }
  if (secret.length >= 8) {
    const spread = (chars: string[]): string => chars.map(escapeRegExp).join(SPREAD);
    forms.add(spread([...secret]));
    forms.add(spread([...secret].reverse()));
  }
  return [...forms].sort((a, b) => b.length - a.length).join('|');
}

const compiled = new WeakMap<readonly string[], RegExp | null>();

function scrubber(secrets: readonly string[]): RegExp | null {
  let re = compiled.get(secrets);
  if (re === undefined) {
    const parts = [...new Set(secrets)].filter((s) => s.length > 0).map(secretPattern);
    re = parts.length === 0 ? null : new RegExp(parts.join('|'), 'giu');
    compiled.set(secrets, re);
  }
  return re;
}

/** The longest text one match of the secret's pattern can span (its spread-out and encoded forms). */
function longestForm(secret: string): number {
  const bytes = Buffer.byteLength(secret, 'utf8');
  return Math.max(secret.length, secret.length >= 6 ? 3 * bytes : 0, secret.length >= 8 ? 4 * secret.length : 0);
}

/** A run's secrets compiled once: the pattern for all of them, and how long one match can be. */
export interface CompiledSecrets {
  pattern: RegExp;
  longest: number;
}

export function compileSecrets(secrets: readonly string[]): CompiledSecrets | null {
  const pattern = scrubber(secrets);
  if (!pattern) return null;
  return { pattern, longest: Math.max(...secrets.map(longestForm)) };
}

/** Replaces each secret in `text`, and every encoded or disguised copy of it (see secretPattern), with "••••". */
export function scrub(text: string, secrets: readonly string[]): string {
  const re = scrubber(secrets);
  return re ? text.replace(re, MCP_REDACTED) : text;
}

/** `value` with every string inside it scrubbed (tool descriptions and input schemas, listings). */
export function scrubDeep<T>(value: T, secrets: readonly string[]): T {
  if (secrets.length === 0) return value;
  if (typeof value === 'string') return scrub(value, secrets) as T;
  if (Array.isArray(value)) return value.map((v: unknown) => scrubDeep(v, secrets)) as T;
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [scrub(k, secrets), scrubDeep(v, secrets)])) as T;
  }
  return value;
}
