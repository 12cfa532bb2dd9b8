// `folio tenant …`: the operator's commands for one tenant of the team service: its standing
// (suspend / activate), its plan and the plans' retention, and erasure (a user's data or the whole
// tenant, every row and file but the usage numbers billing needs).
import pg from 'pg';
import { FolioError } from '../../shared/folio-error';
import { TENANT_STATUS_TTL_MS } from '../tenancy/tenant-status';
import { operatorCommand, type OperatorCommandIo } from './operator-command';
import { eraseTenant, eraseUser } from './tenant-erasure';
import { isScopeId } from '../tenancy/scope-id';

export const TENANT_USAGE = `Usage: folio tenant show      --database <url> --tenant <id>
       folio tenant suspend   --database <url> --tenant <id> [--reason TEXT]
       folio tenant activate  --database <url> --tenant <id>
       folio tenant set-plan  --database <url> --tenant <id> --plan <name>
       folio tenant erase-user --database <url> --storage-root <dir> --tenant <id> --user <id> --yes
       folio tenant erase     --database <url> --storage-root <dir> --tenant <id> --yes

The database defaults to FOLIO_DATABASE_URL, the storage root to FOLIO_STORAGE_ROOT.
erase-user deletes the user's tasks (messages, runs, events, approvals, files); erase deletes every
row and file of the tenant. Both keep usage_events (numbers for billing, no content).`;

export type TenantCommandIo = OperatorCommandIo;

const ACTIONS = ['show', 'suspend', 'activate', 'set-plan', 'erase-user', 'erase'] as const;
type Action = (typeof ACTIONS)[number];

export async function tenantCommand(argv: string[], io: TenantCommandIo = {}): Promise<number> {
  const call = operatorCommand(argv, io, {
    usage: TENANT_USAGE,
    actions: ACTIONS,
    storageRoot: true,
    required: ['tenant'],
    options: { tenant: { type: 'string' }, user: { type: 'string' }, reason: { type: 'string' }, plan: { type: 'string' }, yes: { type: 'boolean' } },
  });
  if (!call) return 1;
  const { action, database, storageRoot, values, out } = call;
  const tenant = values.tenant as string;
  if (!isScopeId(tenant)) throw new FolioError('invalid_input', '--tenant: 1–64 of A-Z a-z 0-9 _ -');
  const erasing = action === 'erase' || action === 'erase-user';
  if (erasing && !storageRoot) throw new FolioError('invalid_input', `\`folio tenant ${action}\` needs --storage-root (its files are deleted too)`);
  if (erasing && values.yes !== true) throw new FolioError('invalid_input', `\`folio tenant ${action}\` deletes data for good; add --yes`);
  if (action === 'erase-user' && typeof values.user !== 'string') throw new FolioError('invalid_input', '`folio tenant erase-user` needs --user');
  if (action === 'set-plan' && typeof values.plan !== 'string') throw new FolioError('invalid_input', '`folio tenant set-plan` needs --plan');

  const client = new pg.Client({ connectionString: database });
  await client.connect();
  try {
    return await run(action, client, { tenant, storageRoot: storageRoot ?? '', user: values.user as string, reason: values.reason as string | undefined, plan: values.plan as string }, out);
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

async function run(action: Action, db: pg.Client, a: Args, out: (line: string) => void): Promise<number> {
  const later = `Running workers apply the change within ${TENANT_STATUS_TTL_MS / 1000} s.`;
  switch (action) {
    case 'suspend':
    case 'activate': {
      const status = action === 'suspend' ? 'suspended' : 'active';
      await db.query(
        `INSERT INTO tenants (id, created_at, status, status_reason) VALUES ($1, $2, $3, $4)
         ON CONFLICT (id) DO UPDATE SET status = EXCLUDED.status, status_reason = EXCLUDED.status_reason`,
        [a.tenant, Date.now(), status, action === 'suspend' ? (a.reason ?? null) : null],
      );
      out(`Tenant ${a.tenant} is ${status}. ${later}`);
      return 0;
    }
    case 'set-plan':
      await db.query('INSERT INTO tenants (id, created_at, plan) VALUES ($1, $2, $3) ON CONFLICT (id) DO UPDATE SET plan = EXCLUDED.plan', [a.tenant, Date.now(), a.plan]);
      out(`Tenant ${a.tenant} is on plan ${a.plan}.`);
      return 0;
    case 'erase-user': {
      const { tasks } = await eraseUser({ db, storageRoot: a.storageRoot }, a.tenant, a.user);
      out(`Erased user ${a.user} of tenant ${a.tenant}: ${tasks} task(s) with their messages, runs, events, approvals and files. Usage numbers are kept.`);
      return 0;
    }
    case 'erase':
      await eraseTenant({ db, storageRoot: a.storageRoot }, a.tenant);
      out(`Erased tenant ${a.tenant}: every row and file but its usage numbers. Stop its traffic at the platform: a new request would create it again.`);
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
        out(`No tenant ${a.tenant} (it is created on its first request).`);
        return 2;
      }
      out(`Tenant ${a.tenant}: ${row.status}${row.status_reason ? ` (${row.status_reason})` : ''}, plan ${row.plan}, ${row.users} user(s), ${row.tasks} task(s)`);
      return 0;
    }
  }
}
