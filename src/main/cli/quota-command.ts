// `folio quota get|set`: an operator reads or changes one tenant's quotas in the team database, and
// sees the month's use per user (the view `GET /v1/usage` gives no user of the tenant: each user
// sees their own).
// Limits not set for the tenant come from the server's defaults, read from this environment as
// `folio serve` reads them (FOLIO_QUOTA_*, FOLIO_REQUESTS_PER_MINUTE; a worker's flags may differ,
// which is why `get` says which value is the tenant's own); live runs are counted as the service
// counts them, by unexpired lease.
import pg from 'pg';
import { leasedRunCounter } from '../cluster/leases';
import { FolioError } from '../../shared/folio-error';
import { parseQuotaValue, QUOTA_CACHE_TTL_MS, quotaNames, quotaOptionName, type QuotaPatch } from '../quotas/limits';
import { formatCount } from '../quotas/quota-guard';
import { createTeamQuotas } from '../quotas/team-quotas';
import { monthOf, resetDay } from '../quotas/usage-period';
import { serviceQuotaDefaults } from '../tenancy';
import { operatorCommand, type OperatorCommandIo } from './operator-command';

export const QUOTA_USAGE = `Usage: folio quota get --database <url> --tenant <id>
       folio quota set --database <url> --tenant <id> [--<quota> N|unlimited|default ...]

Quotas: ${quotaNames.map(quotaOptionName).join(', ')}
The database defaults to FOLIO_DATABASE_URL; "default" goes back to the server's default (FOLIO_QUOTA_<NAME>).`;

export type QuotaCommandIo = OperatorCommandIo;

export async function quotaCommand(argv: string[], io: QuotaCommandIo = {}): Promise<number> {
  const quotaOptions = Object.fromEntries(quotaNames.map((name) => [quotaOptionName(name), { type: 'string' as const }]));
  const call = operatorCommand(argv, io, { usage: QUOTA_USAGE, actions: ['get', 'set'] as const, required: ['tenant'], options: { tenant: { type: 'string' }, ...quotaOptions } });
  if (!call) return 1;
  const { action, database, values, env, out } = call;
  const tenant = values.tenant as string;
  const patch: QuotaPatch = {};
  for (const name of quotaNames) {
    const raw = values[quotaOptionName(name)];
    if (typeof raw !== 'string') continue;
    patch[name] = raw.trim().toLowerCase() === 'default' ? null : parseQuotaValue(`--${quotaOptionName(name)}`, raw, name);
  }
  if (action === 'get' && Object.keys(patch).length > 0) throw new FolioError('invalid_input', '`folio quota get` takes no quota values; use `folio quota set`.');
  if (action === 'set' && Object.keys(patch).length === 0) throw new FolioError('invalid_input', `\`folio quota set\` needs at least one quota, e.g. --${quotaOptionName('tokens_per_month')} 1000000`);

  const client = new pg.Client({ connectionString: database });
  await client.connect();
  try {
    const { table, guard, ledger } = createTeamQuotas({ db: client, defaults: serviceQuotaDefaults(env), liveRuns: leasedRunCounter(client) });
    if (action === 'set') await table.set(tenant, patch);
    const own = await table.get(tenant);
    const status = await guard.status(tenant);
    const month = monthOf(Date.now());
    out(`Quotas of tenant ${tenant} (tokens counted for ${month.label}, reset on ${resetDay(month)}):`);
    for (const { name, limit, used } of status) {
      const shown = limit === null ? 'unlimited' : formatCount(limit);
      const source = own[name] === undefined ? 'default' : 'tenant';
      out(`  ${quotaOptionName(name).padEnd(20)} ${shown.padStart(16)}  (${source})${used === null ? '' : `  used ${formatCount(used)}`}`);
    }
    // The whole tenant: the scope's user is not read unless a report asks for one user's rows only.
    const { users } = await ledger.report({ tenant_id: tenant, user_id: '' }, { month: month.label });
    out(users.length === 0 ? `No use by any user in ${month.label}.` : `Use per user in ${month.label}:`);
    for (const u of users) {
      out(`  ${u.user_id.padEnd(20)} tokens ${formatCount(u.prompt_tokens + u.completion_tokens).padStart(14)}  cost ${u.cost.toFixed(4)}  runs ${formatCount(u.runs)}  uploaded ${formatCount(u.upload_bytes)} bytes`);
    }
    if (action === 'set') out(`Running workers apply the change within ${QUOTA_CACHE_TTL_MS / 1000} s.`);
    return 0;
  } finally {
    await client.end();
  }
}
