// The set of tools a run may call, their JSON schemas for the provider, and argument parsing that
// turns every malformed call into an error string the model can act on.
import { z } from 'zod';
import { formatZodError } from '../../shared/errors';
import { type ToolSchema } from '../llm/types';
import { type Tool } from './types';

export type ParsedArguments = { ok: true; args: unknown } | { ok: false; error: string };

export class ToolRegistry {
  private readonly tools = new Map<string, Tool>();

  register(tool: Tool): void {
    if (this.tools.has(tool.name)) throw new Error(`Tool "${tool.name}" is already registered.`);
    this.tools.set(tool.name, tool);
  }

  get(name: string): Tool | undefined {
    return this.tools.get(name);
  }

  list(): Tool[] {
    return [...this.tools.values()];
  }

  schemas(): ToolSchema[] {
    return this.list().map(toolSchema);
  }

  /** Parses a call by tool name; an unknown name becomes an error listing what exists. */
  parseArguments(name: string, raw: string): ParsedArguments {
    const tool = this.tools.get(name);
    if (!tool) return { ok: false, error: unknownToolMessage(name, [...this.tools.keys()]) };
    return parseToolArguments(tool, raw);
  }

  unknownToolMessage(name: string): string {
    return unknownToolMessage(name, [...this.tools.keys()]);
  }
}

function unknownToolMessage(name: string, available: string[]): string {
  return `Unknown tool "${name}". Available tools: ${available.length > 0 ? available.join(', ') : '(none)'}.`;
}

/**
 * The JSON schema of each parameters schema, made once: the tool list is built for every model
 * turn, and converting ~15 zod schemas was ~2 ms of each turn. Shared, so never changed by callers.
 */
const jsonSchemas = new WeakMap<Tool['parameters'], Readonly<Record<string, unknown>>>();

export function toolSchema(tool: Tool): ToolSchema {
  if (tool.jsonSchema) return { name: tool.name, description: tool.description, parameters: tool.jsonSchema };
  let parameters = jsonSchemas.get(tool.parameters);
  if (!parameters) {
    // Input mode: fields with defaults are optional for the caller, which is what the model must know.
    const { $schema: _drop, ...converted } = z.toJSONSchema(tool.parameters, { io: 'input' }) as Record<string, unknown>;
    parameters = converted;
    jsonSchemas.set(tool.parameters, parameters);
  }
  return { name: tool.name, description: tool.description, parameters };
}

export function parseToolArguments(tool: Tool, raw: string): ParsedArguments {
  let json: unknown;
  // Some providers send an empty string for a call without arguments.
  const text = raw.trim() === '' ? '{}' : raw;
  try {
    json = JSON.parse(text);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    return { ok: false, error: `Invalid JSON in arguments for tool ${tool.name}: ${message}` };
  }
  const parsed = tool.parameters.safeParse(json);
  if (!parsed.success) {
    // zod prefixes type mismatches with "Invalid input: "; the path already says where.
    const detail = formatZodError(parsed.error).replace(/: Invalid input: /gu, ': ').replace(/^Invalid input: /u, '');
    return { ok: false, error: `Invalid arguments for tool ${tool.name}: ${detail}` };
  }
  return { ok: true, args: parsed.data };
}
