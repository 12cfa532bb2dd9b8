// `folio retention …`: the operator's commands for retention per plan in the team service: set a
// plan's retention, see the plans, and run a pass by hand (`--dry-run` lists what it would do). The
// workers run the same pass on their own every hour, one at a time (retention.ts).
import { openPgStore } from '../store/postgres';
import { CliInputError, type Translate } from './cli-messages';
import { operatorCommand, operatorTranslate, type OperatorCommandIo } from './operator-command';
import { describeRetention, planRetention, runRetention } from './retention';

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
  if (!Number.isSafeInteger(n) || n < 1) throw new CliInputError('retention.badDays', { flag, value: JSON.stringify(raw) });
  return n;
}

export async function retentionCommand(argv: string[], io: RetentionCommandIo = {}): Promise<number> {
  const t = await operatorTranslate(io);
  const call = operatorCommand(argv, io, {
    usage: t('retention.usage'),
    actions: ACTIONS,
    storageRoot: true,
    options: { plan: { type: 'string' }, 'archive-after-days': { type: 'string' }, 'purge-files-after-days': { type: 'string' }, 'dry-run': { type: 'boolean' } },
  });
  if (!call) return 1;
  const { action, database, storageRoot, values, out } = call;
  if (action === 'run' && !storageRoot) throw new CliInputError('retention.runNeedsStorageRoot');
  const archive = parseDays('--archive-after-days', values['archive-after-days'] as string | undefined);
  const purge = parseDays('--purge-files-after-days', values['purge-files-after-days'] as string | undefined);
  if (action === 'set-plan' && typeof values.plan !== 'string') throw new CliInputError('retention.needsPlan');

  const backend = await openPgStore(database);
  try {
    return await run(action, backend, { plan: values.plan as string, archive, purge, storageRoot: storageRoot ?? '', dryRun: values['dry-run'] === true, now: io.now ?? Date.now() }, out, t);
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


async function run(action: Action, backend: Awaited<ReturnType<typeof openPgStore>>, a: Args, out: (line: string) => void, t: Translate): Promise<number> {
  const { pool } = backend;
  const daysText = (n: number | null) => (n === null ? t('retention.never') : t('retention.days', { count: n }));
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
      out(t('retention.planSet', { plan: a.plan, archive: daysText(rows[0].archive_after_days), purge: daysText(rows[0].purge_files_after_days) }));
      return 0;
    }
    case 'show': {
      const { rows } = await pool.query<{ id: string; archive_after_days: number | null; purge_files_after_days: number | null; tenants: number }>(
        `SELECT p.id, p.archive_after_days, p.purge_files_after_days, (SELECT count(*)::int FROM tenants n WHERE n.plan = p.id) AS tenants FROM plans p ORDER BY p.id`,
      );
      if (rows.length === 0) out(t('retention.noPlans'));
      for (const r of rows) out(t('retention.planRow', { plan: r.id, archive: daysText(r.archive_after_days), purge: daysText(r.purge_files_after_days), tenants: r.tenants }));
      return 0;
    }
    case 'run': {
      if (a.dryRun) {
        for (const line of describeRetention(await planRetention(pool, a.storageRoot, a.now), t, true)) out(line);
        return 0;
      }
      const done = await runRetention({ backend, storageRoot: a.storageRoot }, a.now);
      if (done === null) {
        out(t('retention.busy'));
        return 3;
      }
      for (const line of describeRetention(done, t)) out(line);
      return 0;
    }
  }
}
