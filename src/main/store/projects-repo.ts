// Projects: a name, standing instructions and defaults shared by the tasks that belong to
// it. Counts are measured at read time, never stored, so they cannot drift.
import type Database from 'better-sqlite3';
import type { ApprovalMode, TaskMode } from '../../shared/contract/entities';
import type { Project } from '../../shared/contract/projects';
import { NotFoundError } from '../../shared/errors';

export interface NewProject {
  id: string;
  name: string;
  instructions?: string;
  default_model?: string | null;
  default_mode?: TaskMode | null;
  default_approval_mode?: ApprovalMode | null;
}

export type ProjectPatch = Partial<{
  name: string;
  instructions: string;
  default_model: string | null;
  default_mode: TaskMode | null;
  default_approval_mode: ApprovalMode | null;
  archived: boolean;
}>;

export interface ProjectsRepo {
  create(project: NewProject): Project;
  get(id: string): Project | undefined;
  /** Newest updated first; archived projects only when asked for (`archived: true` lists only those). */
  list(filter?: { archived?: boolean }): Project[];
  /** Throws NotFoundError for an unknown id. */
  update(id: string, patch: ProjectPatch): Project;
  /** Library rows go with it (CASCADE); its tasks stay, without a project (SET NULL). */
  delete(id: string): boolean;
}

export interface ProjectRow {
  id: string;
  name: string;
  instructions: string;
  default_model: string | null;
  default_mode: TaskMode | null;
  default_approval_mode: ApprovalMode | null;
  archived: number;
  created_at: number;
  updated_at: number;
  task_count: number;
  file_count: number;
}

const select = `
  SELECT p.*,
    (SELECT count(*) FROM tasks t WHERE t.project_id = p.id) AS task_count,
    (SELECT count(*) FROM library_files f WHERE f.project_id = p.id) AS file_count
  FROM projects p`;

export function toProject(row: ProjectRow): Project {
  return {
    id: row.id,
    name: row.name,
    instructions: row.instructions,
    default_model: row.default_model,
    default_mode: row.default_mode,
    default_approval_mode: row.default_approval_mode,
    archived: row.archived === 1,
    task_count: row.task_count,
    file_count: row.file_count,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export const PROJECT_COLUMNS = ['name', 'instructions', 'default_model', 'default_mode', 'default_approval_mode', 'archived'] as const;

export function createProjectsRepo(db: Database.Database, now: () => number): ProjectsRepo {
  const insert = db.prepare(`
    INSERT INTO projects (id, name, instructions, default_model, default_mode, default_approval_mode, created_at, updated_at)
    VALUES (@id, @name, @instructions, @default_model, @default_mode, @default_approval_mode, @now, @now)`);
  const selectOne = db.prepare<[string], ProjectRow>(`${select} WHERE p.id = ?`);
  const selectMany = db.prepare<[number], ProjectRow>(`${select} WHERE p.archived = ? ORDER BY p.updated_at DESC, p.rowid DESC`);
  // Like tasks: a column changes only when its flag is set, so "clear the default" differs from "leave it".
  const updateOne = db.prepare(`
    UPDATE projects SET
      ${PROJECT_COLUMNS.map((c) => `${c} = CASE WHEN @set_${c} THEN @${c} ELSE ${c} END`).join(',\n      ')},
      updated_at = @now
    WHERE id = @id`);
  const deleteOne = db.prepare<[string]>('DELETE FROM projects WHERE id = ?');

  const get = (id: string): Project | undefined => {
    const row = selectOne.get(id);
    return row === undefined ? undefined : toProject(row);
  };
  const mustGet = (id: string): Project => {
    const project = get(id);
    if (!project) throw new NotFoundError(`No project ${id}`);
    return project;
  };

  return {
    create(p) {
      insert.run({
        id: p.id,
        name: p.name,
        instructions: p.instructions ?? '',
        default_model: p.default_model ?? null,
        default_mode: p.default_mode ?? null,
        default_approval_mode: p.default_approval_mode ?? null,
        now: now(),
      });
      return mustGet(p.id);
    },
    get,
    list(filter = {}) {
      return selectMany.all(filter.archived ? 1 : 0).map(toProject);
    },
    update(id, patch) {
      const params: Record<string, unknown> = { id, now: now() };
      for (const c of PROJECT_COLUMNS) {
        const value = patch[c];
        params[`set_${c}`] = value === undefined ? 0 : 1;
        params[c] = typeof value === 'boolean' ? (value ? 1 : 0) : (value ?? null);
      }
      if (updateOne.run(params).changes === 0) throw new NotFoundError(`No project ${id}`);
      return mustGet(id);
    },
    delete(id) {
      return deleteOne.run(id).changes > 0;
    },
  };
}
