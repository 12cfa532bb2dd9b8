// What every handler of the service reads: the scope's store and folders, the run manager, keys and
// the MCP servers. Built once by createCore.
import type { FileEntry, Task } from '../../shared/contract';
import { NotFoundError } from '../../shared/errors';
import type { ProfileContext } from '../assembly/profiles';
import type { McpManager } from '../mcp/manager';
import type { RunManager } from '../runs/run-manager';
import type { ProjectDeps } from './projects-service';

export interface ServiceContext extends ProfileContext {
  runs: RunManager;
  /** Present in the desktop app: opening files with the system's applications. */
  desktop?: DesktopShell;
  /** One connection per MCP server, shared by every task. */
  mcp: McpManager;
}

export interface DesktopShell {
  openPath(absPath: string): Promise<string>;
  showItemInFolder(absPath: string): void;
}

/** What the core does around some handlers: extraction after an upload, library indexing, the embedding backfill. */
export interface ServiceHooks {
  onSourcesAdded?: (taskId: string, files: FileEntry[]) => void;
  library?: Pick<ProjectDeps, 'indexer' | 'embedder'>;
  /** After the embedding settings changed (the backfill embeds pages for the new profile). */
  onEmbeddingChanged?: () => void;
}

export async function requireTask(ctx: Pick<ServiceContext, 'store'>, id: string): Promise<Task> {
  const task = await ctx.store.tasks.get(id);
  if (!task) throw new NotFoundError(`No task ${id}`);
  return task;
}
