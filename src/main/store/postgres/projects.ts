// Projects on PostgreSQL: what ../projects-repo.ts states, shared by the scope's tenant. The task
// count is of the scope's own tasks (tasks are private), so it matches what the person can list.
import type { Project } from '../../../shared/contract/projects';
import { NotFoundError } from '../../../shared/errors';
import type { ProjectsRepo } from '../index';
import type { AsyncRepo, Scope } from '../port';
import { PROJECT_COLUMNS, type ProjectRow, toProject } from '../projects-repo';
import type { Sql } from './sql';

/** $1 tenant, $2 user. */
const select = `
  SELECT p.*,
    (SELECT count(*) FROM tasks t WHERE t.project_id = p.id AND t.tenant_id = $1 AND t.user_id = $2)::integer AS task_count,
    (SELECT count(*) FROM library_files f WHERE f.project_id = p.id AND f.tenant_id = $1)::integer AS file_count
  FROM projects p`;

export function pgProjectsRepo(sql: Sql, scope: Scope, now: () => number): AsyncRepo<ProjectsRepo> {
  const owner = [scope.tenant_id, scope.user_id];
  const get = async (id: string): Promise<Project | undefined> => {
    const [row] = await sql.rows<ProjectRow>(`${select} WHERE p.tenant_id = $1 AND p.id = $3`, [...owner, id]);
    return row === undefined ? undefined : toProject(row);
  };
  const mustGet = async (id: string): Promise<Project> => {
    const project = await get(id);
    if (!project) throw new NotFoundError(`No project ${id}`);
    return project;
  };

  return {
    async create(p) {
      const at = now();
      // In a savepoint, so a duplicate id leaves an enclosing transaction usable, as SQLite does.
      await sql.atomic((tx) => tx.run(
        `INSERT INTO projects (tenant_id, id, name, instructions, default_model, default_mode, default_approval_mode, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8)`,
        [scope.tenant_id, p.id, p.name, p.instructions ?? '', p.default_model ?? null, p.default_mode ?? null, p.default_approval_mode ?? null, at],
      ));
      return mustGet(p.id);
    },
    get,
    async list(filter = {}) {
      const rows = await sql.rows<ProjectRow>(`${select} WHERE p.tenant_id = $1 AND p.archived = $3 ORDER BY p.updated_at DESC, p.rowid DESC`, [
        ...owner,
        filter.archived ? 1 : 0,
      ]);
      return rows.map(toProject);
    },
    async update(id, patch) {
      // Like tasks: a column changes only when the patch names it, so "clear the default" differs from "leave it".
      const values: unknown[] = [scope.tenant_id, id, now()];
      const sets = ['updated_at = $3'];
      for (const c of PROJECT_COLUMNS) {
        const value = patch[c];
        if (value === undefined) continue;
        values.push(typeof value === 'boolean' ? (value ? 1 : 0) : value);
        sets.push(`${c} = $${values.length}`);
      }
      const changed = await sql.run(`UPDATE projects SET ${sets.join(', ')} WHERE tenant_id = $1 AND id = $2`, values);
      if (changed === 0) throw new NotFoundError(`No project ${id}`);
      return mustGet(id);
    },
    async delete(id) {
      return (await sql.run('DELETE FROM projects WHERE tenant_id = $1 AND id = $2', [scope.tenant_id, id])) > 0;
    },
  };
}
