// The one place a run's tools are put together. Three sources feed it: the built-in catalog
// (tools/catalog.ts), the task's MCP servers (mcp/tools.ts) and the skills that run as sub-agents
// (subagents/skill-agents.ts). Each of them is a `Tool` declaring its `traits` (what it reads,
// writes, runs, reaches), and those traits are all the approval policy, the loop, the UI and the
// sandbox read: there is no second description of a tool anywhere.
import type { RunEventBody } from '../../shared/contract';
import { NESTED_CALL_SEPARATOR } from '../../shared/contract';
import type { ApprovalPort, ToolLookup } from '../agent/loop';
import type { McpManager } from '../mcp/manager';
import { loadedMcpTools, mcpToolsForTask } from '../mcp/tools';
import type { StorePort } from '../store/port';
import { createSkillToolLookup, isNestedCallId, type SkillAgentDeps } from '../subagents/skill-agents';
import type { CatalogOptions } from '../tools/catalog';
import type { Tool } from '../tools/types';
import type { OutboundAudit } from '../net/outbound-audit';

export interface ToolSetInput {
  /** The built-in tools' options (sandbox, secrets, skills, OCR, search...). */
  catalog: CatalogOptions;
  mcp: McpManager;
  /** The MCP servers the task enabled (null or empty: none). */
  servers: readonly string[] | null;
  /** Who a server started for the run is charged to. */
  outbound: OutboundAudit | null;
  /** How skills run as sub-agents: everything but the run's base tools, which are assembled here. */
  skills: Omit<SkillAgentDeps, 'base' | 'dropNestedApprovals' | 'approvals'>;
  approvals: ApprovalPort;
  store: StorePort;
  taskId: string;
  signal: AbortSignal;
}

export interface RunToolSet {
  tools: ToolLookup;
  /** One line per enabled MCP server that could not be used, for the system prompt. */
  unavailable: string[];
}

/**
 * The run's tools. Starting an MCP server can take seconds (npx may download it first), so the UI is
 * told what the run waits for. Approvals a nested (sub-agent) call left behind are dropped first: a
 * nested question never outlives the call that asked it.
 */
export async function* assembleToolSet(input: ToolSetInput): AsyncGenerator<RunEventBody, RunToolSet> {
  // The tools (their modules, schemas and renderers) load at the first run, not at start-up.
  const { createToolRegistry } = await import('../tools/catalog');
  const registry = createToolRegistry(input.catalog);

  // The task's MCP servers add their tools to this run's registry only.
  const servers = input.servers ?? [];
  if (servers.length > 0) yield { type: 'progress', step: 'start_mcp_servers', done: 0, total: servers.length };
  const mcpTools = await mcpToolsForTask(input.mcp, servers, input.signal, input.outbound);
  for (const tool of mcpTools.tools) registry.register(tool);

  const dropApprovals = async (match: (callId: string) => boolean) => {
    for (const a of await input.store.approvals.list(input.taskId)) if (match(a.call_id)) await input.store.approvals.delete(a.run_id, a.call_id);
  };
  await dropApprovals(isNestedCallId);
  const tools = createSkillToolLookup({
    ...input.skills,
    base: registry,
    approvals: input.approvals,
    dropNestedApprovals: (parent) => dropApprovals((id) => id.startsWith(`${parent}${NESTED_CALL_SEPARATOR}`)),
  });
  return { tools, unavailable: mcpTools.unavailable };
}

/**
 * The tools whose permissions the person can set: the catalog's (their traits do not depend on the
 * catalog's options) and the MCP tools of servers already started (listing never starts one).
 * The catalog loads at the first call, not at start-up.
 */
export function permissionToolSet(mcp: McpManager): { load(): Promise<void>; tools(): Pick<Tool, 'name' | 'traits'>[] } {
  let builtin: Tool[] | undefined;
  return {
    async load() {
      builtin ??= (await import('../tools/catalog')).toolCatalog();
    },
    tools() {
      if (!builtin) throw new Error('the tool catalog is read before it was loaded');
      return [...builtin, ...loadedMcpTools(mcp)];
    },
  };
}
