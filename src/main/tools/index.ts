// The tools every run gets. Tools that need services (sources, artifacts, the web) are added by their owners.
import { editTool } from './edit';
import { globTool } from './glob';
import { grepTool } from './grep';
import { readTool } from './read';
import { createShellTool, type ShellToolOptions } from './shell/tool';
import { type Tool } from './types';
import { writeTool } from './write';

export function createCoreTools(options: ShellToolOptions = {}): Tool[] {
  return [readTool, writeTool, editTool, globTool, grepTool, createShellTool(options)];
}

export { ToolRegistry, parseToolArguments, toolSchema } from './registry';
export { resolveInside, toRelative } from './paths';
export { classifyCommand } from './shell/classify';
export { stripSecrets, runShell } from './shell/run';
export { ToolError } from './types';
export type { Tool, ToolContext, ToolResult, ToolRisk } from './types';
