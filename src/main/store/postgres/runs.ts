// Runs on PostgreSQL: what ../runs-repo.ts states, reached only through a task the scope owns.
import type { Run, RunStatus } from '../../../shared/contract/entities';
import { NotFoundError, ValidationError } from '../../../shared/errors';
import type { RunsRepo } from '../index';
import type { AsyncRepo, Scope } from '../port';
import { type RunRow, toRun } from '../rows';
import { storedError } from '../runs-repo';
import { pickUsage } from '../tasks-repo';
import { type Sql, withTaskConstraints } from './sql';

/** The run row `r` belongs to the scope ($1 tenant, $2 user). */
const OWN = 'r.tenant_id = $1 AND r.user_id = $2';
const NEWEST_FIRST = 'ORDER BY r.started_at DESC, r.rowid DESC';

export function pgRunsRepo(sql: Sql, scope: Scope, now: () => number): AsyncRepo<RunsRepo> {
  const owner = [scope.tenant_id, scope.user_id];
  const one = async (text: string, values: unknown[]): Promise<Run | undefined> => {
    const [row] = await sql.rows<RunRow>(text, values);
    return row === undefined ? undefined : toRun(row);
  };

  return {
    async create(run) {
      const [row] = await withTaskConstraints(run.task_id, `Run ${run.id}`, () =>
        sql.atomic((tx) =>
          tx.rows<RunRow>(
            `INSERT INTO runs (tenant_id, user_id, id, task_id, model, started_at)
             SELECT t.tenant_id, t.user_id, $3, t.id, $5, $6 FROM tasks t WHERE t.tenant_id = $1 AND t.user_id = $2 AND t.id = $4
             RETURNING *`,
            [...owner, run.id, run.task_id, run.model, now()],
          ),
        ),
      );
      if (row === undefined) throw new NotFoundError(`Task ${run.task_id} not found.`);
      return toRun(row);
    },
    get: (id) => one(`SELECT * FROM runs r WHERE ${OWN} AND r.id = $3`, [...owner, id]),
    async list(taskId) {
      const rows = await sql.rows<RunRow>(`SELECT * FROM runs r WHERE ${OWN} AND r.task_id = $3 ${NEWEST_FIRST}`, [...owner, taskId]);
      return rows.map(toRun);
    },
    async finish(id, status, error = null) {
      // The type already excludes it; this guards callers that widened the status to RunStatus.
      if ((status as RunStatus) === 'running') throw new ValidationError('status: a run cannot finish as running');
      const stored = storedError(error);
      // Only a running run changes (see RunsRepo.finish): one the cluster's sweeper marked
      // interrupted keeps that status when its worker finishes it late.
      const run =
        (await one(
          `UPDATE runs r SET status = $4, error = $5, error_code = $6, error_name = $7, finished_at = $8
           WHERE ${OWN} AND r.id = $3 AND r.status = 'running' RETURNING *`,
          [...owner, id, status, stored.error, stored.error_code, stored.error_name, now()],
        )) ?? (await one(`SELECT * FROM runs r WHERE ${OWN} AND r.id = $3`, [...owner, id]));
      if (run === undefined) throw new NotFoundError(`Run ${id} not found.`);
      return run;
    },
    async addUsage(id, usage) {
      const u = pickUsage(usage);
      await sql.run(
        `UPDATE runs r SET prompt_tokens = prompt_tokens + $4, completion_tokens = completion_tokens + $5, cost = cost + $6
         WHERE ${OWN} AND r.id = $3`,
        [...owner, id, u.prompt_tokens, u.completion_tokens, u.cost],
      );
    },
    async setState(id, state) {
      const json = state === undefined || state === null ? null : JSON.stringify(state);
      const changed = await sql.run(`UPDATE runs r SET state = $4 WHERE ${OWN} AND r.id = $3`, [...owner, id, json]);
      if (changed === 0) throw new NotFoundError(`Run ${id} not found.`);
    },
    async getState(id) {
      const [row] = await sql.rows<{ state: string | null }>(`SELECT state FROM runs r WHERE ${OWN} AND r.id = $3`, [...owner, id]);
      return row?.state == null ? undefined : (JSON.parse(row.state) as unknown);
    },
    async markRunningAsInterrupted() {
      // Only the scope's runs: with many workers, whose runs are dead is the leases' call, not a start-up sweep.
      const rows = await sql.rows<RunRow>(
        `UPDATE runs r SET status = 'interrupted', finished_at = $3 WHERE ${OWN} AND r.status = 'running' RETURNING *`,
        [...owner, now()],
      );
      return rows.map(toRun);
    },
    latestForTask: (taskId) => one(`SELECT * FROM runs r WHERE ${OWN} AND r.task_id = $3 ${NEWEST_FIRST} LIMIT 1`, [...owner, taskId]),
  };
}
