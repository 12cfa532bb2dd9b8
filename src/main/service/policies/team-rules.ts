// What the team service refuses or leaves out although the desktop offers it, because on a shared
// worker it would reach past the tenant: a stdio MCP server is a command the worker runs
// (unsandboxed, as the service's user, beside every tenant's files and the service's secrets), a
// task's project folder is any path on the worker's disk, and the server's own paths tell a tenant
// where every other tenant's files are. Applied to the core's handlers, so every transport (HTTP
// today, whatever comes next) gets the same rules.
import { sep } from 'node:path';
import type { ConfigWarning, MethodName, MethodOutput, ServiceHandlers } from '../../../shared/contract';
import { FolioError } from '../../../shared/errors';
import { isStdioEntry, McpConfigError, parseRawConfig } from '../../mcp/config';
import type { HandlerPolicy } from './policy';

class TeamServiceRefusal extends FolioError {
  constructor(message: string) {
    super('unsupported', message, { name: 'UnsupportedError' });
  }
}

/** The name a tenant sees for its MCP config, in place of the file's path on the worker. */
export const TEAM_MCP_CONFIG_NAME = 'mcp.json';

/** The server's folders a tenant's answers must not name. */
export interface TeamPolicyPaths {
  /** The tenant's data folder on the worker (inside the storage root). */
  dataDir: string;
  /** Folio's own files (built-in skills, model profiles, prompts). */
  resourcesDir: string;
  /** Folders around them, such as the storage root that holds every tenant's folder. */
  outerDirs?: readonly string[];
}

/** The team service's rules over a tenant's handlers. */
export function teamRulesPolicy(paths: TeamPolicyPaths): HandlerPolicy {
  return { name: 'team rules', wrap: (inner) => teamRules(inner, paths) };
}

function teamRules(inner: Readonly<ServiceHandlers>, paths: TeamPolicyPaths): ServiceHandlers {
  const shown = serverPathsHidden(paths);
  // A skill's file and a config warning's source become paths inside the tenant's folder or
  // Folio's own (`skills/analyze/SKILL.md`, `models/acme.yaml`): enough to find the file, nothing
  // of the server's layout.
  const warningsShown = (warnings: ConfigWarning[]): ConfigWarning[] =>
    warnings.map((w) => ({
      source: shown(w.source),
      finding: w.finding.kind === 'defined_twice' ? { ...w.finding, folder: shown(w.finding.folder) } : w.finding,
      ...(w.detail === undefined ? {} : { detail: shown(w.detail) }),
      message: shown(w.message),
    }));
  const refined: ServiceHandlers = {
    ...inner,
    async updateTask(input) {
      if (input.workspace_path !== undefined && input.workspace_path !== null) {
        throw new TeamServiceRefusal('workspace_path: the team service keeps each task in its own folder; a folder on the server cannot be chosen');
      }
      return inner.updateTask(input);
    },
    async saveMcpConfig(input) {
      if (namesStdioServer(input.text)) {
        throw new TeamServiceRefusal('MCP servers in the team service are Streamable HTTP servers ("url"); a stdio server ("command") would run a command on the server');
      }
      return withoutServerPath(await inner.saveMcpConfig(input));
    },
    getMcpConfig: async (input) => withoutServerPath(await inner.getMcpConfig(input)),
    getSettings: async (input) => withoutDataDir(await inner.getSettings(input)),
    updateSettings: async (input) => withoutDataDir(await inner.updateSettings(input)),
    async listSkills(input) {
      const out = await inner.listSkills(input);
      return { skills: out.skills.map((skill) => ({ ...skill, path: shown(skill.path) })), warnings: warningsShown(out.warnings) };
    },
    async listModels(input) {
      const out = await inner.listModels(input);
      return { ...out, warnings: warningsShown(out.warnings) };
    },
  };
  // Any other answer that would name a server folder does so in an error message, if at all.
  const guarded: Partial<Record<MethodName, (input: unknown) => Promise<unknown>>> = {};
  for (const method of Object.keys(refined) as MethodName[]) {
    const handler = refined[method] as (input: unknown) => Promise<unknown>;
    guarded[method] = async (input) => {
      try {
        return await handler(input);
      } catch (err) {
        if (err instanceof Error) err.message = shown(err.message);
        throw err;
      }
    };
  }
  return guarded as ServiceHandlers;
}

/** Rewrites the server's folders in a text to paths relative to them. */
function serverPathsHidden({ dataDir, resourcesDir, outerDirs = [] }: TeamPolicyPaths): (text: string) => string {
  // The longer first, so a folder inside another is rewritten relative to itself.
  const roots = [dataDir, resourcesDir, ...outerDirs].map((dir) => dir.replace(/[\\/]+$/u, '')).sort((a, b) => b.length - a.length);
  return (text) => {
    let out = text;
    for (const root of roots) out = out.replaceAll(`${root}${sep}`, '').replaceAll(root, '.');
    return out;
  };
}

/** True when the config has a stdio entry (the MCP config's own test). */
function namesStdioServer(text: string): boolean {
  try {
    const { mcpServers } = parseRawConfig(text);
    return Object.values(mcpServers).some(isStdioEntry);
  } catch (err) {
    if (err instanceof McpConfigError) return false; // the save refuses it as not a config
    throw err;
  }
}

function withoutServerPath(config: MethodOutput<'getMcpConfig'>): MethodOutput<'getMcpConfig'> {
  return { ...config, path: TEAM_MCP_CONFIG_NAME };
}

function withoutDataDir(settings: MethodOutput<'getSettings'>): MethodOutput<'getSettings'> {
  const { data_dir: _serverPath, ...rest } = settings;
  return rest;
}
