// `folio quota get|set`: an operator reads or changes one tenant's quotas in the team database, and
// sees the month's use per user (the view `GET /v1/usage` gives no user of the tenant: each user
// sees their own).
// Limits not set for the tenant come from the server's defaults, read from this environment as
// `folio serve` reads them (FOLIO_QUOTA_*, FOLIO_REQUESTS_PER_MINUTE; a worker's flags may differ,
// which is why `get` says which value is the tenant's own); live runs are counted as the service
// counts them, by unexpired lease.
import pg from 'pg';
import { leasedRunCounter } from '../cluster/leases';
import { parseQuotaValue, QUOTA_CACHE_TTL_MS, quotaNames, quotaOptionName, type QuotaPatch } from '../quotas/limits';
import { formatCount } from '../quotas/quota-guard';
import { createTeamQuotas } from '../quotas/team-quotas';
import { monthOf, resetDay } from '../quotas/usage-period';
import { serviceQuotaDefaults } from '../tenancy';
import { CliInputError } from './cli-messages';
import { operatorCommand, operatorTranslate, type OperatorCommandIo } from './operator-command';

export type QuotaCommandIo = OperatorCommandIo;

export async function quotaCommand(argv: string[], io: QuotaCommandIo = {}): Promise<number> {
  const quotaOptions = Object.fromEntries(quotaNames.map((name) => [quotaOptionName(name), { type: 'string' as const }]));
  const t = await operatorTranslate(io);
  const call = operatorCommand(argv, io, { usage: t('quota.usage', { quotas: quotaNames.map(quotaOptionName).join(', ') }), actions: ['get', 'set'] as const, required: ['tenant'], options: { tenant: { type: 'string' }, ...quotaOptions } });
  if (!call) return 1;
  const { action, database, values, env, out } = call;
  const tenant = values.tenant as string;
  const patch: QuotaPatch = {};
  for (const name of quotaNames) {
    const raw = values[quotaOptionName(name)];
    if (typeof raw !== 'string') continue;
    patch[name] = raw.trim().toLowerCase() === 'default' ? null : parseQuotaValue(`--${quotaOptionName(name)}`, raw, name);
  }
  if (action === 'get' && Object.keys(patch).length > 0) throw new CliInputError('quota.getTakesNone');
  if (action === 'set' && Object.keys(patch).length === 0) throw new CliInputError('quota.setNeedsOne', { option: quotaOptionName('tokens_per_month') });

  const client = new pg.Client({ connectionString: database });
  await client.connect();
  try {
    const { table, guard, ledger } = createTeamQuotas({ db: client, defaults: serviceQuotaDefaults(env), liveRuns: leasedRunCounter(client) });
    if (action === 'set') await table.set(tenant, patch);
    const own = await table.get(tenant);
    const status = await guard.status(tenant);
    const month = monthOf(Date.now());
    out(t('quota.header', { tenant, month: month.label, reset: resetDay(month) }));
    for (const { name, limit, used } of status) {
      const shown = limit === null ? t('quota.unlimited') : formatCount(limit);
      const source = own[name] === undefined ? t('quota.fromDefault') : t('quota.fromTenant');
      out(`  ${quotaOptionName(name).padEnd(20)} ${shown.padStart(16)}  (${source})${used === null ? '' : t('quota.used', { count: formatCount(used) })}`);
    }
    // The whole tenant: the scope's user is not read unless a report asks for one user's rows only.
    const { users } = await ledger.report({ tenant_id: tenant, user_id: '' }, { month: month.label });
    out(users.length === 0 ? t('quota.noUse', { month: month.label }) : t('quota.usePerUser', { month: month.label }));
    for (const u of users) {
      out(
        t('quota.userRow', {
          user: u.user_id.padEnd(20),
          tokens: formatCount(u.prompt_tokens + u.completion_tokens).padStart(14),
          cost: u.cost.toFixed(4),
          runs: formatCount(u.runs),
          bytes: formatCount(u.upload_bytes),
        }),
      );
    }
    if (action === 'set') out(t('quota.later', { seconds: QUOTA_CACHE_TTL_MS / 1000 }));
    return 0;
  } finally {
    await client.end();
  }
}
