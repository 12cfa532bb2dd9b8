// The quota modules composed for one team-service process on PostgreSQL, as `folio serve
// --multi-tenant` and `folio quota` use them: one place decides which table, ledger and run
// counter go together.
import { createPgQuotaTable, createQuotaLimits, type QuotaLimits, type QuotaLimitsSource, type QuotaTable } from './limits';
import { createPgLiveRunCounter, createQuotaGuard, type LiveRunCounter, type QuotaGuard } from './quota-guard';
import { type SqlClient } from './sql';
import { createPgUsageLedger, type UsageLedger } from './usage-ledger';

export interface TeamQuotas {
  table: QuotaTable;
  limits: QuotaLimitsSource;
  ledger: UsageLedger;
  guard: QuotaGuard;
}

export interface TeamQuotasOptions {
  db: SqlClient;
  /** The server's defaults: `quotaDefaults(process.env, serveFlags)`. */
  defaults: QuotaLimits;
  /** Live runs; `runs` rows still `running` unless the caller counts run leases instead. */
  liveRuns?: LiveRunCounter;
  now?: () => number;
}

export function createTeamQuotas({ db, defaults, liveRuns = createPgLiveRunCounter(db), now = Date.now }: TeamQuotasOptions): TeamQuotas {
  const table = createPgQuotaTable(db, now);
  const limits = createQuotaLimits({ defaults, table, now });
  const ledger = createPgUsageLedger(db, { now });
  return { table, limits, ledger, guard: createQuotaGuard({ limits, ledger, liveRuns, now }) };
}
