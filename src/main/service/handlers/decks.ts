// A deck's saved versions: list them, and go back to one (re-rendered from its spec).
import type { ServiceHandlers } from '../../../shared/contract';
import { FolioError } from '../../../shared/errors';
import { taskDir, templatesDir, themesDir } from '../../workspace/layout';
import { taskFolders } from '../../workspace/task-paths';
import { requireTask, type ServiceContext } from '../context';
import { syncTaskFiles } from '../task-files';

export type DeckHandlers = Pick<ServiceHandlers, 'listDeckVersions' | 'restoreDeckVersion'>;

export function deckHandlers(ctx: ServiceContext): DeckHandlers {
  return {
    async listDeckVersions(input) {
      await requireTask(ctx, input.task_id);
      const { listDeckVersions } = await import('../../renderers/deck/versions');
      return listDeckVersions(taskDir(ctx.dataDir, input.task_id), input.path);
    },
    async restoreDeckVersion(input) {
      const task = await requireTask(ctx, input.task_id);
      // The agent may be editing the same spec: going back waits until it has finished.
      if (ctx.runs.activeRunFor(task.id)) throw new FolioError('conflict', 'The agent is working on this task; go back to a version once it has finished.');
      const root = taskDir(ctx.dataDir, task.id);
      const { restoreDeckVersion } = await import('../../renderers/deck/render-version');
      const restored = await restoreDeckVersion(taskFolders({ root: task.workspace_path ?? root, taskRoot: root }), input.path, {
        themesDir: themesDir(ctx.dataDir),
        templatesDir: templatesDir(ctx.dataDir),
        check: { hiddenPaths: [ctx.dataDir] },
      });
      await syncTaskFiles(ctx.store, ctx.dataDir, task.id);
      return { path: restored.path, spec_path: restored.spec_path };
    },
  };
}

