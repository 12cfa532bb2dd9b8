// The checks that refuse work over a tenant's quota with a 429 (`quota_exceeded`) whose message
// names the quota, its limit, the current use and the tenant, so an operator reading a log line or
// a person reading the error knows what ran out and what to do.
import { FolioError } from '../../shared/folio-error';
import type { Scope } from '../store/port';
import { quotaNames, type QuotaLimitsSource, type QuotaName } from './limits';
import { toNumber, type SqlClient } from './sql';
import type { UsageLedger } from './usage-ledger';
import { monthOf, resetDay } from './usage-period';

/** How many runs of a tenant are live now, on every worker. */
export interface LiveRunCounter {
  liveRuns(tenantId: string): Promise<number>;
}

/**
 * Counts the tenant's `runs` rows still `running`. A run a dead worker left behind stays `running`
 * until its lease expires and it is marked `interrupted`, so it holds its slot until then; the team
 * service counts by lease instead (`leasedRunCounter` in cluster/leases.ts, which owns that table).
 */
export function createPgLiveRunCounter(db: SqlClient): LiveRunCounter {
  return {
    async liveRuns(tenantId) {
      const { rows } = await db.query(`SELECT COUNT(*) AS n FROM runs WHERE tenant_id = $1 AND status = 'running'`, [tenantId]);
      return toNumber(rows[0]?.n);
    },
  };
}

export interface QuotaStatus {
  name: QuotaName;
  /** null: unlimited. */
  limit: number | null;
  /** The use the limit is compared with now; null for limits per request (upload size, request rate). */
  used: number | null;
}

export interface QuotaGuard {
  /** Before a run starts: the tenant's live runs and this month's tokens. */
  beforeRunStart(scope: Scope): Promise<void>;
  /**
   * Before each model call of a run. The call that crosses the limit is allowed to finish (its
   * tokens are only known afterwards); the next one is refused, and the run ends with this error.
   * A call to a model the operator offers (`platform`) is also held to the money budget.
   */
  beforeModelCall(scope: Scope, call?: { platform: boolean; currency?: string }): Promise<void>;
  /** Before an upload of `bytes` is accepted: its size and the storage it would fill. */
  beforeUpload(scope: Scope, bytes: number): Promise<void>;
  /**
   * Checks an upload of `bytes` as `beforeUpload` does and, in the same step, charges them to the
   * tenant's storage, so two uploads at once cannot both take the same free space. The caller
   * settles the reservation with what it stored in the end (nothing, when the upload failed).
   */
  reserveUpload(scope: Scope, bytes: number, taskId?: string): Promise<StorageReservation>;
  /**
   * The most bytes one upload may have now (the smaller of the upload size and the free storage),
   * null: unlimited. A streamed upload whose length is not known up front stops reading there and
   * calls `beforeUpload` with the bytes seen, which throws the message naming the quota.
   */
  uploadAllowance(scope: Scope): Promise<number | null>;
  /**
   * The tenant's request rate limit, for the rate limiter in front of `/v1`; null: unlimited. A
   * property, so the limiter can be handed it alone.
   */
  readonly requestsPerMinute: (tenantId: string) => Promise<number | null>;
  /** Every quota with its limit and the tenant's current use, for `GET /v1/usage` and `folio quota get`. */
  status(tenantId: string): Promise<QuotaStatus[]>;
}

/** Bytes charged to a tenant's storage before they are written. */
export interface StorageReservation {
  readonly bytes: number;
  /**
   * The bytes the upload stored in the end (0 when it failed): the difference goes back to the
   * tenant. Called once; later calls change nothing.
   */
  settle(stored: number): Promise<void>;
}

export interface QuotaGuardOptions {
  limits: QuotaLimitsSource;
  ledger: UsageLedger;
  liveRuns: LiveRunCounter;
  now?: () => number;
}

/** 1204331 → "1,204,331", the same on every machine whatever its locale. */
export function formatCount(n: number): string {
  const [whole, fraction] = String(n).split('.');
  return whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',') + (fraction === undefined ? '' : `.${fraction}`);
}

function exceeded(message: string): FolioError {
  return new FolioError('quota_exceeded', message, { name: 'QuotaExceededError' });
}

/** Money: at least two decimals, more when a small budget needs them (0.004 stays 0.004). */
function formatMoney(n: number): string {
  return n >= 1 || n === 0 ? n.toFixed(2) : String(Number(n.toPrecision(3)));
}

function checkUploadSize(tenantId: string, bytes: number, limit: number | null): void {
  if (limit !== null && bytes > limit) {
    throw exceeded(`Upload size: ${formatCount(bytes)} bytes, over the limit of ${formatCount(limit)} bytes per upload (tenant ${tenantId}).`);
  }
}

function storageExceeded(tenantId: string, stored: number, bytes: number, limit: number): FolioError {
  return exceeded(
    `Storage: ${formatCount(stored)} of ${formatCount(limit)} bytes used (tenant ${tenantId}); ` +
      `this upload of ${formatCount(bytes)} bytes would pass the limit. Delete files to free space.`,
  );
}

export function createQuotaGuard({ limits, ledger, liveRuns, now = Date.now }: QuotaGuardOptions): QuotaGuard {
  async function checkTokens(tenantId: string, limit: number | null): Promise<void> {
    if (limit === null) return;
    const month = monthOf(now());
    const tokens = await ledger.tokensUsed(tenantId, month);
    if (tokens >= limit) {
      throw exceeded(`Tokens this month: ${formatCount(tokens)} of ${formatCount(limit)} (tenant ${tenantId}). The quota resets on ${resetDay(month)}.`);
    }
  }

  return {
    async beforeRunStart(scope) {
      const tenant = await limits.limitsFor(scope.tenant_id);
      if (tenant.max_concurrent_runs !== null) {
        const live = await liveRuns.liveRuns(scope.tenant_id);
        if (live >= tenant.max_concurrent_runs) {
          throw exceeded(
            `Concurrent runs: ${formatCount(live)} of ${formatCount(tenant.max_concurrent_runs)} (tenant ${scope.tenant_id}). ` +
              'A new run can start when one of them finishes or is cancelled.',
          );
        }
      }
      await checkTokens(scope.tenant_id, tenant.tokens_per_month);
    },

    async beforeModelCall(scope, call) {
      const tenant = await limits.limitsFor(scope.tenant_id);
      await checkTokens(scope.tenant_id, tenant.tokens_per_month);
      if (call?.platform !== true || tenant.cost_per_month === null) return;
      const month = monthOf(now());
      const spent = await ledger.platformCost(scope.tenant_id, month);
      if (spent >= tenant.cost_per_month) {
        const currency = call.currency ? ` ${call.currency}` : '';
        throw new FolioError(
          'quota_exceeded',
          `Model budget this month: ${formatMoney(spent)} of ${formatMoney(tenant.cost_per_month)}${currency} spent on the models the service provides (tenant ${scope.tenant_id}). ` +
            `It resets on ${resetDay(month)}; until then use a model with your own key, or ask the operator to raise cost_per_month.`,
          { name: 'BudgetExceededError' },
        );
      }
    },

    async beforeUpload(scope, bytes) {
      const tenant = await limits.limitsFor(scope.tenant_id);
      checkUploadSize(scope.tenant_id, bytes, tenant.upload_bytes);
      if (tenant.storage_bytes !== null) {
        const stored = await ledger.storedBytes(scope.tenant_id);
        if (stored + bytes > tenant.storage_bytes) throw storageExceeded(scope.tenant_id, stored, bytes, tenant.storage_bytes);
      }
    },

    async reserveUpload(scope, bytes, taskId) {
      const tenant = await limits.limitsFor(scope.tenant_id);
      checkUploadSize(scope.tenant_id, bytes, tenant.upload_bytes);
      const charge = { bytes, ...(taskId !== undefined ? { task_id: taskId } : {}) };
      const result = await ledger.chargeStorage(scope, charge, tenant.storage_bytes);
      if (!result.charged) throw storageExceeded(scope.tenant_id, result.stored, bytes, tenant.storage_bytes!);
      let settled = false;
      return {
        bytes,
        async settle(stored) {
          if (settled) return;
          settled = true;
          // Storage is a level: the bytes reserved but not stored are freed by a row of their own.
          if (stored !== bytes) await ledger.record(scope, { kind: 'storage', ...charge, bytes: stored - bytes });
        },
      };
    },

    async uploadAllowance(scope) {
      const tenant = await limits.limitsFor(scope.tenant_id);
      const free = tenant.storage_bytes === null ? null : Math.max(0, tenant.storage_bytes - (await ledger.storedBytes(scope.tenant_id)));
      if (free === null) return tenant.upload_bytes;
      return tenant.upload_bytes === null ? free : Math.min(tenant.upload_bytes, free);
    },

    requestsPerMinute: async (tenantId) => (await limits.limitsFor(tenantId)).requests_per_minute,

    async status(tenantId) {
      // In turn, not at once: the queries may share one connection.
      const tenant = await limits.limitsFor(tenantId);
      const used: Record<QuotaName, number | null> = {
        max_concurrent_runs: await liveRuns.liveRuns(tenantId),
        tokens_per_month: await ledger.tokensUsed(tenantId, monthOf(now())),
        cost_per_month: await ledger.platformCost(tenantId, monthOf(now())),
        storage_bytes: await ledger.storedBytes(tenantId),
        upload_bytes: null,
        requests_per_minute: null,
      };
      return quotaNames.map((name) => ({ name, limit: tenant[name], used: used[name] }));
    },
  };
}
