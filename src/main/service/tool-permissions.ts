// "Always allow this tool" from the service's side: the Settings list, the switch, and the approval
// card's "always" answer. Which tools may have it is the approval policy's decision (traits); this
// module only checks a name against it before anything is stored.
import type { ServiceHandlers, ToolPermission } from '../../shared/contract';
import { NotFoundError, ValidationError } from '../../shared/errors';
import { asksAtAll, isAlwaysAllowable } from '../agent/approval-policy';
import { alwaysAllowedTools, setAlwaysAllowed } from '../store/always-allow';
import type { StorePort } from '../store/port';
import type { Tool } from '../tools/types';
import { MCP_TOOL_PREFIX } from '../mcp/tool-names';

/**
 * MCP tools are named `mcp__<server>__<tool>` and are known only while their server is loaded, so a
 * name of that shape is accepted without its traits; nothing is lost, because the policy checks the
 * real traits again at each call (isCallGranted) and ignores the grant for a tool that runs code.
 */

export interface ToolPermissionDeps {
  store: Pick<StorePort, 'settings' | 'transaction'>;
  /** The tools known now (the built-in catalog, plus MCP tools where their servers are loaded). */
  tools: () => readonly Pick<Tool, 'name' | 'traits'>[];
}

/** Throws unless `name` may be always allowed; a tool that runs code is a ValidationError. */
export function assertAlwaysAllowable(deps: ToolPermissionDeps, name: string): void {
  const tool = deps.tools().find((t) => t.name === name);
  if (!tool) {
    if (name.startsWith(MCP_TOOL_PREFIX)) return;
    throw new NotFoundError(`No tool ${name}`);
  }
  if (tool.traits.runsCode) {
    throw new ValidationError(`${name} runs code: commands and scripts are allowed per exact command ("Allow for this task"), never as a whole tool.`);
  }
  if (!isAlwaysAllowable(tool.traits)) throw new ValidationError(`${name} never asks for approval; there is nothing to allow.`);
}

/** The approval card's "always allow this tool": checked against the tool's traits, then stored. */
export async function allowAlways(deps: ToolPermissionDeps, name: string): Promise<void> {
  assertAlwaysAllowable(deps, name);
  await deps.store.transaction((tx) => setAlwaysAllowed(tx.settings, name, true));
}

export function toolPermissionHandlers(deps: ToolPermissionDeps): Pick<ServiceHandlers, 'listToolPermissions' | 'setToolPermission'> {
  const describe = (name: string, allowed: ReadonlySet<string>): ToolPermission => {
    const tool = deps.tools().find((t) => t.name === name);
    return { name, kind: tool?.traits.kind ?? null, always_allow: allowed.has(name), grantable: tool ? isAlwaysAllowable(tool.traits) : true };
  };
  return {
    async listToolPermissions() {
      const allowed = new Set(await alwaysAllowedTools(deps.store.settings));
      const asking = deps.tools().filter((t) => asksAtAll(t.traits)).map((t) => t.name);
      // Names stored for tools not loaded now (an MCP server that is off) stay listed, so they can be turned off.
      const stored = [...allowed].filter((name) => !asking.includes(name));
      return { tools: [...asking, ...stored].map((name) => describe(name, allowed)) };
    },
    async setToolPermission(input) {
      const known = deps.tools().some((t) => t.name === input.name);
      const stored = (await alwaysAllowedTools(deps.store.settings)).includes(input.name);
      // Taking a permission away is always safe, even for a name no longer known.
      if (input.always_allow || (!known && !stored)) assertAlwaysAllowable(deps, input.name);
      const allowed = await deps.store.transaction(async (tx) => {
        await setAlwaysAllowed(tx.settings, input.name, input.always_allow);
        return alwaysAllowedTools(tx.settings);
      });
      return describe(input.name, new Set(allowed));
    },
  };
}
