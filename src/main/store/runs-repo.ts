// Runs: one agent turn of a task, its outcome, its usage, and the state needed to resume it.
import type Database from 'better-sqlite3';
import { type Run, type RunStatus, type Usage } from '../../shared/contract/entities';
import { type ErrorShape, NotFoundError, ValidationError } from '../../shared/errors';
import { type RunRow, toRun } from './rows';
import { withTaskConstraints } from './sqlite-errors';
import { pickUsage } from './tasks-repo';

export type FinishedRunStatus = Exclude<RunStatus, 'running'>;

export interface RunsRepo {
  /** Starts a run in status `running`. */
  create(run: { id: string; task_id: string; model: string | null }): Run;
  get(id: string): Run | undefined;
  /** Newest first. */
  list(taskId: string): Run[];
  /**
   * Finishes a running run and returns it; a run already finished (one marked interrupted while
   * its worker was presumed dead) is returned unchanged. Throws NotFoundError for an unknown id.
   */
  finish(id: string, status: FinishedRunStatus, error?: string | ErrorShape | null): Run;
  /** Adds to the run only; the task's totals are kept by `tasks.addUsage`. */
  addUsage(id: string, usage: Usage): void;
  /** Stores any JSON-serializable value; null or undefined clears it. Throws NotFoundError for an unknown run. */
  setState(id: string, state: unknown): void;
  /** The stored state, or undefined when there is none. */
  getState(id: string): unknown;
  /** For start-up: every run left `running` by a previous process becomes `interrupted`. */
  markRunningAsInterrupted(): Run[];
  latestForTask(taskId: string): Run | undefined;
}

export function createRunsRepo(db: Database.Database, now: () => number): RunsRepo {
  const insert = db.prepare<{ id: string; task_id: string; model: string | null; now: number }, RunRow>(`
    INSERT INTO runs (id, task_id, model, started_at) VALUES (@id, @task_id, @model, @now) RETURNING *`);
  const selectOne = db.prepare<[string], RunRow>('SELECT * FROM runs WHERE id = ?');
  const newestFirst = 'ORDER BY started_at DESC, rowid DESC';
  const selectForTask = db.prepare<[string], RunRow>(`SELECT * FROM runs WHERE task_id = ? ${newestFirst}`);
  const selectLatest = db.prepare<[string], RunRow>(`SELECT * FROM runs WHERE task_id = ? ${newestFirst} LIMIT 1`);
  const finish = db.prepare<{ id: string; status: FinishedRunStatus; now: number } & StoredError, RunRow>(`
    UPDATE runs SET status = @status, error = @error, error_code = @error_code, error_name = @error_name, finished_at = @now
    WHERE id = @id AND status = 'running' RETURNING *`);
  const addUsage = db.prepare<{ id: string; prompt_tokens: number; completion_tokens: number; cost: number }>(`
    UPDATE runs SET prompt_tokens = prompt_tokens + @prompt_tokens,
      completion_tokens = completion_tokens + @completion_tokens, cost = cost + @cost
    WHERE id = @id`);
  const setState = db.prepare<[string | null, string]>('UPDATE runs SET state = ? WHERE id = ?');
  const selectState = db.prepare<[string], string | null>('SELECT state FROM runs WHERE id = ?').pluck();
  const interruptAll = db.prepare<[number], RunRow>(`
    UPDATE runs SET status = 'interrupted', finished_at = ? WHERE status = 'running' RETURNING *`);

  const one = (row: RunRow | undefined): Run | undefined => (row === undefined ? undefined : toRun(row));

  return {
    create(run) {
      const row = withTaskConstraints(run.task_id, `Run ${run.id}`, () =>
        insert.get({ id: run.id, task_id: run.task_id, model: run.model, now: now() }),
      );
      if (row === undefined) throw new Error('INSERT ... RETURNING returned no row');
      return toRun(row);
    },
    get(id) {
      return one(selectOne.get(id));
    },
    list(taskId) {
      return selectForTask.all(taskId).map(toRun);
    },
    finish(id, status, error = null) {
      // The type already excludes it; this guards callers that widened the status to RunStatus.
      if ((status as RunStatus) === 'running') throw new ValidationError('status: a run cannot finish as running');
      const row = finish.get({ id, status, ...storedError(error), now: now() }) ?? selectOne.get(id);
      if (row === undefined) throw new NotFoundError(`Run ${id} not found.`);
      return toRun(row);
    },
    addUsage(id, usage) {
      addUsage.run({ id, ...pickUsage(usage) });
    },
    setState(id, state) {
      const json = state === undefined || state === null ? null : JSON.stringify(state);
      if (setState.run(json, id).changes === 0) throw new NotFoundError(`Run ${id} not found.`);
    },
    getState(id) {
      const json = selectState.get(id);
      return json == null ? undefined : (JSON.parse(json) as unknown);
    },
    markRunningAsInterrupted() {
      return interruptAll.all(now()).map(toRun);
    },
    latestForTask(taskId) {
      return one(selectLatest.get(taskId));
    },
  };
}

export interface StoredError {
  error: string | null;
  error_code: string | null;
  error_name: string | null;
}

/** A run's error as its columns: a typed error keeps its code and class, a plain message has none. */
export function storedError(error: string | ErrorShape | null): StoredError {
  if (error === null || typeof error === 'string') return { error, error_code: null, error_name: null };
  return { error: error.message, error_code: error.code, error_name: error.name };
}
