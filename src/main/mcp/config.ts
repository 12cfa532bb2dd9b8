// <data>/mcp.json in Claude Desktop's shape, so a person can paste their claude_desktop_config.json:
//   {"mcpServers": {"name": {"command", "args", "env"} | {"url", "headers"}}}
// plus Folio's optional per-server "disabled", "timeout_ms" and "start_timeout_ms". Each entry is
// checked on its own: a bad one is reported by name and the others still load.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { McpServerName, type McpConfigProblem } from '../../shared/contract/mcp';
import { FolioError, formatZodError } from '../../shared/errors';

export const MCP_CONFIG_FILE = 'mcp.json';
/** A tool call that gets no answer in this long ends as an error result. */
export const DEFAULT_CALL_TIMEOUT_MS = 60_000;
/** Spawning (or reaching) a server and its initialize handshake; npx may download a package first. */
export const DEFAULT_START_TIMEOUT_MS = 30_000;

export function mcpConfigPath(dataDir: string): string {
  return join(dataDir, MCP_CONFIG_FILE);
}

const Timeout = z.number().int().min(100).max(3_600_000);
const common = {
  disabled: z.boolean().optional(),
  timeout_ms: Timeout.optional(),
  start_timeout_ms: Timeout.optional(),
};
// Other tools' keys (Cherry Studio's "type", "description", ...) are tolerated, not required.
const StdioEntry = z.looseObject({
  command: z.string().min(1).max(4096),
  args: z.array(z.string().max(10_000)).max(200).default([]),
  env: z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'expected an environment variable name'), z.string().max(10_000)).default({}),
  cwd: z.string().max(4096).optional(),
  ...common,
});
const HttpEntry = z.looseObject({
  url: z
    .string()
    .url()
    .refine((u) => /^https?:\/\//iu.test(u), 'expected an http(s) URL'),
  headers: z.record(z.string().regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/, 'expected a header name'), z.string().max(10_000)).default({}),
  ...common,
});

export type McpServerConfig =
  | ({ name: string; transport: 'stdio' } & z.output<typeof StdioEntry>)
  | ({ name: string; transport: 'http' } & z.output<typeof HttpEntry>);

export interface McpConfig {
  servers: McpServerConfig[];
  problems: McpConfigProblem[];
}

/** The file as JSON: `{mcpServers: {...}}`; what the secrets step and the UI read and write. */
export type RawMcpConfig = { mcpServers: Record<string, unknown> } & Record<string, unknown>;

/** Thrown for a config that is not JSON or not `{"mcpServers": {...}}` at all (saving refuses it). */
export class McpConfigError extends FolioError {
  constructor(message: string) {
    super('invalid_input', message, { name: 'McpConfigError' });
  }
}

/** Parses the file's text into its raw JSON object; throws McpConfigError when it is not the expected shape. */
export function parseRawConfig(text: string): RawMcpConfig {
  if (text.trim() === '') return { mcpServers: {} };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new McpConfigError(`mcp.json is not valid JSON: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw new McpConfigError('mcp.json must be a JSON object like {"mcpServers": {...}}');
  const servers = (json as Record<string, unknown>).mcpServers ?? {};
  if (typeof servers !== 'object' || servers === null || Array.isArray(servers)) throw new McpConfigError('"mcpServers" must be an object of servers by name');
  return { ...(json as Record<string, unknown>), mcpServers: servers as Record<string, unknown> };
}

/** Validates each server entry on its own. */
/** Whether a raw mcp.json entry is a stdio server: one that names a command to run. */
export function isStdioEntry(entry: unknown): boolean {
  return typeof entry === 'object' && entry !== null && 'command' in entry;
}

export function checkServers(raw: RawMcpConfig): McpConfig {
  const servers: McpServerConfig[] = [];
  const problems: McpConfigProblem[] = [];
  for (const [name, entry] of Object.entries(raw.mcpServers)) {
    const named = McpServerName.safeParse(name);
    if (!named.success) {
      problems.push({ server: name, message: `The server name must be 1-64 of A-Z a-z 0-9 _ . - (it becomes part of tool names).` });
      continue;
    }
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      problems.push({ server: name, message: 'Expected an object with "command" (stdio) or "url" (Streamable HTTP).' });
      continue;
    }
    const fields = entry as Record<string, unknown>;
    if (fields.type === 'sse') {
      problems.push({ server: name, message: 'The old SSE transport is not supported; use the server\'s Streamable HTTP URL.' });
      continue;
    }
    if (isStdioEntry(fields)) {
      const parsed = StdioEntry.safeParse(fields);
      if (parsed.success) servers.push({ name, transport: 'stdio', ...parsed.data });
      else problems.push({ server: name, message: formatZodError(parsed.error) });
    } else if ('url' in fields) {
      const parsed = HttpEntry.safeParse(fields);
      if (parsed.success) servers.push({ name, transport: 'http', ...parsed.data });
      else problems.push({ server: name, message: formatZodError(parsed.error) });
    } else {
      problems.push({ server: name, message: 'Expected "command" (a stdio server) or "url" (a Streamable HTTP server).' });
    }
  }
  return { servers, problems };
}

/** Reads the file; a missing file is an empty config, an unreadable one a file-level problem. */
export function readMcpConfigFile(path: string): { raw: RawMcpConfig; config: McpConfig } {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    const raw = { mcpServers: {} };
    return { raw, config: { servers: [], problems: [] } };
  }
  try {
    const raw = parseRawConfig(text);
    return { raw, config: checkServers(raw) };
  } catch (err) {
    return { raw: { mcpServers: {} }, config: { servers: [], problems: [{ server: null, message: err instanceof Error ? err.message : String(err) }] } };
  }
}
