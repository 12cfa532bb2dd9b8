// `folio tenant …`: the operator's commands for one tenant of the team service: its standing
// (suspend / activate), its plan and the plans' retention, and erasure (a user's data or the whole
// tenant, every row and file but the usage numbers billing needs).
import pg from 'pg';
import { TENANT_STATUS_TTL_MS } from '../tenancy/tenant-status';
import { CliInputError, type Translate } from './cli-messages';
import { operatorCommand, operatorTranslate, type OperatorCommandIo } from './operator-command';
import { eraseTenant, eraseUser } from './tenant-erasure';
import { isScopeId } from '../tenancy/scope-id';

export type TenantCommandIo = OperatorCommandIo;

const ACTIONS = ['show', 'suspend', 'activate', 'set-plan', 'erase-user', 'erase'] as const;
type Action = (typeof ACTIONS)[number];

export async function tenantCommand(argv: string[], io: TenantCommandIo = {}): Promise<number> {
  const t = await operatorTranslate(io);
  const call = operatorCommand(argv, io, {
    usage: t('tenant.usage'),
    actions: ACTIONS,
    storageRoot: true,
    required: ['tenant'],
    options: { tenant: { type: 'string' }, user: { type: 'string' }, reason: { type: 'string' }, plan: { type: 'string' }, yes: { type: 'boolean' } },
  });
  if (!call) return 1;
  const { action, database, storageRoot, values, out } = call;
  const tenant = values.tenant as string;
  if (!isScopeId(tenant)) throw new CliInputError('tenant.badId');
  const erasing = action === 'erase' || action === 'erase-user';
  if (erasing && !storageRoot) throw new CliInputError('tenant.needsStorageRoot', { action });
  if (erasing && values.yes !== true) throw new CliInputError('tenant.needsYes', { action });
  if (action === 'erase-user' && typeof values.user !== 'string') throw new CliInputError('tenant.needsUser');
  if (action === 'set-plan' && typeof values.plan !== 'string') throw new CliInputError('tenant.needsPlan');

  const client = new pg.Client({ connectionString: database });
  await client.connect();
  try {
    return await run(action, client, { tenant, storageRoot: storageRoot ?? '', user: values.user as string, reason: values.reason as string | undefined, plan: values.plan as string }, out, t);
  } finally {
    await client.end();
  }
}

interface Args {
  tenant: string;
  storageRoot: string;
  user: string;
  reason: string | undefined;
  plan: string;
}

async function run(action: Action, db: pg.Client, a: Args, out: (line: string) => void, t: Translate): Promise<number> {
  const later = t('tenant.later', { seconds: TENANT_STATUS_TTL_MS / 1000 });
  switch (action) {
    case 'suspend':
    case 'activate': {
      const status = action === 'suspend' ? 'suspended' : 'active';
      await db.query(
        `INSERT INTO tenants (id, created_at, status, status_reason) VALUES ($1, $2, $3, $4)
         ON CONFLICT (id) DO UPDATE SET status = EXCLUDED.status, status_reason = EXCLUDED.status_reason`,
        [a.tenant, Date.now(), status, action === 'suspend' ? (a.reason ?? null) : null],
      );
      out(t(`tenant.${status}`, { tenant: a.tenant, later }));
      return 0;
    }
    case 'set-plan':
      await db.query('INSERT INTO tenants (id, created_at, plan) VALUES ($1, $2, $3) ON CONFLICT (id) DO UPDATE SET plan = EXCLUDED.plan', [a.tenant, Date.now(), a.plan]);
      out(t('tenant.onPlan', { tenant: a.tenant, plan: a.plan }));
      return 0;
    case 'erase-user': {
      const { tasks } = await eraseUser({ db, storageRoot: a.storageRoot }, a.tenant, a.user);
      out(t('tenant.erasedUser', { user: a.user, tenant: a.tenant, tasks }));
      return 0;
    }
    case 'erase':
      await eraseTenant({ db, storageRoot: a.storageRoot }, a.tenant);
      out(t('tenant.erased', { tenant: a.tenant }));
      return 0;
    case 'show': {
      const { rows } = await db.query<{ status: string; status_reason: string | null; plan: string; created_at: number; users: number; tasks: number }>(
        `SELECT t.status, t.status_reason, t.plan, t.created_at,
                (SELECT count(*)::int FROM users u WHERE u.tenant_id = t.id) AS users,
                (SELECT count(*)::int FROM tasks k WHERE k.tenant_id = t.id) AS tasks
         FROM tenants t WHERE t.id = $1`,
        [a.tenant],
      );
      const row = rows[0];
      if (!row) {
        out(t('tenant.none', { tenant: a.tenant }));
        return 2;
      }
      out(
        t('tenant.show', {
          tenant: a.tenant,
          status: t(`tenant.status.${row.status}`, { defaultValue: row.status }),
          reason: row.status_reason ? t('tenant.reason', { reason: row.status_reason }) : '',
          plan: row.plan,
          users: row.users,
          tasks: row.tasks,
        }),
      );
      return 0;
    }
  }
}
