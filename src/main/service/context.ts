// What every handler of the service reads: the scope's store and folders, the run manager, keys and
// the MCP servers, and who the request is (the keys it brought, who its outbound requests are
// charged to). Built by createCore once per core, and once per request of the team service.
import type { FileEntry, Task } from '../../shared/contract';
import { NotFoundError } from '../../shared/errors';
import type { ProfileContext } from '../assembly/profiles';
import type { McpManager } from '../mcp/manager';
import type { OutboundAudit } from '../net/outbound-audit';
import type { RunManager } from '../runs/run-manager';
import type { ProjectDeps } from './projects-service';

export interface ServiceContext extends ProfileContext {
  runs: RunManager;
  /** Present in the desktop app: opening files with the system's applications. */
  desktop?: DesktopShell;
  /** One connection per MCP server, shared by every task. */
  mcp: McpManager;
  /** The model keys the request brought (by variable name; `keys` answers with them first): runs it starts use them too. */
  brought: ReadonlyMap<string, string> | null;
  /** Who the request's requests leaving the service are charged to (the team service's audit rows); null on the desktop. */
  outbound: OutboundAudit | null;
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
