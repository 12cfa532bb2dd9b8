// Tools by the names a person knows them by. Folio's own tools have a translated name; an MCP
// server's tool (`mcp__<server>__<tool>`) is shown as its own name and its server's; anything else
// keeps its name (a skill, a tool from a newer core).
import type { Say } from './locales/say';

const MCP_NAME = /^mcp__(.+?)__(.+)$/u;

export function mcpParts(name: string): { server: string; tool: string } | null {
  const m = MCP_NAME.exec(name);
  return m ? { server: m[1], tool: m[2] } : null;
}

export function toolLabel(name: string, t: Say): string {
  const mcp = mcpParts(name);
  if (mcp) return t('toolName.mcp', { tool: mcp.tool.replace(/_/gu, ' '), server: mcp.server });
  return t(`toolName.${name}`, { defaultValue: name });
}
