// A tenant's limits: the server's defaults (environment and `folio serve` flags) with the tenant's
// own row in `quotas` over them. The quota names are listed once, in the contract; the environment
// variable, the flag and the column are derived from each name here.
import { quotaNames, type QuotaName } from '../../shared/contract/usage';
import { FolioError } from '../../shared/folio-error';
import { type SqlClient } from './sql';

export { quotaNames, type QuotaName };

/** A limit per quota; null means unlimited. */
export type QuotaLimits = Record<QuotaName, number | null>;

/** A tenant's own settings: a number overrides the default, `'unlimited'` lifts it, absent keeps it. */
export type QuotaOverrides = Partial<Record<QuotaName, number | 'unlimited'>>;

/** What an operator changes: a number or `'unlimited'` to set, null to go back to the default. */
export type QuotaPatch = Partial<Record<QuotaName, number | 'unlimited' | null>>;

export const UNLIMITED: QuotaLimits = Object.fromEntries(quotaNames.map((name) => [name, null])) as QuotaLimits;

/** `tokens_per_month` → `FOLIO_QUOTA_TOKENS_PER_MONTH`. */
export function quotaEnvName(name: QuotaName): string {
  return `FOLIO_QUOTA_${name.toUpperCase()}`;
}

/** `tokens_per_month` → `tokens-per-month`; `folio serve` takes it as `--quota-tokens-per-month`. */
export function quotaOptionName(name: QuotaName): string {
  return name.replaceAll('_', '-');
}

/** `folio serve`'s quota flags, to spread into its `parseArgs` options. */
export const quotaServeFlags = Object.fromEntries(quotaNames.map((name) => [`quota-${quotaOptionName(name)}`, { type: 'string' as const }]));

/** Quotas measured in money take decimals (`cost_per_month 12.50`); the others count whole things. */
const MONEY_QUOTAS: ReadonlySet<QuotaName> = new Set(['cost_per_month']);

/** Parses an operator's value: a whole number ≥ 0 (a money quota: a decimal ≥ 0), or `unlimited`. `setting` names where it came from. */
export function parseQuotaValue(setting: string, raw: string, name?: QuotaName): number | 'unlimited' {
  const text = raw.trim().toLowerCase();
  if (text === 'unlimited') return 'unlimited';
  if (name !== undefined && MONEY_QUOTAS.has(name)) {
    if (!/^\d+(\.\d+)?$/.test(text) || !Number.isFinite(Number(text))) throw new FolioError('invalid_input', `${setting}: expected an amount ≥ 0 (e.g. 25 or 12.50) or "unlimited", got "${raw}"`);
    return Number(text);
  }
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(Number(text))) {
    throw new FolioError('invalid_input', `${setting}: expected a whole number ≥ 0 or "unlimited", got "${raw}"`);
  }
  return Number(text);
}

/**
 * The server's defaults: `--quota-<name>` flags (from `folio serve`'s parsed values) over
 * `FOLIO_QUOTA_<NAME>` variables; a quota set in neither is unlimited.
 */
export function quotaDefaults(env: Record<string, string | undefined> = process.env, flags: Record<string, unknown> = {}): QuotaLimits {
  const limits = { ...UNLIMITED };
  for (const name of quotaNames) {
    const flag = `quota-${quotaOptionName(name)}`;
    const fromFlag = flags[flag];
    const fromEnv = env[quotaEnvName(name)];
    const [setting, raw] = typeof fromFlag === 'string' ? [`--${flag}`, fromFlag] : [quotaEnvName(name), fromEnv];
    if (raw === undefined || raw === '') continue;
    const value = parseQuotaValue(setting, raw, name);
    limits[name] = value === 'unlimited' ? null : value;
  }
  return limits;
}

/** The tenant's limits: its overrides over the defaults. */
export function resolveLimits(defaults: QuotaLimits, overrides: QuotaOverrides): QuotaLimits {
  const limits = { ...defaults };
  for (const name of quotaNames) {
    const own = overrides[name];
    if (own !== undefined) limits[name] = own === 'unlimited' ? null : own;
  }
  return limits;
}

/** Where the per-tenant rows live: the `quotas` table, or memory on the desktop and in tests. */
export interface QuotaTable {
  get(tenantId: string): Promise<QuotaOverrides>;
  set(tenantId: string, patch: QuotaPatch): Promise<void>;
}

// In the `quotas` table NULL means "the default" (the schema's rule), so "unlimited" needs a value
// of its own: -1, which no real limit can be.
const UNLIMITED_IN_TABLE = -1;

export function createPgQuotaTable(db: SqlClient, now: () => number = Date.now): QuotaTable {
  return {
    async get(tenantId) {
      const { rows } = await db.query(`SELECT ${quotaNames.join(', ')} FROM quotas WHERE tenant_id = $1`, [tenantId]);
      const overrides: QuotaOverrides = {};
      if (rows.length === 0) return overrides;
      for (const name of quotaNames) {
        const value = rows[0][name] as string | number | null;
        if (value === null) continue;
        overrides[name] = Number(value) === UNLIMITED_IN_TABLE ? 'unlimited' : Number(value);
      }
      return overrides;
    },
    async set(tenantId, patch) {
      const names = quotaNames.filter((name) => patch[name] !== undefined);
      const values = names.map((name) => {
        const value = patch[name];
        return value === 'unlimited' ? UNLIMITED_IN_TABLE : value;
      });
      // Column names come from quotaNames, never from the caller.
      const columns = ['tenant_id', ...names, 'updated_at'];
      const placeholders = columns.map((_, i) => `$${i + 1}`);
      const updates = [...names, 'updated_at'].map((column) => `${column} = EXCLUDED.${column}`);
      await db.query(
        `INSERT INTO quotas (${columns.join(', ')}) VALUES (${placeholders.join(', ')})
         ON CONFLICT (tenant_id) DO UPDATE SET ${updates.join(', ')}`,
        [tenantId, ...values, now()],
      );
    },
  };
}

export function createMemoryQuotaTable(): QuotaTable {
  const rows = new Map<string, QuotaOverrides>();
  return {
    async get(tenantId) {
      return { ...rows.get(tenantId) };
    },
    async set(tenantId, patch) {
      const row = { ...rows.get(tenantId) };
      for (const name of quotaNames) {
        const value = patch[name];
        if (value === null) delete row[name];
        else if (value !== undefined) row[name] = value;
      }
      rows.set(tenantId, row);
    },
  };
}

export interface QuotaLimitsSource {
  limitsFor(tenantId: string): Promise<QuotaLimits>;
  /** Forgets the cached limits (of one tenant, or all), e.g. after an operator changed them here. */
  invalidate(tenantId?: string): void;
}

/** How long a worker reuses a tenant's limits: an operator's change reaches every worker within it. */
export const QUOTA_CACHE_TTL_MS = 10_000;

export interface QuotaLimitsOptions {
  defaults: QuotaLimits;
  table: QuotaTable;
  /** How long a tenant's limits are reused; a change by `folio quota set` is seen within it. */
  ttlMs?: number;
  now?: () => number;
}

/** Every request asks for its tenant's limits (the rate limiter does), so they are cached briefly. */
export function createQuotaLimits({ defaults, table, ttlMs = QUOTA_CACHE_TTL_MS, now = Date.now }: QuotaLimitsOptions): QuotaLimitsSource {
  const cache = new Map<string, { at: number; limits: Promise<QuotaLimits> }>();
  return {
    limitsFor(tenantId) {
      const hit = cache.get(tenantId);
      if (hit && now() - hit.at < ttlMs) return hit.limits;
      // The promise is cached, so a burst of requests reads the row once; a failed read is not kept.
      const limits = table.get(tenantId).then((overrides) => resolveLimits(defaults, overrides));
      cache.set(tenantId, { at: now(), limits });
      limits.catch(() => {
        if (cache.get(tenantId)?.limits === limits) cache.delete(tenantId);
      });
      return limits;
    },
    invalidate(tenantId) {
      if (tenantId === undefined) cache.clear();
      else cache.delete(tenantId);
    },
  };
}
