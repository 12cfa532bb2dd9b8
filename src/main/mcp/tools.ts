// MCP servers' tools as Folio tools for one run: `mcp__<server>__<tool>`, kind `mcp` (asked in every
// approval mode unless granted), parameters as the server's JSON Schema made provider-safe. Built per
// run from the task's enabled servers, so the static catalog stays the same for everyone.
import type { OutboundAudit } from '../net/outbound-audit';
import { z } from 'zod';
import { NO_PATHS, type Tool, type ToolTraits } from '../tools/types';
import type { McpManager, McpToolInfo } from './manager';
import { providerSchema } from './schema';
import { modelToolName } from './tool-names';

/** The server validates arguments against its own schema; Folio only requires an object. */
const McpArguments = z.record(z.string(), z.unknown());
const MAX_DESCRIPTION = 1024;

/** What every MCP tool is to the approval policy: its own kind, never code run by Folio, network when remote. */
export function mcpToolTraits(http: boolean): ToolTraits {
  return { kind: 'mcp', runsCode: false, network: http, paths: NO_PATHS, writesArtifacts: false, endsTurn: false };
}

/** The MCP tools known now (servers already started), without starting any: for Settings lists. */
export function loadedMcpTools(manager: McpManager): Pick<Tool, 'name' | 'traits'>[] {
  return manager.list().servers.flatMap((s) => s.tools.map((t) => ({ name: t.model_name, traits: mcpToolTraits(s.transport === 'http') })));
}

export function mcpTool(manager: McpManager, server: string, info: McpToolInfo, http: boolean): Tool<typeof McpArguments> {
  const name = modelToolName(server, info.name);
  const description = `[MCP server "${server}"] ${info.description}`.slice(0, MAX_DESCRIPTION);
  return {
    name,
    description,
    parameters: McpArguments,
    jsonSchema: providerSchema(info.inputSchema),
    traits: mcpToolTraits(http),
    assess() {
      // The approval card names the server and the tool as the server calls it (the model sees a sanitized name).
      return { risk: 'standard', detail: `MCP server "${server}", tool "${info.name}"${info.description ? `: ${info.description.slice(0, 500)}` : ''}` };
    },
    async execute(args, ctx) {
      const result = await manager.callTool(server, info.name, args, ctx.signal, ctx.outbound);
      return { content: result.text, isError: result.isError };
    },
  };
}

/**
 * The tools of the task's enabled servers (starting them if needed), and a note per server that could
 * not be used, for the system prompt: the model is told rather than left wondering.
 */
/** `outbound`: who a server started here is charged to (the run). */
export async function mcpToolsForTask(manager: McpManager, enabled: readonly string[] | null, signal: AbortSignal, outbound: OutboundAudit | null): Promise<{ tools: Tool[]; unavailable: string[] }> {
  if (!enabled || enabled.length === 0) return { tools: [], unavailable: [] };
  const configured = new Map(manager.config().servers.map((s) => [s.name, s]));
  const tools: Tool[] = [];
  const unavailable: string[] = [];
  const seen = new Set<string>();
  const results = await Promise.allSettled(enabled.map((name) => manager.tools(name, outbound, signal)));
  for (const [i, name] of enabled.entries()) {
    const server = configured.get(name);
    const result = results[i];
    if (!server || result.status === 'rejected') {
      const why = !server ? 'it is no longer in mcp.json' : result.status === 'rejected' && result.reason instanceof Error ? result.reason.message : 'it could not start';
      unavailable.push(`MCP server "${name}" is unavailable: ${why}`);
      continue;
    }
    for (const info of result.value) {
      const tool = mcpTool(manager, name, info, server.transport === 'http');
      if (seen.has(tool.name)) continue;
      seen.add(tool.name);
      tools.push(tool);
    }
  }
  return { tools, unavailable };
}
