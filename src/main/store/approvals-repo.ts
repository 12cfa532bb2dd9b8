// Tool calls waiting for the person's yes/no, kept across restarts; and per-task "always allow" grants.
import type Database from 'better-sqlite3';
import { type PendingApproval } from '../../shared/contract/entities';
import { type ApprovalRow, toApproval } from './rows';
import { withTaskConstraints } from './sqlite-errors';

export interface ApprovalsRepo {
  /** Inserts or replaces the approval for (run_id, call_id). */
  put(taskId: string, approval: PendingApproval): void;
  /** Oldest first. */
  list(taskId: string): PendingApproval[];
  get(runId: string, callId: string): PendingApproval | undefined;
  delete(runId: string, callId: string): boolean;
}

/**
 * "Allow for this task". `scope` '' covers the whole tool; otherwise the grant covers only that
 * scope (a code-running tool's exact command), so a whole-tool grant never matches a command.
 */
export interface GrantsRepo {
  grant(taskId: string, toolName: string, scope?: string): void;
  has(taskId: string, toolName: string, scope?: string): boolean;
  /** The task's grants, by tool and scope. */
  list(taskId: string): { tool: string; scope: string }[];
  /** Takes a grant back; false when there was none. */
  revoke(taskId: string, toolName: string, scope: string): boolean;
}

export function createApprovalsRepo(db: Database.Database): ApprovalsRepo {
  const put = db.prepare<ApprovalRow>(`
    INSERT OR REPLACE INTO approvals (run_id, call_id, task_id, name, arguments, kind, risk, detail, reasons, created_at)
    VALUES (@run_id, @call_id, @task_id, @name, @arguments, @kind, @risk, @detail, @reasons, @created_at)`);
  const selectForTask = db.prepare<[string], ApprovalRow>(
    'SELECT * FROM approvals WHERE task_id = ? ORDER BY created_at, rowid',
  );
  const selectOne = db.prepare<[string, string], ApprovalRow>('SELECT * FROM approvals WHERE run_id = ? AND call_id = ?');
  const deleteOne = db.prepare<[string, string]>('DELETE FROM approvals WHERE run_id = ? AND call_id = ?');

  return {
    put(taskId, a) {
      withTaskConstraints(taskId, `Approval ${a.call_id}`, () =>
        put.run({
          run_id: a.run_id,
          call_id: a.call_id,
          task_id: taskId,
          name: a.name,
          arguments: a.arguments,
          kind: a.kind,
          risk: a.risk,
          detail: a.detail,
          reasons: JSON.stringify(a.reasons),
          created_at: a.created_at,
        }),
      );
    },
    list(taskId) {
      return selectForTask.all(taskId).map(toApproval);
    },
    get(runId, callId) {
      const row = selectOne.get(runId, callId);
      return row === undefined ? undefined : toApproval(row);
    },
    delete(runId, callId) {
      return deleteOne.run(runId, callId).changes > 0;
    },
  };
}

export function createGrantsRepo(db: Database.Database): GrantsRepo {
  const grant = db.prepare<[string, string, string]>('INSERT OR IGNORE INTO tool_grants (task_id, tool_name, scope) VALUES (?, ?, ?)');
  const has = db.prepare<[string, string, string], number>('SELECT 1 FROM tool_grants WHERE task_id = ? AND tool_name = ? AND scope = ?').pluck();
  const list = db.prepare<[string], { tool: string; scope: string }>('SELECT tool_name AS tool, scope FROM tool_grants WHERE task_id = ? ORDER BY tool_name, scope');
  const revoke = db.prepare<[string, string, string]>('DELETE FROM tool_grants WHERE task_id = ? AND tool_name = ? AND scope = ?');
  return {
    list(taskId) {
      return list.all(taskId);
    },
    revoke(taskId, toolName, scope) {
      return revoke.run(taskId, toolName, scope).changes > 0;
    },
    grant(taskId, toolName, scope = '') {
      withTaskConstraints(taskId, `Grant ${toolName}`, () => grant.run(taskId, toolName, scope));
    },
    has(taskId, toolName, scope = '') {
      return has.get(taskId, toolName, scope) !== undefined;
    },
  };
}
