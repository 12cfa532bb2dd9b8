// The team service's storage quota is a level: uploads add to it, so deleting what was uploaded
// (a source file, a task with its sources, a library file, a project with its library) frees it.
import type { ServiceHandlers } from '../../../shared/contract';
import { storeIdOf } from '../../library/files';
import type { TeamQuotas } from '../../quotas/team-quotas';
import type { StorePort } from '../../store/port';
import type { HandlerPolicy } from './policy';

export function storageQuotaPolicy(store: StorePort, quotas: TeamQuotas): HandlerPolicy {
  const free = (taskId: string | undefined, bytes: number) =>
    bytes > 0 ? quotas.ledger.record(store.scope, { kind: 'storage', ...(taskId === undefined ? {} : { task_id: taskId }), bytes: -bytes }) : Promise.resolve();
  return {
    name: 'storage quota',
    wrap: (inner): Partial<ServiceHandlers> => ({
      async deleteFile(input) {
        const entry = await store.files.get(input.task_id, input.path);
        const out = await inner.deleteFile(input);
        if (entry?.kind === 'source') await free(input.task_id, entry.size);
        return out;
      },
      async deleteTask(input) {
        const sources = (await store.files.list(input.task_id)).filter((f) => f.kind === 'source');
        const out = await inner.deleteTask(input);
        await free(input.task_id, sources.reduce((sum, f) => sum + f.size, 0));
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
