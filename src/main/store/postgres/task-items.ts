// A task's files index, pending approvals and grants on PostgreSQL: what ../files-repo.ts and
// ../approvals-repo.ts state, reached only through a task the scope owns. Writes copy the tenant and
// user from the owning task, so a task of anyone else is "not found" exactly as an unknown one.
import { NotFoundError } from '../../../shared/errors';
import type { ApprovalsRepo, FilesRepo, GrantsRepo } from '../index';
import type { AsyncRepo, Scope } from '../port';
import { type ApprovalRow, type FileRow, toApproval, toFileEntry } from '../rows';
import { type Sql, withTaskConstraints } from './sql';

/** The row `x` belongs to the scope ($1 tenant, $2 user). */
const OWN = 'x.tenant_id = $1 AND x.user_id = $2';
/** The scope's task $3, as the source of an INSERT … SELECT. */
const FROM_OWN_TASK = 'FROM tasks t WHERE t.tenant_id = $1 AND t.user_id = $2 AND t.id = $3';

export function pgFilesRepo(sql: Sql, scope: Scope): AsyncRepo<FilesRepo> {
  const owner = [scope.tenant_id, scope.user_id];
  return {
    async upsert(entry) {
      const row = await withTaskConstraints(entry.task_id, `File ${entry.path}`, () =>
        sql.atomic(async (tx) => {
          const [inserted] = await tx.rows<FileRow>(
            `INSERT INTO files (tenant_id, user_id, task_id, path, kind, size, sha256, created_at)
             SELECT t.tenant_id, t.user_id, t.id, $4, $5, $6, $7, $8 ${FROM_OWN_TASK}
             ON CONFLICT (task_id, path) DO UPDATE SET
               kind = excluded.kind, size = excluded.size, sha256 = excluded.sha256, created_at = excluded.created_at
             RETURNING *`,
            [...owner, entry.task_id, entry.path, entry.kind, entry.size, entry.sha256, entry.created_at],
          );
          if (inserted !== undefined) await tx.run('UPDATE tasks SET materialized = 1 WHERE id = $1 AND materialized = 0', [entry.task_id]);
          return inserted;
        }),
      );
      if (row === undefined) throw new NotFoundError(`Task ${entry.task_id} not found.`);
      return toFileEntry(row);
    },
    async list(taskId) {
      const rows = await sql.rows<FileRow>(`SELECT * FROM files x WHERE ${OWN} AND x.task_id = $3 ORDER BY x.path COLLATE "C"`, [...owner, taskId]);
      return rows.map(toFileEntry);
    },
    async get(taskId, path) {
      const [row] = await sql.rows<FileRow>(`SELECT * FROM files x WHERE ${OWN} AND x.task_id = $3 AND x.path = $4`, [...owner, taskId, path]);
      return row === undefined ? undefined : toFileEntry(row);
    },
    async delete(taskId, path) {
      return (await sql.run(`DELETE FROM files x WHERE ${OWN} AND x.task_id = $3 AND x.path = $4`, [...owner, taskId, path])) > 0;
    },
  };
}

export function pgApprovalsRepo(sql: Sql, scope: Scope): AsyncRepo<ApprovalsRepo> {
  const owner = [scope.tenant_id, scope.user_id];
  return {
    async put(taskId, a) {
      const written = await withTaskConstraints(taskId, `Approval ${a.call_id}`, () =>
        sql.atomic(async (tx) => {
          // SQLite's INSERT OR REPLACE: the row at (run_id, call_id) is replaced whole, whoever held it.
          if ((await tx.rows(`SELECT 1 ${FROM_OWN_TASK}`, [...owner, taskId])).length === 0) return 0;
          await tx.run(`DELETE FROM approvals x WHERE ${OWN} AND x.run_id = $3 AND x.call_id = $4`, [...owner, a.run_id, a.call_id]);
          return tx.run(
            `INSERT INTO approvals (tenant_id, user_id, task_id, run_id, call_id, name, arguments, kind, risk, detail, reasons, created_at)
             SELECT t.tenant_id, t.user_id, t.id, $4, $5, $6, $7, $8, $9, $10, $11, $12 ${FROM_OWN_TASK}`,
            [...owner, taskId, a.run_id, a.call_id, a.name, a.arguments, a.kind, a.risk, a.detail, JSON.stringify(a.reasons), a.created_at],
          );
        }),
      );
      if (written === 0) throw new NotFoundError(`Task ${taskId} not found.`);
    },
    async list(taskId) {
      const rows = await sql.rows<ApprovalRow>(`SELECT * FROM approvals x WHERE ${OWN} AND x.task_id = $3 ORDER BY x.created_at, x.rowid`, [
        ...owner,
        taskId,
      ]);
      return rows.map(toApproval);
    },
    async get(runId, callId) {
      const [row] = await sql.rows<ApprovalRow>(`SELECT * FROM approvals x WHERE ${OWN} AND x.run_id = $3 AND x.call_id = $4`, [
        ...owner,
        runId,
        callId,
      ]);
      return row === undefined ? undefined : toApproval(row);
    },
    async delete(runId, callId) {
      return (await sql.run(`DELETE FROM approvals x WHERE ${OWN} AND x.run_id = $3 AND x.call_id = $4`, [...owner, runId, callId])) > 0;
    },
  };
}

export function pgGrantsRepo(sql: Sql, scope: Scope): AsyncRepo<GrantsRepo> {
  const owner = [scope.tenant_id, scope.user_id];
  return {
    async grant(taskId, toolName, grantScope = '') {
      await withTaskConstraints(taskId, `Grant ${toolName}`, async () => {
        if ((await sql.rows(`SELECT 1 ${FROM_OWN_TASK}`, [...owner, taskId])).length === 0) throw new NotFoundError(`Task ${taskId} not found.`);
        await sql.run(
          `INSERT INTO tool_grants (tenant_id, user_id, task_id, tool_name, scope)
           SELECT t.tenant_id, t.user_id, t.id, $4, $5 ${FROM_OWN_TASK} ON CONFLICT DO NOTHING`,
          [...owner, taskId, toolName, grantScope],
        );
      });
    },
    async list(taskId) {
      return sql.rows<{ tool: string; scope: string }>(`SELECT x.tool_name AS tool, x.scope FROM tool_grants x WHERE ${OWN} AND x.task_id = $3 ORDER BY x.tool_name COLLATE "C", x.scope COLLATE "C"`, [...owner, taskId]);
    },
    async revoke(taskId, toolName, grantScope) {
      return (await sql.run(`DELETE FROM tool_grants x WHERE ${OWN} AND x.task_id = $3 AND x.tool_name = $4 AND x.scope = $5`, [...owner, taskId, toolName, grantScope])) > 0;
    },
    async has(taskId, toolName, grantScope = '') {
      const rows = await sql.rows(`SELECT 1 FROM tool_grants x WHERE ${OWN} AND x.task_id = $3 AND x.tool_name = $4 AND x.scope = $5`, [
        ...owner,
        taskId,
        toolName,
        grantScope,
      ]);
      return rows.length > 0;
    },
  };
}
