// What the team service refuses although the desktop offers it, because on a shared worker it would
// reach past the tenant: a stdio MCP server is a command the worker runs (unsandboxed, as the
// service's user, beside every tenant's files and the service's secrets), and a task's project
// folder is any path on the worker's disk. Checked on the request before the core sees it.
import type { MethodName } from '../../shared/contract/methods';
import { FolioError } from '../../shared/errors';

class TeamServiceRefusal extends FolioError {
  constructor(message: string) {
    super('unsupported', message, { name: 'UnsupportedError' });
  }
}

/** The refusal for a call the team service does not take, or null. */
export function teamServiceRefusal(method: MethodName, fields: Readonly<Record<string, unknown>>): FolioError | null {
  if (method === 'updateTask' && fields.workspace_path !== undefined && fields.workspace_path !== null) {
    return new TeamServiceRefusal('workspace_path: the team service keeps each task in its own folder; a folder on the server cannot be chosen');
  }
  if (method === 'saveMcpConfig' && typeof fields.text === 'string' && namesStdioServer(fields.text)) {
    return new TeamServiceRefusal('MCP servers in the team service are Streamable HTTP servers ("url"); a stdio server ("command") would run a command on the server');
  }
  return null;
}

/** True when the config has an entry with a `command` (the MCP config's own test for stdio). */
function namesStdioServer(text: string): boolean {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return false; // refused by the config parser as not JSON
  }
  const servers = (parsed as { mcpServers?: unknown } | null)?.mcpServers;
  if (servers === null || typeof servers !== 'object') return false;
  return Object.values(servers).some((entry) => entry !== null && typeof entry === 'object' && 'command' in entry);
}
