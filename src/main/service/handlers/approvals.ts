// The person's answers to the agent: pending approvals, a decision (routed to the live run, or kept
// for the next one), and the "always allow" list they can manage in Settings.
import type { ServiceHandlers } from '../../../shared/contract';
import { NotFoundError } from '../../../shared/errors';
import { pickProfile } from '../../assembly/profiles';
import { permissionToolSet } from '../../assembly/tool-set';
import { requireTask, type ServiceContext } from '../context';
import { allowAlways, toolPermissionHandlers, type ToolPermissionDeps } from '../tool-permissions';

export type ApprovalHandlers = Pick<ServiceHandlers, 'listApprovals' | 'decideApproval' | 'listToolPermissions' | 'setToolPermission' | 'listTaskGrants' | 'revokeTaskGrant'>;

export function approvalHandlers(ctx: ServiceContext): ApprovalHandlers {
  const { store } = ctx;
  // Permissions read the tools' traits; the handlers that read them load the catalog first.
  const known = permissionToolSet(ctx.mcp);
  const permissions: ToolPermissionDeps = { store, tools: () => known.tools() };
  const permissionHandlers = toolPermissionHandlers(permissions);
  return {
    async listApprovals(input) {
      await requireTask(ctx, input.task_id);
      return { approvals: await store.approvals.list(input.task_id) };
    },
    async decideApproval(input) {
      await requireTask(ctx, input.task_id);
      // The question must exist for this task, asked by this run or by the run now re-asking it.
      const pending = (await store.approvals.list(input.task_id)).find((a) => a.call_id === input.call_id);
      const active = ctx.runs.activeRunFor(input.task_id);
      if (!pending || (pending.run_id !== input.run_id && active !== input.run_id)) {
        throw new NotFoundError(`No pending approval ${input.call_id} in run ${input.run_id}`);
      }
      // "Always allow this tool" is stored (or refused) before the run goes on.
      if (input.decision === 'always') {
        await known.load();
        await allowAlways(permissions, pending.name);
      }
      const decision = { decision: input.decision, reason: input.reason };
      if ((await ctx.runs.routeDecision(input.task_id, input.call_id, decision)) !== 'kept') return { ok: true };
      // No live run waits (Folio was restarted, or its worker died): the decision is kept and the task continues.
      if (!active) {
        const task = await requireTask(ctx, input.task_id);
        await ctx.runs.start(task.id, { model: (await pickProfile(ctx, task)).id, brought: ctx.brought });
      }
      return { ok: true };
    },
    async listToolPermissions(input) {
      await known.load();
      return permissionHandlers.listToolPermissions(input);
    },
    async setToolPermission(input) {
      await known.load();
      return permissionHandlers.setToolPermission(input);
    },
    async listTaskGrants(input) {
      await requireTask(ctx, input.task_id);
      return { grants: await store.grants.list(input.task_id) };
    },
    async revokeTaskGrant(input) {
      await requireTask(ctx, input.task_id);
      return { revoked: await store.grants.revoke(input.task_id, input.tool, input.scope) };
    },
  };
}
