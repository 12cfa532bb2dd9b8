// Usage as an append-only ledger: every model call, upload, change of stored bytes and run start is
// one row, never updated or deleted, and every total is a sum over rows. A report can therefore be
// recomputed for any period, and two workers recording at once never lose each other's counts
// (which a read-modify-write counter would).
import { FolioError } from '../../shared/folio-error';
import type { Scope } from '../store/port';
import { inTransaction, toNumber, type SqlClient } from './sql';
import { resolvePeriod, type UsagePeriod, type UsagePeriodInput } from './usage-period';

export type UsageEvent =
  /**
   * One model call's tokens and cost (a run's `usage` event); `platform_cost`: what a call to a
   * model the operator offers cost the platform (recorded on a row of its own, with no tokens).
   */
  | { kind: 'tokens'; task_id?: string; run_id?: string; prompt_tokens: number; completion_tokens: number; cost: number; platform_cost?: number }
  /** Bytes received in one upload, counted against the month's traffic. */
  | { kind: 'upload'; task_id?: string; bytes: number }
  /**
   * Stored bytes added (positive) or freed (negative): storage is a level, not a flow, so the
   * bytes a tenant holds now are the sum of all its storage rows, whatever the period.
   */
  | { kind: 'storage'; task_id?: string; bytes: number }
  | { kind: 'run'; task_id: string; run_id: string };

export interface UsageTotals {
  prompt_tokens: number;
  completion_tokens: number;
  cost: number;
  upload_bytes: number;
  runs: number;
}

export interface UserUsage extends UsageTotals {
  user_id: string;
}

export interface TaskTokenUsage {
  task_id: string;
  prompt_tokens: number;
  completion_tokens: number;
  cost: number;
}

export interface TenantUsageReport {
  tenant_id: string;
  period: UsagePeriod;
  total: UsageTotals;
  /** Users with any usage in the period, most expensive first. */
  users: UserUsage[];
  /** Tasks with tokens in the period, most expensive first. */
  tasks: TaskTokenUsage[];
  /** Bytes the tenant stores now (all storage rows, not only the period's). */
  storage_bytes: number;
}

export interface UsageLedger {
  record(scope: Scope, event: UsageEvent): Promise<void>;
  /**
   * The tenant's usage for the period (this calendar month in UTC by default), per user and per
   * task; with `onlyUser`, the scope's user's own rows alone (storage stays the tenant's level).
   */
  report(scope: Scope, period?: UsagePeriodInput, options?: ReportOptions): Promise<TenantUsageReport>;
  /** Prompt plus completion tokens of the tenant in the period: read before every model call. */
  tokensUsed(tenantId: string, period: UsagePeriod): Promise<number>;
  /** Money the tenant's calls to the operator's models cost in the period: read before each such call. */
  platformCost(tenantId: string, period: UsagePeriod): Promise<number>;
  /** Bytes the tenant stores now: read before every upload. */
  storedBytes(tenantId: string): Promise<number>;
  /** Bytes charged to one task now (its uploads and the files its runs wrote, less what was freed). */
  taskStoredBytes(tenantId: string, taskId: string): Promise<number>;
  /**
   * Adds `bytes` to the tenant's storage if the total stays within `limit` (null: no limit). The
   * check and the new row are one step for the tenant (its storage lock in PostgreSQL), so two
   * uploads at once cannot both pass on the same free space. Refused, it says what is stored.
   */
  chargeStorage(scope: Scope, charge: StorageCharge, limit: number | null): Promise<StorageChargeResult>;
}

export interface StorageCharge {
  task_id?: string;
  bytes: number;
}

export type StorageChargeResult = { charged: true } | { charged: false; stored: number };

export interface ReportOptions {
  /** Read only the rows of `scope.user_id`: what a user of the tenant may see of it. */
  onlyUser?: boolean;
}

export interface UsageLedgerOptions {
  now?: () => number;
}

interface LedgerRow {
  tenant_id: string;
  user_id: string;
  task_id: string | null;
  run_id: string | null;
  kind: UsageEvent['kind'];
  prompt_tokens: number;
  completion_tokens: number;
  cost: number;
  platform_cost: number;
  bytes: number;
  at: number;
}

function wholeNumber(field: string, value: number, { signed = false } = {}): number {
  if (!Number.isSafeInteger(value) || (!signed && value < 0)) {
    throw new FolioError('invalid_input', `usage ${field}: expected a whole number${signed ? '' : ' ≥ 0'}, got ${value}`);
  }
  return value;
}

/** The event as the row it becomes, checked: a bad count would skew every later total. */
function toRow(scope: Scope, event: UsageEvent, at: number): LedgerRow {
  const row: LedgerRow = {
    tenant_id: scope.tenant_id,
    user_id: scope.user_id,
    task_id: event.task_id ?? null,
    run_id: null,
    kind: event.kind,
    prompt_tokens: 0,
    completion_tokens: 0,
    cost: 0,
    platform_cost: 0,
    bytes: 0,
    at,
  };
  switch (event.kind) {
    case 'tokens':
      row.run_id = event.run_id ?? null;
      row.prompt_tokens = wholeNumber('prompt_tokens', event.prompt_tokens);
      row.completion_tokens = wholeNumber('completion_tokens', event.completion_tokens);
      if (!Number.isFinite(event.cost) || event.cost < 0) throw new FolioError('invalid_input', `usage cost: expected a number ≥ 0, got ${event.cost}`);
      row.cost = event.cost;
      if (event.platform_cost !== undefined) {
        if (!Number.isFinite(event.platform_cost) || event.platform_cost < 0) throw new FolioError('invalid_input', `usage platform_cost: expected a number ≥ 0, got ${event.platform_cost}`);
        row.platform_cost = event.platform_cost;
      }
      break;
    case 'upload':
      row.bytes = wholeNumber('bytes', event.bytes);
      break;
    case 'storage':
      row.bytes = wholeNumber('bytes', event.bytes, { signed: true });
      break;
    case 'run':
      row.run_id = event.run_id;
      break;
  }
  return row;
}

function byCost<T extends { cost: number; prompt_tokens: number; completion_tokens: number }>(key: (row: T) => string) {
  return (a: T, b: T) => b.cost - a.cost || b.prompt_tokens + b.completion_tokens - (a.prompt_tokens + a.completion_tokens) || key(a).localeCompare(key(b));
}

function sumUsers(users: UserUsage[]): UsageTotals {
  const total: UsageTotals = { prompt_tokens: 0, completion_tokens: 0, cost: 0, upload_bytes: 0, runs: 0 };
  for (const u of users) {
    total.prompt_tokens += u.prompt_tokens;
    total.completion_tokens += u.completion_tokens;
    total.cost += u.cost;
    total.upload_bytes += u.upload_bytes;
    total.runs += u.runs;
  }
  return total;
}

const ROW_COLUMNS = ['tenant_id', 'user_id', 'task_id', 'run_id', 'kind', 'prompt_tokens', 'completion_tokens', 'cost', 'platform_cost', 'bytes', 'at'] as const;

/** The ledger in the `usage_events` table. It only ever INSERTs and SELECTs. */
export function createPgUsageLedger(db: SqlClient, { now = Date.now }: UsageLedgerOptions = {}): UsageLedger {
  async function storedBytes(tenantId: string, client: SqlClient = db): Promise<number> {
    const { rows } = await client.query(`SELECT SUM(bytes) AS bytes FROM usage_events WHERE tenant_id = $1 AND kind = 'storage'`, [tenantId]);
    return toNumber(rows[0]?.bytes);
  }
  async function insert(row: LedgerRow, client: SqlClient = db): Promise<void> {
    await client.query(
      `INSERT INTO usage_events (${ROW_COLUMNS.join(', ')}) VALUES (${ROW_COLUMNS.map((_, i) => `$${i + 1}`).join(', ')})`,
      ROW_COLUMNS.map((column) => row[column]),
    );
  }
  return {
    async record(scope, event) {
      await insert(toRow(scope, event, now()));
    },
    async chargeStorage(scope, charge, limit) {
      const row = toRow(scope, { kind: 'storage', ...charge }, now());
      if (limit === null) {
        await insert(row);
        return { charged: true };
      }
      // Under the tenant's storage lock each statement reads what the previous holder committed, so
      // the sum below includes every charge made before this one, on any worker.
      return inTransaction(db, async (tx) => {
        await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [storageLockKey(scope.tenant_id)]);
        const stored = await storedBytes(scope.tenant_id, tx);
        if (stored + row.bytes > limit) return { charged: false, stored };
        await insert(row, tx);
        return { charged: true };
      });
    },
    async report(scope, input, options = {}) {
      const period = resolvePeriod(input, now());
      const args: unknown[] = [scope.tenant_id, period.since, period.until];
      let rowsOf = '';
      if (options.onlyUser) {
        args.push(scope.user_id);
        rowsOf = ' AND user_id = $4';
      }
      // One query at a time: a pg.Client (a transaction's, say) must not be given two at once.
      const users = await db.query(
        `SELECT user_id, SUM(prompt_tokens) AS prompt_tokens, SUM(completion_tokens) AS completion_tokens, SUM(cost) AS cost,
           SUM(bytes) FILTER (WHERE kind = 'upload') AS upload_bytes, COUNT(*) FILTER (WHERE kind = 'run') AS runs
         FROM usage_events WHERE tenant_id = $1 AND at >= $2 AND at < $3 AND kind <> 'storage'${rowsOf}
         GROUP BY user_id`,
        args,
      );
      const tasks = await db.query(
        `SELECT task_id, SUM(prompt_tokens) AS prompt_tokens, SUM(completion_tokens) AS completion_tokens, SUM(cost) AS cost
         FROM usage_events WHERE tenant_id = $1 AND at >= $2 AND at < $3 AND kind = 'tokens' AND task_id IS NOT NULL${rowsOf}
         GROUP BY task_id`,
        args,
      );
      const storageBytes = await storedBytes(scope.tenant_id);
      const userRows: UserUsage[] = users.rows.map((r) => ({
        user_id: String(r.user_id),
        prompt_tokens: toNumber(r.prompt_tokens),
        completion_tokens: toNumber(r.completion_tokens),
        cost: toNumber(r.cost),
        upload_bytes: toNumber(r.upload_bytes),
        runs: toNumber(r.runs),
      }));
      const taskRows: TaskTokenUsage[] = tasks.rows.map((r) => ({
        task_id: String(r.task_id),
        prompt_tokens: toNumber(r.prompt_tokens),
        completion_tokens: toNumber(r.completion_tokens),
        cost: toNumber(r.cost),
      }));
      return {
        tenant_id: scope.tenant_id,
        period,
        total: sumUsers(userRows),
        users: userRows.sort(byCost((u) => u.user_id)),
        tasks: taskRows.sort(byCost((t) => t.task_id)),
        storage_bytes: storageBytes,
      };
    },
    async tokensUsed(tenantId, period) {
      // Only this tenant's rows of the period: a range on the (tenant_id, at) index.
      const { rows } = await db.query(
        `SELECT SUM(prompt_tokens + completion_tokens) AS tokens FROM usage_events
         WHERE tenant_id = $1 AND at >= $2 AND at < $3 AND kind = 'tokens'`,
        [tenantId, period.since, period.until],
      );
      return toNumber(rows[0]?.tokens);
    },
    async platformCost(tenantId, period) {
      const { rows } = await db.query(
        `SELECT SUM(platform_cost) AS cost FROM usage_events WHERE tenant_id = $1 AND at >= $2 AND at < $3 AND kind = 'tokens'`,
        [tenantId, period.since, period.until],
      );
      return toNumber(rows[0]?.cost);
    },
    storedBytes: (tenantId) => storedBytes(tenantId),
    async taskStoredBytes(tenantId, taskId) {
      const { rows } = await db.query(`SELECT SUM(bytes) AS bytes FROM usage_events WHERE tenant_id = $1 AND task_id = $2 AND kind = 'storage'`, [tenantId, taskId]);
      return toNumber(rows[0]?.bytes);
    },
  };
}

/** The advisory lock a tenant's storage charges take turns on (the store's tenant locks are named alike). */
function storageLockKey(tenantId: string): string {
  return `folio:${tenantId}:storage`;
}

/** The same ledger in memory: the desktop (one tenant, `local`) and tests. */
export function createMemoryUsageLedger({ now = Date.now }: UsageLedgerOptions = {}): UsageLedger {
  const rows: LedgerRow[] = [];
  const inPeriod = (row: LedgerRow, period: UsagePeriod) => row.at >= period.since && row.at < period.until;
  const storedIn = (tenantId: string) => {
    let bytes = 0;
    for (const row of rows) if (row.tenant_id === tenantId && row.kind === 'storage') bytes += row.bytes;
    return bytes;
  };
  return {
    async record(scope, event) {
      rows.push(toRow(scope, event, now()));
    },
    async report(scope, input, options = {}) {
      const period = resolvePeriod(input, now());
      const users = new Map<string, UserUsage>();
      const tasks = new Map<string, TaskTokenUsage>();
      let storageBytes = 0;
      for (const row of rows) {
        if (row.tenant_id !== scope.tenant_id) continue;
        if (row.kind === 'storage') {
          storageBytes += row.bytes;
          continue;
        }
        if (!inPeriod(row, period) || (options.onlyUser && row.user_id !== scope.user_id)) continue;
        const user = users.get(row.user_id) ?? { user_id: row.user_id, prompt_tokens: 0, completion_tokens: 0, cost: 0, upload_bytes: 0, runs: 0 };
        users.set(row.user_id, user);
        user.prompt_tokens += row.prompt_tokens;
        user.completion_tokens += row.completion_tokens;
        user.cost += row.cost;
        if (row.kind === 'upload') user.upload_bytes += row.bytes;
        if (row.kind === 'run') user.runs += 1;
        if (row.kind === 'tokens' && row.task_id !== null) {
          const task = tasks.get(row.task_id) ?? { task_id: row.task_id, prompt_tokens: 0, completion_tokens: 0, cost: 0 };
          tasks.set(row.task_id, task);
          task.prompt_tokens += row.prompt_tokens;
          task.completion_tokens += row.completion_tokens;
          task.cost += row.cost;
        }
      }
      const userRows = [...users.values()];
      return {
        tenant_id: scope.tenant_id,
        period,
        total: sumUsers(userRows),
        users: userRows.sort(byCost((u) => u.user_id)),
        tasks: [...tasks.values()].sort(byCost((t) => t.task_id)),
        storage_bytes: storageBytes,
      };
    },
    async tokensUsed(tenantId, period) {
      let tokens = 0;
      for (const row of rows) {
        if (row.tenant_id === tenantId && row.kind === 'tokens' && inPeriod(row, period)) tokens += row.prompt_tokens + row.completion_tokens;
      }
      return tokens;
    },
    async platformCost(tenantId, period) {
      let cost = 0;
      for (const row of rows) if (row.tenant_id === tenantId && row.kind === 'tokens' && inPeriod(row, period)) cost += row.platform_cost;
      return cost;
    },
    storedBytes: async (tenantId) => storedIn(tenantId),
    async taskStoredBytes(tenantId, taskId) {
      let bytes = 0;
      for (const row of rows) if (row.tenant_id === tenantId && row.task_id === taskId && row.kind === 'storage') bytes += row.bytes;
      return bytes;
    },
    async chargeStorage(scope, charge, limit) {
      // No await between the sum and the push: one step on the event loop.
      const row = toRow(scope, { kind: 'storage', ...charge }, now());
      const stored = storedIn(scope.tenant_id);
      if (limit !== null && stored + row.bytes > limit) return { charged: false, stored };
      rows.push(row);
      return { charged: true };
    },
  };
}
