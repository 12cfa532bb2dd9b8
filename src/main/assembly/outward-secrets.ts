// Every secret Folio holds for a run — each model profile's key, the web search backend's and the
// embedding endpoint's keys, every MCP server's env values and headers — gathered in one list, and
// the seams through which a run reaches the outside, each scrubbing that list (and its encodings:
// base64, hex, reversed, spread out, any case; mcp/secrets.ts) from what passes: the model's
// requests (prompts, history, tool descriptions), tool results and errors (which the conversation
// stores, so the database and its backups), run events (SSE, the approval card: stream-scrubber.ts)
// and stored approvals.
import type { PendingApproval } from '../../shared/contract';
import type { ApprovalPort, ToolLookup } from '../agent/loop';
import type { ChatModel } from '../llm/types';
import type { McpManager } from '../mcp/manager';
import { secretValues } from '../mcp/secrets';
import { scrub, scrubDeep } from '../net/secret-scrub';
import { resolveApiKey, type KeyStore, type ModelProfile } from '../models';
import type { StorePort } from '../store/port';
import type { Tool } from '../tools/types';
import { secretEnvNames } from './secrets';

/**
 * A value worth scrubbing everywhere: a key-less local profile's placeholder ("ollama", "none") or an
 * MCP setting such as `production` would otherwise be cut out of every answer.
 */
const looksSecret = (value: string): boolean => value.length >= 12 || (value.length >= 8 && /\d/u.test(value));

/** The one list: every secret source feeds it here. */
export async function outwardSecrets(deps: { store: StorePort; keys: KeyStore; env: NodeJS.ProcessEnv; mcp: McpManager }, profiles: readonly ModelProfile[]): Promise<string[]> {
  const { store, keys, env, mcp } = deps;
  const values: (string | undefined)[] = profiles.map((p) => resolveApiKey(p, keys, env));
  for (const name of await secretEnvNames(store, profiles)) values.push(env[name]?.trim() || keys.get(name));
  // Every configured MCP server's env values and headers, resolved from the key store; none is started.
  for (const s of mcp.config().servers) values.push(...secretValues(s.transport === 'stdio' ? s.env : s.headers, keys));
  return [...new Set(values.filter((v): v is string => v !== undefined && looksSecret(v.trim())).map((v) => v.trim()))];
}

/** The model never receives a secret: messages, reasoning echoed back and tool schemas are scrubbed. */
export function scrubbingModel(model: ChatModel, secrets: readonly string[]): ChatModel {
  if (secrets.length === 0) return model;
  return {
    stream: (request, signal) => model.stream({ ...request, messages: scrubDeep(request.messages, secrets), ...(request.tools ? { tools: scrubDeep(request.tools, secrets) } : {}) }, signal),
  };
}

/** A tool whose description, result, risk detail and error messages are scrubbed. */
function scrubbingTool(tool: Tool, secrets: readonly string[]): Tool {
  const wrapped: Tool = {
    ...tool,
    async execute(args, ctx) {
      try {
        const result = await tool.execute(args, ctx);
        return { ...result, content: scrub(result.content, secrets) };
      } catch (err) {
        if (err instanceof Error) err.message = scrub(err.message, secrets);
        throw err;
      }
    },
  };
  Object.defineProperty(wrapped, 'description', { get: () => scrub(tool.description, secrets), enumerable: true });
  if (tool.assess) {
    const assess = tool.assess.bind(tool);
    wrapped.assess = async (args, ctx) => scrubDeep(await assess(args, ctx), secrets);
  }
  return wrapped;
}

export function scrubbingTools(tools: ToolLookup, secrets: readonly string[]): ToolLookup {
  if (secrets.length === 0) return tools;
  return {
    schemas: () => scrubDeep(tools.schemas(), secrets),
    get(name) {
      const tool = tools.get(name);
      return tool ? scrubbingTool(tool, secrets) : tool;
    },
  };
}

/** Stored questions (the database, its backups) never hold a secret either. */
export function scrubbingApprovals<A extends Pick<ApprovalPort, 'persist'>>(approvals: A, secrets: readonly string[]): A {
  if (secrets.length === 0) return approvals;
  return { ...approvals, persist: (approval: PendingApproval) => approvals.persist(scrubDeep(approval, secrets)) };
}
