// `folio serve`'s configuration in one place: flags and FOLIO_* environment variables (a flag wins
// over its variable), checked together so a contradiction stops the process at start with a message
// that names the setting, never halfway through the first request. Secrets stay inside this object:
// `describe()` is what logs see.
import ipaddr from 'ipaddr.js';
import { quotaDefaults, quotaEnvName, quotaOptionName, quotaServeFlags, type QuotaLimits } from '../quotas/limits';
import { hostname } from 'node:os';
import { parseArgs } from 'node:util';
import { FolioError } from '../../shared/errors';
import { isScopeId } from './scope-id';
import { DEFAULT_LEASE_TTL_MS } from '../config/lease-timing';
import { parseKek, type Keyring } from './key-encryption';
import { loadOperatorModels, type OperatorModels } from '../models';

export class ConfigError extends FolioError {
  constructor(message: string) {
    super('invalid_input', message, { name: 'ConfigError' });
  }
}

/** How the platform's user tokens are verified: a shared HS256 secret, or the platform's public keys. */
export type JwtVerification =
  | { kind: 'secret'; secret: Uint8Array; issuer?: string; audience?: string }
  | { kind: 'jwks'; url: URL; issuer?: string; audience?: string };

export interface ServiceConfig {
  multiTenant: boolean;
  /** `postgres://…`; null keeps SQLite in the data folder. */
  databaseUrl: string | null;
  /** Files live under `<storageRoot>/tenants/<tenant>/tasks/<task>/`; null keeps the data folder. */
  storageRoot: string | null;
  /** Multi-tenant only: the key every request's `Authorization: Bearer` must carry. */
  platformKey: string | null;
  jwt: JwtVerification | null;
  host: string;
  port: number;
  /** Host names (optionally `name:port`) the reverse proxy forwards; `*` turns the Host check off. */
  publicHosts: string[];
  workerId: string;
  /** How long a SIGTERM waits for in-flight requests before closing their connections. */
  shutdownGraceMs: number;
  /** How long a worker's run lease lasts unrenewed: after that its runs count as interrupted. */
  leaseTtlMs: number;
  /** A (tenant, user)'s core is closed after this long without requests when none of its runs is live. */
  coreIdleMs: number;
  recover: boolean;
  /** The server's default quotas (flags, then FOLIO_QUOTA_* variables); a tenant's row overrides them. */
  quotas: QuotaLimits;
  /**
   * Host names, IP addresses and CIDR ranges besides public ones that addresses tenants type (a
   * provider's base URL, a search backend, an MCP server) may reach; see net/outbound.ts.
   */
  allowNetwork: string[];
  /** Seals the keys tenants store (tenancy/key-encryption.ts); null: storing keys is refused. */
  keyring: Keyring | null;
  /** Models the operator offers every tenant, with the operator's keys (models/operator-models.ts); null: none. */
  operatorModels: OperatorModels | null;
  /** The configuration as it may be logged: secrets and database passwords redacted. */
  describe(): Record<string, unknown>;
}

export const DEFAULT_PORT = 4319;
export const DEFAULT_REQUESTS_PER_MINUTE = 600;
export const DEFAULT_SHUTDOWN_GRACE_MS = 30_000;
export const DEFAULT_CORE_IDLE_MS = 600_000;
/** HS256 with a shorter key is guessable offline from any one token (RFC 7518 §3.2 asks for ≥ 256 bits). */
export const MIN_SECRET_BYTES = 32;

const options = {
  port: { type: 'string' },
  host: { type: 'string' },
  recover: { type: 'boolean' },
  'multi-tenant': { type: 'boolean' },
  database: { type: 'string' },
  'storage-root': { type: 'string' },
  'platform-key': { type: 'string' },
  'jwt-secret': { type: 'string' },
  'jwks-url': { type: 'string' },
  'jwt-issuer': { type: 'string' },
  'jwt-audience': { type: 'string' },
  'public-host': { type: 'string', multiple: true },
  'allow-network': { type: 'string', multiple: true },
  'worker-id': { type: 'string' },
  'requests-per-minute': { type: 'string' },
  'shutdown-grace-ms': { type: 'string' },
  'lease-ttl-ms': { type: 'string' },
  'core-idle-ms': { type: 'string' },
  'key-encryption-key': { type: 'string' },
  'previous-key-encryption-keys': { type: 'string' },
  'operator-models': { type: 'string' },
  'operator-secrets': { type: 'string' },
  // The server's default quotas (--quota-tokens-per-month …), named once in quotas/limits.ts.
  ...quotaServeFlags,
} as const;

/** Flag name → environment variable; the flag wins when both are given. */
export const ENV_FOR_FLAG = {
  port: 'FOLIO_PORT',
  host: 'FOLIO_HOST',
  'multi-tenant': 'FOLIO_MULTI_TENANT',
  database: 'FOLIO_DATABASE_URL',
  'storage-root': 'FOLIO_STORAGE_ROOT',
  'platform-key': 'FOLIO_PLATFORM_KEY',
  'jwt-secret': 'FOLIO_JWT_SECRET',
  'jwks-url': 'FOLIO_JWKS_URL',
  'jwt-issuer': 'FOLIO_JWT_ISSUER',
  'jwt-audience': 'FOLIO_JWT_AUDIENCE',
  'public-host': 'FOLIO_PUBLIC_HOSTS',
  'worker-id': 'FOLIO_WORKER_ID',
  'requests-per-minute': 'FOLIO_REQUESTS_PER_MINUTE',
  'shutdown-grace-ms': 'FOLIO_SHUTDOWN_GRACE_MS',
  'lease-ttl-ms': 'FOLIO_LEASE_TTL_MS',
  'core-idle-ms': 'FOLIO_CORE_IDLE_MS',
  'key-encryption-key': 'FOLIO_KEY_ENCRYPTION_KEY',
  'previous-key-encryption-keys': 'FOLIO_PREVIOUS_KEY_ENCRYPTION_KEYS',
  'operator-models': 'FOLIO_OPERATOR_MODELS',
  'operator-secrets': 'FOLIO_OPERATOR_SECRETS',
} as const;

type Env = Record<string, string | undefined>;

/** Parses `folio serve`'s arguments and the environment into one checked configuration. */
export function loadServiceConfig(argv: string[], env: Env = process.env): ServiceConfig {
  let values: ReturnType<typeof parse>['values'];
  try {
    values = parse(argv).values;
  } catch (err) {
    throw new ConfigError(err instanceof Error ? err.message : String(err));
  }
  const pick = (flag: keyof typeof ENV_FOR_FLAG & keyof typeof values): string | undefined => {
    const fromFlag = values[flag];
    if (typeof fromFlag === 'string') return fromFlag;
    const fromEnv = env[ENV_FOR_FLAG[flag]];
    return fromEnv === undefined || fromEnv === '' ? undefined : fromEnv;
  };

  const multiTenant = values['multi-tenant'] ?? parseBoolean('FOLIO_MULTI_TENANT', env.FOLIO_MULTI_TENANT) ?? false;
  const databaseUrl = pick('database') ?? null;
  if (databaseUrl !== null && !/^postgres(ql)?:\/\//i.test(databaseUrl)) {
    throw new ConfigError('--database / FOLIO_DATABASE_URL: expected a postgres:// or postgresql:// URL');
  }
  const storageRoot = pick('storage-root') ?? null;
  if (storageRoot !== null && !storageRoot.startsWith('/')) throw new ConfigError('--storage-root / FOLIO_STORAGE_ROOT: expected an absolute path');
  if (databaseUrl !== null && storageRoot === null) {
    // Several workers on one database must see the same files; a per-worker data folder would not.
    throw new ConfigError('--database needs --storage-root / FOLIO_STORAGE_ROOT (a folder every worker shares)');
  }

  const platformKey = pick('platform-key') ?? null;
  const secret = pick('jwt-secret') ?? null;
  const jwksUrl = pick('jwks-url') ?? null;
  const issuer = pick('jwt-issuer');
  const audience = pick('jwt-audience');
  let jwt: JwtVerification | null = null;
  if (multiTenant) {
    if (platformKey === null) throw new ConfigError('--multi-tenant needs a platform key: --platform-key or FOLIO_PLATFORM_KEY');
    if (Buffer.byteLength(platformKey, 'utf8') < MIN_SECRET_BYTES) {
      throw new ConfigError(`--platform-key / FOLIO_PLATFORM_KEY: at least ${MIN_SECRET_BYTES} bytes`);
    }
    if (secret !== null && jwksUrl !== null) {
      throw new ConfigError('Give either --jwt-secret / FOLIO_JWT_SECRET or --jwks-url / FOLIO_JWKS_URL, not both');
    }
    if (secret !== null) {
      const bytes = new TextEncoder().encode(secret);
      if (bytes.length < MIN_SECRET_BYTES) throw new ConfigError(`--jwt-secret / FOLIO_JWT_SECRET: at least ${MIN_SECRET_BYTES} bytes for HS256`);
      jwt = { kind: 'secret', secret: bytes, issuer, audience };
    } else if (jwksUrl !== null) {
      jwt = { kind: 'jwks', url: parseJwksUrl(jwksUrl), issuer, audience };
    } else {
      throw new ConfigError('--multi-tenant needs --jwt-secret / FOLIO_JWT_SECRET or --jwks-url / FOLIO_JWKS_URL to verify X-Folio-User tokens');
    }
  } else {
    // Silently ignoring a platform setting would leave an operator believing tokens are checked.
    const stray = (['platform-key', 'jwt-secret', 'jwks-url', 'jwt-issuer', 'jwt-audience', 'public-host'] as const).find((f) => pick(f) !== undefined);
    if (stray !== undefined) throw new ConfigError(`--${stray} / ${ENV_FOR_FLAG[stray]} only applies with --multi-tenant`);
    if (databaseUrl !== null) throw new ConfigError('--database (PostgreSQL) is the team service: it needs --multi-tenant');
  }
  if (multiTenant && values.recover === true) throw new ConfigError('--recover restores a single-user database; it does not apply with --multi-tenant');

  const host = pick('host') ?? (multiTenant ? '0.0.0.0' : '127.0.0.1');
  if (!multiTenant && host !== '127.0.0.1') throw new ConfigError('Single-user web mode only listens on 127.0.0.1 (use --multi-tenant for a service)');
  const port = parseInteger('--port / FOLIO_PORT', pick('port') ?? String(DEFAULT_PORT), 0, 65535);
  const publicHosts = splitList(values['public-host']?.join(',') ?? env.FOLIO_PUBLIC_HOSTS ?? '').map((h) => h.toLowerCase());
  const allowNetwork = splitList(values['allow-network']?.join(',') ?? env.FOLIO_ALLOW_NETWORK ?? '').map((h) => h.toLowerCase());
  for (const entry of allowNetwork) {
    if (!isNetworkRule(entry)) throw new ConfigError(`--allow-network / FOLIO_ALLOW_NETWORK: not a host name, IP address or CIDR range: ${entry.slice(0, 100)}`);
  }
  if (!multiTenant && allowNetwork.length > 0) throw new ConfigError('--allow-network / FOLIO_ALLOW_NETWORK only applies with --multi-tenant');
  for (const h of publicHosts) {
    if (h !== '*' && !/^[a-z0-9.-]+(:\d{1,5})?$|^\[[0-9a-f:.]+\](:\d{1,5})?$/.test(h)) throw new ConfigError(`--public-host: not a host name: ${h.slice(0, 100)}`);
  }
  const workerId = pick('worker-id') ?? defaultWorkerId();
  if (!isScopeId(workerId)) throw new ConfigError('--worker-id / FOLIO_WORKER_ID: 1-64 of A-Z a-z 0-9 _ -');
  const shutdownGraceMs = parseInteger('--shutdown-grace-ms / FOLIO_SHUTDOWN_GRACE_MS', pick('shutdown-grace-ms') ?? String(DEFAULT_SHUTDOWN_GRACE_MS), 0, 3_600_000);

  const leaseTtlMs = parseInteger('--lease-ttl-ms / FOLIO_LEASE_TTL_MS', pick('lease-ttl-ms') ?? String(DEFAULT_LEASE_TTL_MS), 300, 600_000);
  const coreIdleMs = parseInteger('--core-idle-ms / FOLIO_CORE_IDLE_MS', pick('core-idle-ms') ?? String(DEFAULT_CORE_IDLE_MS), 1000, 86_400_000);
  const quotas = serviceQuotaDefaults(env, values);
  const keyring = parseKeyring(pick('key-encryption-key'), pick('previous-key-encryption-keys'));
  if (!multiTenant && keyring !== null) throw new ConfigError('--key-encryption-key / FOLIO_KEY_ENCRYPTION_KEY only applies with --multi-tenant');

  const operatorPath = pick('operator-models') ?? null;
  const operatorSecrets = pick('operator-secrets') ?? null;
  if (operatorPath === null && operatorSecrets !== null) throw new ConfigError('--operator-secrets / FOLIO_OPERATOR_SECRETS needs --operator-models / FOLIO_OPERATOR_MODELS');
  if (operatorPath !== null && !multiTenant) throw new ConfigError('--operator-models / FOLIO_OPERATOR_MODELS only applies with --multi-tenant');
  let operatorModels: OperatorModels | null = null;
  try {
    operatorModels = operatorPath === null ? null : loadOperatorModels(operatorPath, operatorSecrets, env);
  } catch (err) {
    throw new ConfigError(err instanceof Error ? err.message : String(err));
  }

  const config: Omit<ServiceConfig, 'describe'> = {
    multiTenant, databaseUrl, storageRoot, platformKey, jwt, host, port, publicHosts, workerId, shutdownGraceMs, leaseTtlMs, coreIdleMs, quotas, allowNetwork, keyring, operatorModels,
    recover: values.recover ?? false,
  };
  return {
    ...config,
    describe: () => ({
      multi_tenant: multiTenant,
      database: databaseUrl === null ? 'sqlite' : redactUrlPassword(databaseUrl),
      storage_root: storageRoot,
      platform_key: platformKey === null ? null : '[redacted]',
      jwt: jwt === null ? null : jwt.kind === 'secret' ? { kind: 'secret', secret: '[redacted]', issuer: jwt.issuer ?? null, audience: jwt.audience ?? null } : { kind: 'jwks', url: redactUrlPassword(jwt.url.href), issuer: jwt.issuer ?? null, audience: jwt.audience ?? null },
      host, port, public_hosts: publicHosts, worker_id: workerId, shutdown_grace_ms: shutdownGraceMs, lease_ttl_ms: leaseTtlMs, core_idle_ms: coreIdleMs, quotas, allow_network: allowNetwork,
      key_encryption: keyring === null ? null : { current: keyring.current.id, previous: keyring.previous.map((k) => k.id) },
      operator_models: operatorPath, operator_secrets: operatorSecrets,
    }),
  };
}

/**
 * The server's default quotas, as `folio serve` enforces them and `folio quota get` shows them:
 * `--quota-<name>` flags over `FOLIO_QUOTA_<NAME>` variables, and the request rate, one quota with
 * two spellings: --requests-per-minute (the rate limiter's, from before quotas; 600 by default) or
 * --quota-requests-per-minute (give one). A tenant's row overrides these, `unlimited` included.
 */
export function serviceQuotaDefaults(env: Env, flags: Record<string, unknown> = {}): QuotaLimits {
  let quotas: QuotaLimits;
  try {
    quotas = quotaDefaults(env, flags);
  } catch (err) {
    throw new ConfigError(err instanceof Error ? err.message : String(err));
  }
  const rateFlag = flags['requests-per-minute'];
  const rateEnv = env[ENV_FOR_FLAG['requests-per-minute']];
  const rate = typeof rateFlag === 'string' ? rateFlag : rateEnv === undefined || rateEnv === '' ? undefined : rateEnv;
  const quotaFlag = `quota-${quotaOptionName('requests_per_minute')}`;
  const quotaEnv = quotaEnvName('requests_per_minute');
  const quotaRate = flags[quotaFlag] ?? env[quotaEnv];
  const quotaRateGiven = quotaRate !== undefined && quotaRate !== '';
  if (rate !== undefined && quotaRateGiven) {
    throw new ConfigError(`Give the default request rate once: --requests-per-minute / ${ENV_FOR_FLAG['requests-per-minute']} or --${quotaFlag} / ${quotaEnv}`);
  }
  if (!quotaRateGiven) {
    quotas.requests_per_minute = parseInteger(`--requests-per-minute / ${ENV_FOR_FLAG['requests-per-minute']}`, rate ?? String(DEFAULT_REQUESTS_PER_MINUTE), 1, 1_000_000);
  }
  return quotas;
}

/** The current KEK and the older ones still read; none given: null. Only fingerprints are ever shown. */
function parseKeyring(current: string | undefined, previous: string | undefined): Keyring | null {
  try {
    if (current === undefined) {
      if (previous !== undefined) throw new ConfigError('--previous-key-encryption-keys needs --key-encryption-key / FOLIO_KEY_ENCRYPTION_KEY (the new one)');
      return null;
    }
    return {
      current: parseKek('--key-encryption-key / FOLIO_KEY_ENCRYPTION_KEY', current),
      previous: splitList(previous ?? '').map((k) => parseKek('--previous-key-encryption-keys / FOLIO_PREVIOUS_KEY_ENCRYPTION_KEYS', k)),
    };
  } catch (err) {
    throw err instanceof ConfigError ? err : new ConfigError(err instanceof Error ? err.message : String(err));
  }
}

function parse(argv: string[]) {
  return parseArgs({ args: argv, options, strict: true, allowPositionals: false });
}

function parseBoolean(name: string, value: string | undefined): boolean | undefined {
  if (value === undefined || value === '') return undefined;
  if (/^(1|true|yes)$/i.test(value)) return true;
  if (/^(0|false|no)$/i.test(value)) return false;
  throw new ConfigError(`${name}: expected true or false`);
}

function parseInteger(name: string, value: string, min: number, max: number): number {
  const n = /^\d+$/.test(value.trim()) ? Number(value.trim()) : NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) throw new ConfigError(`${name}: expected an integer from ${min} to ${max}, got ${value.slice(0, 40)}`);
  return n;
}

function parseJwksUrl(value: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError('--jwks-url / FOLIO_JWKS_URL: not a URL');
  }
  // Keys fetched in clear text could be swapped on the way; plain http only for a key server on the same machine.
  const loopback = url.hostname === '127.0.0.1' || url.hostname === 'localhost' || url.hostname === '[::1]';
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback)) {
    throw new ConfigError('--jwks-url / FOLIO_JWKS_URL: must be https (http only on 127.0.0.1 / localhost)');
  }
  return url;
}

function splitList(value: string): string[] {
  return value.split(',').map((s) => s.trim()).filter((s) => s !== '');
}

function defaultWorkerId(): string {
  const name = hostname().replace(/[^A-Za-z0-9_-]/g, '-').slice(0, 40) || 'worker';
  return `${name}-${process.pid}`;
}

export function redactUrlPassword(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    for (const key of [...parsed.searchParams.keys()]) if (/pass|secret|key|token/i.test(key)) parsed.searchParams.set(key, '***');
    return parsed.href;
  } catch {
    return '[unparseable URL]';
  }
}

/** A host name, an IPv4/IPv6 address, or a CIDR range of either. */
function isNetworkRule(entry: string): boolean {
  if (entry.includes('/')) return ipaddr.isValidCIDR(entry);
  if (ipaddr.isValid(entry.replace(/^\[|\]$/gu, ''))) return true;
  return /^[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?)*$/u.test(entry);
}
