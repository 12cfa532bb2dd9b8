// MCP (Model Context Protocol) servers as the contract shows them: names, status, tools, resources
// and prompts. Secrets (env values, headers) never appear here: main redacts them first.
import { z } from 'zod';

/** A server's name in mcp.json: also part of its tools' names (`mcp__<server>__<tool>`) and of URLs. */
export const McpServerName = z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/, 'expected a server name (1-64 of A-Z a-z 0-9 _ . -)');

/** idle: not started yet; starting; ready; error: failed to start, crashed or closed; stopped: by the app or a restart. */
export const McpStatus = z.enum(['idle', 'starting', 'ready', 'error', 'stopped']);
export type McpStatus = z.infer<typeof McpStatus>;

export const McpServerInfo = z.object({
  name: z.string(),
  transport: z.enum(['stdio', 'http']),
  disabled: z.boolean(),
  status: McpStatus,
  /** Why the server is in `error` (start failure, crash, timeout); null otherwise. */
  error: z.string().nullable(),
  /** Known once the server has started: each tool with the name the model sees. */
  tools: z.array(z.object({ name: z.string(), model_name: z.string(), description: z.string() })),
  /** Counts once started; null when the server does not offer them or has not started. */
  resources: z.number().int().nullable(),
  prompts: z.number().int().nullable(),
});
export type McpServerInfo = z.infer<typeof McpServerInfo>;

/** A configuration problem, per server (`server` null: the file as a whole). */
export const McpConfigProblem = z.object({ server: z.string().nullable(), message: z.string() });
export type McpConfigProblem = z.infer<typeof McpConfigProblem>;

export const McpResourceInfo = z.object({
  uri: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  mime_type: z.string().nullable(),
});
export type McpResourceInfo = z.infer<typeof McpResourceInfo>;

export const McpPromptInfo = z.object({
  name: z.string(),
  description: z.string().nullable(),
  arguments: z.array(z.object({ name: z.string(), description: z.string().nullable(), required: z.boolean() })),
});
export type McpPromptInfo = z.infer<typeof McpPromptInfo>;

/** What replaces every env value and header in the config the UI sees; saved back unchanged, the stored value is kept. */
export const MCP_REDACTED = '••••';
