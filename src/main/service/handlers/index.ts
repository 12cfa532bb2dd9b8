// Every method of the contract, one module per resource, put together once. The transports (IPC,
// HTTP) are adapters around the result; the policies (service/policies) are layered on top of it by
// createCore, never by reassigning a handler.
import type { ServiceHandlers } from '../../../shared/contract';
import { pickProfile } from '../../assembly/profiles';
import { createBranchHandlers } from '../branches';
import type { ServiceContext, ServiceHooks } from '../context';
import { createMcpHandlers } from '../mcp-service';
import { createOutlineHandlers } from '../outline-service';
import { createProjectHandlers } from '../projects-service';
import { templateHandlers } from '../templates';
import { approvalHandlers } from './approvals';
import { deckHandlers } from './decks';
import { fileHandlers } from './files';
import { messageHandlers } from './messages';
import { modelHandlers } from './models';
import { settingsHandlers } from './settings';
import { systemHandlers } from './system';
import { taskHandlers } from './tasks';

export function createServiceHandlers(ctx: ServiceContext, hooks: ServiceHooks = {}): ServiceHandlers {
  const messages = messageHandlers(ctx);
  return {
    ...taskHandlers(ctx),
    ...messages,
    ...approvalHandlers(ctx),
    ...fileHandlers(ctx, hooks),
    ...modelHandlers(ctx),
    ...settingsHandlers(ctx, hooks),
    ...systemHandlers(ctx),
    // Approving an outline sends its message like any other.
    ...createOutlineHandlers(ctx, (input) => messages.sendMessage(input)),
    ...deckHandlers(ctx),
    ...templateHandlers(ctx.dataDir),
    ...createBranchHandlers(ctx, async (task) => (await pickProfile(ctx, task)).id),
    ...createMcpHandlers(ctx, hooks),
    ...createProjectHandlers({ store: ctx.store, dataDir: ctx.dataDir, ...hooks.library }),
  };
}
