// Tasks on PostgreSQL: what ../tasks-repo.ts states, private to the scope's tenant and user. A task
// of anyone else reads exactly like an unknown id.
import type { Task } from '../../../shared/contract/entities';
import { NotFoundError } from '../../../shared/errors';
import type { TasksRepo } from '../index';
import type { AsyncRepo, Scope } from '../port';
import { type TaskRow, taskSelect, toTask, UNTOUCHED_TASK } from '../rows';
import { pickUsage } from '../tasks-repo';
import { type Sql, withTaskConstraints } from './sql';
import { TASK_TRACE_TABLES } from './team-schema';

/** `t` is the scope's own task ($1 tenant, $2 user). */
export const OWN_TASK = 't.tenant_id = $1 AND t.user_id = $2';

/** A project the scope's tenant holds, or none ($1 tenant). */
const PROJECT_VISIBLE = (param: string) => `(${param}::text IS NULL OR EXISTS (SELECT 1 FROM projects p WHERE p.id = ${param} AND p.tenant_id = $1))`;

/** The same fold as the SQLite side (JS lower-case), so search matches beyond ASCII identically. */
function matches(task: TaskRow, q: string): boolean {
  return task.title.toLowerCase().includes(q) || task.description.toLowerCase().includes(q);
}

export function pgTasksRepo(sql: Sql, scope: Scope, now: () => number): AsyncRepo<TasksRepo> {
  const owner = [scope.tenant_id, scope.user_id];
  const get = async (id: string): Promise<Task | undefined> => {
    const [row] = await sql.rows<TaskRow>(`${taskSelect} WHERE ${OWN_TASK} AND t.id = $3`, [...owner, id]);
    return row === undefined ? undefined : toTask(row);
  };
  const mustGet = async (id: string): Promise<Task> => {
    const task = await get(id);
    if (task === undefined) throw new NotFoundError(`Task ${id} not found.`);
    return task;
  };

  return {
    async create(task) {
      const at = now();
      // A project of another tenant is as unknown as a missing one: SQLite reports that foreign key as the task not found.
      const inserted = await withTaskConstraints(task.id, `Task ${task.id}`, () =>
        sql.atomic((tx) => tx.run(
          `INSERT INTO tasks (tenant_id, user_id, id, title, description, mode, model, approval_mode, workspace_path, reasoning, project_id, created_at, updated_at)
           SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $12 WHERE ${PROJECT_VISIBLE('$11')}`,
          [
            ...owner,
            task.id,
            task.title,
            task.description,
            task.mode,
            task.model,
            task.approval_mode ?? 'ask',
            task.workspace_path ?? null,
            task.reasoning ?? null,
            task.project_id ?? null,
            at,
          ],
        )),
      );
      if (inserted === 0) throw new NotFoundError(`Task ${task.id} not found.`);
      return mustGet(task.id);
    },
    get,
    async list(filter = {}) {
      const rows = await sql.rows<TaskRow>(
        `${taskSelect}
         WHERE ${OWN_TASK}
           AND ($3::text IS NULL OR t.status = $3)
           AND ($4::text IS NULL OR ($4 = 'none' AND t.project_id IS NULL) OR t.project_id = $4)
         ORDER BY t.updated_at DESC, t.created_at DESC, t.rowid DESC`,
        [...owner, filter.status ?? null, filter.project_id ?? null],
      );
      const q = filter.q?.trim().toLowerCase();
      return (q ? rows.filter((row) => matches(row, q)) : rows).map(toTask);
    },
    async update(id, patch) {
      // null is a value ("clear the model"); only undefined means "leave alone".
      const sets: string[] = [];
      const values: unknown[] = [...owner, id, now()];
      const set = (column: string, value: unknown) => {
        values.push(value);
        sets.push(`${column} = $${values.length}`);
      };
      if (patch.title !== undefined) set('title', patch.title);
      if (patch.description !== undefined) set('description', patch.description);
      if (patch.mode !== undefined) set('mode', patch.mode);
      if (patch.status !== undefined) set('status', patch.status);
      if (patch.model !== undefined) set('model', patch.model);
      if (patch.approval_mode !== undefined) set('approval_mode', patch.approval_mode);
      if (patch.workspace_path !== undefined) set('workspace_path', patch.workspace_path);
      if (patch.allow_network !== undefined) set('allow_network', patch.allow_network ? 1 : 0);
      if (patch.reasoning !== undefined) set('reasoning', patch.reasoning);
      if (patch.mcp_servers !== undefined) set('mcp_servers', patch.mcp_servers ? JSON.stringify(patch.mcp_servers) : null);
      if (patch.project_id !== undefined) {
        if (patch.project_id !== null && !(await projectVisible(sql, scope, patch.project_id))) {
          throw new NotFoundError(`No project ${patch.project_id}`);
        }
        set('project_id', patch.project_id);
      }
      const changed = await sql.run(
        `UPDATE tasks t SET ${[...sets, 'updated_at = $4'].join(', ')} WHERE ${OWN_TASK} AND t.id = $3`,
        values,
      );
      if (changed === 0) throw new NotFoundError(`Task ${id} not found.`);
      return mustGet(id);
    },
    async delete(id) {
      // A run's traces outside the task's foreign keys (its streamed events, a lease, a decision no
      // run took) hold the task's content too: they go in the same transaction.
      return sql.atomic(async (tx) => {
        const deleted = (await tx.run(`DELETE FROM tasks t WHERE ${OWN_TASK} AND t.id = $3`, [...owner, id])) > 0;
        if (deleted) for (const table of TASK_TRACE_TABLES) await tx.run(`DELETE FROM ${table} WHERE tenant_id = $1 AND task_id = $2`, [scope.tenant_id, id]);
        return deleted;
      });
    },
    // The void mutators below ignore an unknown id: a run finishing after its task was deleted is normal.
    async markMaterialized(id) {
      await sql.run(`UPDATE tasks t SET materialized = 1 WHERE ${OWN_TASK} AND t.id = $3 AND t.materialized = 0`, [...owner, id]);
    },
    async isMaterialized(id) {
      const [row] = await sql.rows<{ materialized: number }>(`SELECT materialized FROM tasks t WHERE ${OWN_TASK} AND t.id = $3`, [...owner, id]);
      return row?.materialized === 1;
    },
    async addUsage(id, usage) {
      const u = pickUsage(usage);
      await sql.run(
        `UPDATE tasks t SET prompt_tokens = prompt_tokens + $4, completion_tokens = completion_tokens + $5, cost = cost + $6
         WHERE ${OWN_TASK} AND t.id = $3`,
        [...owner, id, u.prompt_tokens, u.completion_tokens, u.cost],
      );
    },
    async purgeUnmaterialized() {
      const rows = await sql.rows<{ id: string }>(
        `DELETE FROM tasks t WHERE ${OWN_TASK} AND ${UNTOUCHED_TASK} RETURNING t.id`,
        owner,
      );
      return rows.map((r) => r.id);
    },
    async touch(id) {
      await sql.run(`UPDATE tasks t SET updated_at = $4 WHERE ${OWN_TASK} AND t.id = $3`, [...owner, id, now()]);
    },
  };
}

async function projectVisible(sql: Sql, scope: Scope, projectId: string): Promise<boolean> {
  const rows = await sql.rows('SELECT 1 FROM projects WHERE id = $1 AND tenant_id = $2', [projectId, scope.tenant_id]);
  return rows.length > 0;
}
