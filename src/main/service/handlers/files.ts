// A task's files: list, add, read, delete, the sources' extraction status, previews, PDF export and
// opening a file with the system's application (desktop only).
import { existsSync, rmSync, statSync } from 'node:fs';
import { extname } from 'node:path';
import type { ServiceHandlers } from '../../../shared/contract';
import { FolioError, NotFoundError } from '../../../shared/errors';
import { sourceStatus } from '../../sources/cache';
import { taskDir } from '../../workspace/layout';
import { resolveInside } from '../../workspace/task-paths';
import { requireTask, type ServiceContext, type ServiceHooks } from '../context';
import { readFileContent } from '../file-content';
import { addSourceFile, syncTaskFiles } from '../task-files';
import { readArtifactPreview } from './artifact-preview';

const OPENABLE = new Set(['.pptx', '.docx', '.xlsx', '.pdf', '.png', '.jpg', '.jpeg', '.gif', '.webp', '.md', '.txt', '.csv']);

export type FileHandlers = Pick<ServiceHandlers, 'listFiles' | 'addFiles' | 'readFile' | 'deleteFile' | 'listSources' | 'getArtifactPreview' | 'exportPdf' | 'openPath'>;

export function fileHandlers(ctx: ServiceContext, hooks: Pick<ServiceHooks, 'onSourcesAdded'>): FileHandlers {
  const { store } = ctx;
  return {
    async listFiles(input) {
      await requireTask(ctx, input.task_id);
      await syncTaskFiles(store, ctx.dataDir, input.task_id);
      return { files: await store.files.list(input.task_id) };
    },
    async addFiles(input) {
      await requireTask(ctx, input.task_id);
      const files = [];
      for (const path of input.paths) files.push(await addSourceFile(store, ctx.dataDir, input.task_id, path, path));
      hooks.onSourcesAdded?.(input.task_id, files);
      return { files };
    },
    async readFile(input) {
      await requireTask(ctx, input.task_id);
      return readFileContent(taskDir(ctx.dataDir, input.task_id), input.path, `No file ${input.path} in this task`);
    },
    async deleteFile(input) {
      await requireTask(ctx, input.task_id);
      const abs = resolveInside(taskDir(ctx.dataDir, input.task_id), input.path);
      if (!(await store.files.get(input.task_id, input.path)) && !safeIsFile(abs)) throw new NotFoundError(`No file ${input.path} in this task`);
      rmSync(abs, { force: true });
      await store.files.delete(input.task_id, input.path);
      return { ok: true };
    },
    async listSources(input) {
      await requireTask(ctx, input.task_id);
      const root = taskDir(ctx.dataDir, input.task_id);
      return { sources: existsSync(root) ? await sourceStatus(root) : [] };
    },
    async getArtifactPreview(input) {
      await requireTask(ctx, input.task_id);
      return readArtifactPreview(taskDir(ctx.dataDir, input.task_id), input.path);
    },
    async exportPdf(input) {
      await requireTask(ctx, input.task_id);
      const { exportPdf } = await import('../../renderers/pdf-export');
      const result = await exportPdf(taskDir(ctx.dataDir, input.task_id), input.path, { hiddenPaths: [ctx.dataDir], ...(input.notes ? { notes: true } : {}) });
      await syncTaskFiles(store, ctx.dataDir, input.task_id);
      return result;
    },
    async openPath(input) {
      await requireTask(ctx, input.task_id);
      if (!ctx.desktop) throw new FolioError('unsupported', 'Opening files with system applications is only available in the desktop app; download the file instead.');
      const abs = resolveInside(taskDir(ctx.dataDir, input.task_id), input.path);
      if (!safeIsFile(abs)) throw new NotFoundError(`No file ${input.path} in this task`);
      // The model can write any file; only document and image types are handed to the system's
      // default application, so a written script or .desktop file is never launched this way.
      if (!input.reveal && !OPENABLE.has(extname(abs).toLowerCase())) {
        throw new FolioError('forbidden', `Folio opens only documents and images; use Show in folder for ${input.path}`);
      }
      if (input.reveal) ctx.desktop.showItemInFolder(abs);
      else {
        const failure = await ctx.desktop.openPath(abs);
        if (failure) throw new FolioError('unsupported', `The system could not open ${input.path}: ${failure}`);
      }
      return { ok: true };
    },
  };
}

function safeIsFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
