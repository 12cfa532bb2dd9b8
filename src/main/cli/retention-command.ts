// `folio retention …`: the operator's commands for retention per plan in the team service: set a
// plan's retention, see the plans, and run a pass by hand (`--dry-run` lists what it would do). The
// workers run the same pass on their own every hour, one at a time (retention.ts).
import { FolioError } from '../../shared/folio-error';
import { openPgStore } from '../store/postgres';
import { operatorCommand, type OperatorCommandIo } from './operator-command';
import { describeRetention, planRetention, runRetention } from './retention';

export const RETENTION_USAGE = `Usage: folio retention set-plan --database <url> --plan <name> [--archive-after-days N|never] [--purge-files-after-days N|never]
       folio retention show     --database <url>
       folio retention run      --database <url> --storage-root <dir> [--dry-run]

A task unused for its plan's archive-after-days is archived and its person told in the task when its
files go; purge-files-after-days after that, unless the task was used again, its files are removed
(the conversation is kept and the storage is freed). "never" keeps forever (the default). Tenants
are put on a plan with \`folio tenant set-plan\`; a tenant's plan without a row here keeps forever.
The database defaults to FOLIO_DATABASE_URL, the storage root to FOLIO_STORAGE_ROOT.`;

export interface RetentionCommandIo extends OperatorCommandIo {
  /** The pass's clock (tests). */
  now?: number;
}

const ACTIONS = ['set-plan', 'show', 'run'] as const;
type Action = (typeof ACTIONS)[number];

/** Whole days ≥ 1, or "never" (null). */
function parseDays(flag: string, raw: string | undefined): number | null | undefined {
  if (raw === undefined) return undefined;
  if (raw.trim().toLowerCase() === 'never') return null;
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < 1) throw new FolioError('invalid_input', `${flag}: a whole number of days ≥ 1, or "never" (got ${JSON.stringify(raw)})`);
  return n;
}

export async function retentionCommand(argv: string[], io: RetentionCommandIo = {}): Promise<number> {
  const call = operatorCommand(argv, io, {
    usage: RETENTION_USAGE,
    actions: ACTIONS,
    storageRoot: true,
    options: { plan: { type: 'string' }, 'archive-after-days': { type: 'string' }, 'purge-files-after-days': { type: 'string' }, 'dry-run': { type: 'boolean' } },
  });
  if (!call) return 1;
  const { action, database, storageRoot, values, out } = call;
  if (action === 'run' && !storageRoot) throw new FolioError('invalid_input', '`folio retention run` needs --storage-root (archived tasks lose their files there)');
  const archive = parseDays('--archive-after-days', values['archive-after-days'] as string | undefined);
  const purge = parseDays('--purge-files-after-days', values['purge-files-after-days'] as string | undefined);
  if (action === 'set-plan' && typeof values.plan !== 'string') throw new FolioError('invalid_input', '`folio retention set-plan` needs --plan');

  const backend = await openPgStore(database);
  try {
    return await run(action, backend, { plan: values.plan as string, archive, purge, storageRoot: storageRoot ?? '', dryRun: values['dry-run'] === true, now: io.now ?? Date.now() }, out);
  } finally {
    await backend.close();
  }
}

interface Args {
  plan: string;
  archive: number | null | undefined;
  purge: number | null | undefined;
  storageRoot: string;
  dryRun: boolean;
  now: number;
}

const daysText = (n: number | null) => (n === null ? 'never' : `${n} days`);

async function run(action: Action, backend: Awaited<ReturnType<typeof openPgStore>>, a: Args, out: (line: string) => void): Promise<number> {
  const { pool } = backend;
  switch (action) {
    case 'set-plan': {
      // Only the values given change; a new plan starts with the rest "never".
      const { rows } = await pool.query<{ archive_after_days: number | null; purge_files_after_days: number | null }>(
        `INSERT INTO plans (id, archive_after_days, purge_files_after_days, updated_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (id) DO UPDATE SET
           archive_after_days = CASE WHEN $5 THEN EXCLUDED.archive_after_days ELSE plans.archive_after_days END,
           purge_files_after_days = CASE WHEN $6 THEN EXCLUDED.purge_files_after_days ELSE plans.purge_files_after_days END,
           updated_at = EXCLUDED.updated_at
         RETURNING archive_after_days, purge_files_after_days`,
        [a.plan, a.archive ?? null, a.purge ?? null, Date.now(), a.archive !== undefined, a.purge !== undefined],
      );
      out(`Plan ${a.plan}: archive tasks unused for ${daysText(rows[0].archive_after_days)}; remove an archived task's files after ${daysText(rows[0].purge_files_after_days)}.`);
      return 0;
    }
    case 'show': {
      const { rows } = await pool.query<{ id: string; archive_after_days: number | null; purge_files_after_days: number | null; tenants: number }>(
        `SELECT p.id, p.archive_after_days, p.purge_files_after_days, (SELECT count(*)::int FROM tenants n WHERE n.plan = p.id) AS tenants FROM plans p ORDER BY p.id`,
      );
      if (rows.length === 0) out('No plans with retention: every task and file is kept.');
      for (const r of rows) out(`${r.id}: archive after ${daysText(r.archive_after_days)}, files removed ${daysText(r.purge_files_after_days)} after archiving, ${r.tenants} tenant(s)`);
      return 0;
    }
    case 'run': {
      if (a.dryRun) {
        for (const line of describeRetention(await planRetention(pool, a.storageRoot, a.now), (action) => `would ${action}`)) out(line);
        return 0;
      }
      const done = await runRetention({ backend, storageRoot: a.storageRoot }, a.now);
      if (done === null) {
        out('Another retention pass is running (a worker holds the lock); nothing done.');
        return 3;
      }
      for (const line of describeRetention(done)) out(line);
      return 0;
    }
  }
}
