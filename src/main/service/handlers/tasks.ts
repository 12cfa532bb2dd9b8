// Tasks: create (with the project's defaults), list, read, change and delete.
import type { ServiceHandlers } from '../../../shared/contract';
import { newId } from '../../runs/run-manager';
import { checkWorkspaceFolder } from '../../workspace/folder-policy';
import { removeTaskDir } from '../../workspace/layout';
import { requireTask, type ServiceContext } from '../context';
import { requireOpenProject } from '../projects-service';

export type TaskHandlers = Pick<ServiceHandlers, 'createTask' | 'listTasks' | 'getTask' | 'updateTask' | 'deleteTask'>;

export function taskHandlers(ctx: ServiceContext): TaskHandlers {
  const { store } = ctx;
  return {
    async createTask(input) {
      // The project's defaults fill what the request leaves out. Its default mode is the UI's to
      // apply (the mode is a required input), so it is not used here.
      const project = input.project_id ? await requireOpenProject(store, input.project_id) : null;
      return store.tasks.create({
        id: newId('t'),
        mode: input.mode,
        title: input.title?.trim() ?? '',
        description: input.description ?? '',
        model: input.model ?? project?.default_model ?? null,
        reasoning: input.reasoning ?? null,
        ...(project?.default_approval_mode ? { approval_mode: project.default_approval_mode } : {}),
        project_id: project?.id ?? null,
      });
    },
    async listTasks(input) {
      return { tasks: await store.tasks.list({ status: input.status, q: input.q, ...(input.project_id ? { project_id: input.project_id } : {}) }) };
    },
    async getTask(input) {
      return requireTask(ctx, input.task_id);
    },
    async updateTask(input) {
      await requireTask(ctx, input.task_id);
      const { task_id, ...patch } = input;
      if (patch.workspace_path) patch.workspace_path = checkWorkspaceFolder(patch.workspace_path, ctx.dataDir);
      if (patch.project_id) await requireOpenProject(store, patch.project_id);
      const clean = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined));
      return store.tasks.update(task_id, clean);
    },
    async deleteTask(input) {
      await requireTask(ctx, input.task_id);
      const active = ctx.runs.activeRunFor(input.task_id);
      if (active) {
        await ctx.runs.cancel(input.task_id, active);
        await ctx.runs.waitForRun(active);
      }
      await store.tasks.delete(input.task_id);
      removeTaskDir(ctx.dataDir, input.task_id);
      return { ok: true };
    },
  };
}
