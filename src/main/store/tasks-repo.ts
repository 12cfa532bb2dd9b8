// Tasks: the rows behind the task list, their usage totals, and the lazy-creation flag.
import type Database from 'better-sqlite3';
import { type ApprovalMode, type ReasoningMode, type Task, type TaskMode, type TaskStatus, type Usage } from '../../shared/contract/entities';
import { NotFoundError } from '../../shared/errors';
import { type TaskRow, taskSelect, toTask, UNTOUCHED_TASK } from './rows';
import { withTaskConstraints } from './sqlite-errors';

export interface NewTask {
  id: string;
  mode: TaskMode;
  title: string;
  description: string;
  model: string | null;
  approval_mode?: ApprovalMode;
  workspace_path?: string | null;
  reasoning?: ReasoningMode | null;
  project_id?: string | null;
}

export type TaskPatch = Partial<{
  title: string;
  description: string;
  mode: TaskMode;
  status: TaskStatus;
  model: string | null;
  approval_mode: ApprovalMode;
  workspace_path: string | null;
  allow_network: boolean;
  reasoning: ReasoningMode | null;
  mcp_servers: string[] | null;
  project_id: string | null;
}>;

export interface TasksRepo {
  create(task: NewTask): Task;
  get(id: string): Task | undefined;
  /** Newest updated first. `q` matches title or description, case-insensitively and literally. */
  list(filter?: { status?: TaskStatus; q?: string; project_id?: string }): Task[];
  /** Throws NotFoundError for an unknown id. */
  update(id: string, patch: TaskPatch): Task;
  delete(id: string): boolean;
  markMaterialized(id: string): void;
  isMaterialized(id: string): boolean;
  addUsage(id: string, usage: Usage): void;
  /** Deletes the tasks nobody used or said anything about (rows.ts UNTOUCHED_TASK) and returns their ids. */
  purgeUnmaterialized(): string[];
  touch(id: string): void;
}

/** A JS lower-case fold, so search is case-insensitive beyond ASCII (SQLite's LIKE folds ASCII only). */
export const FOLD_FUNCTION = 'folio_fold';

export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

export function createTasksRepo(db: Database.Database, now: () => number): TasksRepo {
  db.function(FOLD_FUNCTION, { deterministic: true }, (value: unknown) =>
    typeof value === 'string' ? value.toLowerCase() : value,
  );

  const insert = db.prepare<{
    id: string;
    title: string;
    description: string;
    mode: TaskMode;
    model: string | null;
    approval_mode: ApprovalMode;
    workspace_path: string | null;
    reasoning: ReasoningMode | null;
    project_id: string | null;
    now: number;
  }>(`
    INSERT INTO tasks (id, title, description, mode, model, approval_mode, workspace_path, reasoning, project_id, created_at, updated_at)
    VALUES (@id, @title, @description, @mode, @model, @approval_mode, @workspace_path, @reasoning, @project_id, @now, @now)`);
  const selectOne = db.prepare<[string], TaskRow>(`${taskSelect} WHERE t.id = ?`);
  // project: null = any; 'none' = outside every project.
  const selectMany = db.prepare<{ status: TaskStatus | null; pattern: string | null; project: string | null }, TaskRow>(`
    ${taskSelect}
    WHERE (@status IS NULL OR t.status = @status)
      AND (@project IS NULL OR (@project = 'none' AND t.project_id IS NULL) OR t.project_id = @project)
      AND (@pattern IS NULL
        OR ${FOLD_FUNCTION}(t.title) LIKE @pattern ESCAPE '\\'
        OR ${FOLD_FUNCTION}(t.description) LIKE @pattern ESCAPE '\\')
    ORDER BY t.updated_at DESC, t.created_at DESC, t.rowid DESC`);
  // One cached statement for every patch shape: a column changes only when its flag is set, so "set
  // model to null" and "leave model alone" stay distinct.
  const updateOne = db.prepare<{
    id: string;
    now: number;
    set_title: number;
    title: string | null;
    set_description: number;
    description: string | null;
    set_mode: number;
    mode: TaskMode | null;
    set_status: number;
    status: TaskStatus | null;
    set_model: number;
    model: string | null;
    set_approval_mode: number;
    approval_mode: ApprovalMode | null;
    set_workspace_path: number;
    workspace_path: string | null;
    set_allow_network: number;
    allow_network: number | null;
    set_reasoning: number;
    reasoning: ReasoningMode | null;
    set_mcp_servers: number;
    mcp_servers: string | null;
    set_project_id: number;
    project_id: string | null;
  }>(`
    UPDATE tasks SET
      title = CASE WHEN @set_title THEN @title ELSE title END,
      description = CASE WHEN @set_description THEN @description ELSE description END,
      mode = CASE WHEN @set_mode THEN @mode ELSE mode END,
      status = CASE WHEN @set_status THEN @status ELSE status END,
      model = CASE WHEN @set_model THEN @model ELSE model END,
      approval_mode = CASE WHEN @set_approval_mode THEN @approval_mode ELSE approval_mode END,
      workspace_path = CASE WHEN @set_workspace_path THEN @workspace_path ELSE workspace_path END,
      allow_network = CASE WHEN @set_allow_network THEN @allow_network ELSE allow_network END,
      reasoning = CASE WHEN @set_reasoning THEN @reasoning ELSE reasoning END,
      mcp_servers = CASE WHEN @set_mcp_servers THEN @mcp_servers ELSE mcp_servers END,
      project_id = CASE WHEN @set_project_id THEN @project_id ELSE project_id END,
      updated_at = @now
    WHERE id = @id`);
  const deleteOne = db.prepare<[string]>('DELETE FROM tasks WHERE id = ?');
  const materialize = db.prepare<[string]>('UPDATE tasks SET materialized = 1 WHERE id = ? AND materialized = 0');
  const selectMaterialized = db.prepare<[string], number>('SELECT materialized FROM tasks WHERE id = ?').pluck();
  const addUsage = db.prepare<{ id: string; prompt_tokens: number; completion_tokens: number; cost: number }>(`
    UPDATE tasks SET prompt_tokens = prompt_tokens + @prompt_tokens,
      completion_tokens = completion_tokens + @completion_tokens, cost = cost + @cost
    WHERE id = @id`);
  const purge = db.prepare<[], string>(`DELETE FROM tasks AS t WHERE ${UNTOUCHED_TASK} RETURNING id`).pluck();
  const touch = db.prepare<[number, string]>('UPDATE tasks SET updated_at = ? WHERE id = ?');

  const get = (id: string): Task | undefined => {
    const row = selectOne.get(id);
    return row === undefined ? undefined : toTask(row);
  };

  return {
    create(task) {
      withTaskConstraints(task.id, `Task ${task.id}`, () =>
        insert.run({
          id: task.id,
          title: task.title,
          description: task.description,
          mode: task.mode,
          model: task.model,
          approval_mode: task.approval_mode ?? 'ask',
          workspace_path: task.workspace_path ?? null,
          reasoning: task.reasoning ?? null,
          project_id: task.project_id ?? null,
          now: now(),
        }),
      );
      return mustGet(get, task.id);
    },
    get,
    list(filter = {}) {
      const q = filter.q?.trim();
      const pattern = q ? `%${escapeLike(q.toLowerCase())}%` : null;
      return selectMany.all({ status: filter.status ?? null, pattern, project: filter.project_id ?? null }).map(toTask);
    },
    update(id, patch) {
      // null is a value ("clear the model"); only undefined means "leave alone".
      const has = (key: keyof TaskPatch): number => (patch[key] !== undefined ? 1 : 0);
      const result = updateOne.run({
        id,
        now: now(),
        set_title: has('title'),
        title: patch.title ?? null,
        set_description: has('description'),
        description: patch.description ?? null,
        set_mode: has('mode'),
        mode: patch.mode ?? null,
        set_status: has('status'),
        status: patch.status ?? null,
        set_model: has('model'),
        model: patch.model ?? null,
        set_approval_mode: has('approval_mode'),
        approval_mode: patch.approval_mode ?? null,
        set_workspace_path: has('workspace_path'),
        workspace_path: patch.workspace_path ?? null,
        set_allow_network: has('allow_network'),
        allow_network: patch.allow_network === undefined ? null : patch.allow_network ? 1 : 0,
        set_reasoning: has('reasoning'),
        reasoning: patch.reasoning ?? null,
        set_mcp_servers: has('mcp_servers'),
        mcp_servers: patch.mcp_servers ? JSON.stringify(patch.mcp_servers) : null,
        set_project_id: has('project_id'),
        project_id: patch.project_id ?? null,
      });
      if (result.changes === 0) throw new NotFoundError(`Task ${id} not found.`);
      return mustGet(get, id);
    },
    delete(id) {
      return deleteOne.run(id).changes > 0;
    },
    // The void mutators below ignore an unknown id: a run finishing after its task was deleted is normal.
    markMaterialized(id) {
      materialize.run(id);
    },
    isMaterialized(id) {
      return selectMaterialized.get(id) === 1;
    },
    addUsage(id, usage) {
      addUsage.run({ id, ...pickUsage(usage) });
    },
    purgeUnmaterialized() {
      return purge.all();
    },
    touch(id) {
      touch.run(now(), id);
    },
  };
}

export function pickUsage(usage: Usage): Usage {
  return { prompt_tokens: usage.prompt_tokens, completion_tokens: usage.completion_tokens, cost: usage.cost };
}

function mustGet(get: (id: string) => Task | undefined, id: string): Task {
  const task = get(id);
  if (task === undefined) throw new NotFoundError(`Task ${id} not found.`);
  return task;
}
