// The team service's storage quota is a level: uploads and the files runs write add to it, so
// deleting them (a file, a task, a library file, a project with its library) frees it.
import type { ServiceHandlers } from '../../../shared/contract';
import { storeIdOf } from '../../library/files';
import type { TeamQuotas } from '../../quotas/team-quotas';
import type { StorePort } from '../../store/port';
import type { HandlerPolicy } from './policy';

export function storageQuotaPolicy(store: StorePort, quotas: TeamQuotas, tasks: { reconcile(taskId: string): Promise<void> }): HandlerPolicy {
  const free = (taskId: string | undefined, bytes: number) =>
    bytes > 0 ? quotas.ledger.record(store.scope, { kind: 'storage', ...(taskId === undefined ? {} : { task_id: taskId }), bytes: -bytes }) : Promise.resolve();
  return {
    name: 'storage quota',
    wrap: (inner): Partial<ServiceHandlers> => ({
      // A task is charged what its folder holds (uploads and the agent's files): after a delete the
      // folder is measured again and what it no longer holds is freed.
      async deleteFile(input) {
        const out = await inner.deleteFile(input);
        await tasks.reconcile(input.task_id);
        return out;
      },
      async deleteTask(input) {
        const out = await inner.deleteTask(input);
        await tasks.reconcile(input.task_id);
        return out;
      },
      async deleteLibraryFile(input) {
        const row = await store.library.get(storeIdOf(input.project_id), input.path);
        const out = await inner.deleteLibraryFile(input);
        await free(undefined, row?.size ?? 0);
        return out;
      },
      async deleteProject(input) {
        const rows = await store.library.list(input.project_id);
        const out = await inner.deleteProject(input);
        await free(undefined, rows.reduce((sum, r) => sum + r.size, 0));
        return out;
      },
    }),
  };
}
