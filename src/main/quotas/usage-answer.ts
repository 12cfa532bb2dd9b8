// `getUsage` in the team service: the asking user's month from the ledger, per task, with the
// tenant's quotas. The service's handler calls this in service mode and keeps the desktop's answer
// (the store's all-time totals) otherwise.
//
// A user sees their own usage only: `total`, `users` (their one row) and `tasks` are read from their
// own ledger rows, so no other user's id, tasks or spending reaches them. What the tenant as a whole
// has used shows only as each quota's `used` and `storage_bytes`: numbers a user needs to know why
// a request is refused, naming nobody. The tenancy model has no tenant admin (a token names a
// tenant and a user, nothing more), so the per-user breakdown of a tenant is the platform's: the
// operator reads it from `usage_events` (docs/deploy.md).
import type { MethodOutput, MethodParsedInput } from '../../shared/contract';
import type { Scope } from '../store/port';
import type { QuotaGuard } from './quota-guard';
import type { UsageLedger } from './usage-ledger';

export interface UsageAnswerDeps {
  ledger: UsageLedger;
  guard: QuotaGuard;
  /** Task titles by id, read from the tenant's tasks; tasks it does not name get an empty title. */
  taskTitles?: (scope: Scope, taskIds: string[]) => Promise<Map<string, string>>;
}

export async function tenantUsageAnswer(scope: Scope, input: MethodParsedInput<'getUsage'>, deps: UsageAnswerDeps): Promise<MethodOutput<'getUsage'>> {
  const report = await deps.ledger.report(scope, input.period === undefined ? undefined : { month: input.period }, { onlyUser: true });
  const quotas = await deps.guard.status(scope.tenant_id);
  const titles = deps.taskTitles && report.tasks.length > 0 ? await deps.taskTitles(scope, report.tasks.map((t) => t.task_id)) : new Map<string, string>();
  const { prompt_tokens, completion_tokens, cost } = report.total;
  return {
    total: { prompt_tokens, completion_tokens, cost },
    tasks: report.tasks.map((t) => ({ ...t, title: titles.get(t.task_id) ?? '' })),
    tenant_id: report.tenant_id,
    period: report.period,
    users: report.users,
    storage_bytes: report.storage_bytes,
    quotas,
  };
}
