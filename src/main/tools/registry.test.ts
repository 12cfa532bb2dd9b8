import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toolCatalog } from './catalog';
import { ToolRegistry, parseToolArguments } from './registry';
import { NO_PATHS, type Tool } from './types';

const echoTool: Tool = {
  name: 'echo',
  description: 'Echo a path.',
  parameters: z.object({ path: z.string(), times: z.number().int().min(1).default(1) }),
  traits: { kind: 'read', runsCode: false, network: false, paths: NO_PATHS, writesArtifacts: false, endsTurn: false },
  async execute() {
    return { content: 'ok' };
  },
};

describe('ToolRegistry', () => {
  it('registers, looks up and lists tools', () => {
    const registry = new ToolRegistry();
    registry.register(echoTool);
    expect(registry.get('echo')).toBe(echoTool);
    expect(registry.get('nope')).toBeUndefined();
    expect(registry.list().map((t) => t.name)).toEqual(['echo']);
    expect(() => registry.register(echoTool)).toThrow(/already registered/);
  });

  it('turns zod parameters into JSON Schema without $schema', () => {
    const registry = new ToolRegistry();
    registry.register(echoTool);
    const [schema] = registry.schemas();
    expect(schema?.name).toBe('echo');
    expect(schema?.description).toBe('Echo a path.');
    expect(schema?.parameters).not.toHaveProperty('$schema');
    expect(schema?.parameters).toMatchObject({ type: 'object', properties: { path: { type: 'string' } }, required: ['path'] });
  });

  it('produces an object schema for every catalog tool', () => {
    const registry = new ToolRegistry();
    for (const tool of toolCatalog()) registry.register(tool);
    expect(registry.schemas()).toHaveLength(toolCatalog().length);
    for (const schema of registry.schemas()) expect(schema.parameters.type).toBe('object');
  });

  it('lists available tools for an unknown name', () => {
    const registry = new ToolRegistry();
    registry.register(echoTool);
    const parsed = registry.parseArguments('rm_everything', '{}');
    expect(parsed).toEqual({ ok: false, error: 'Unknown tool "rm_everything". Available tools: echo.' });
  });
});

describe('parseToolArguments', () => {
  it('parses valid arguments and applies defaults', () => {
    expect(parseToolArguments(echoTool, '{"path":"a.md"}')).toEqual({ ok: true, args: { path: 'a.md', times: 1 } });
  });

  it('reports malformed JSON with the parser message', () => {
    const parsed = parseToolArguments(echoTool, '{"path": ');
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error).toMatch(/^Invalid JSON in arguments for tool echo: .+/);
  });

  it('reports schema failures by field', () => {
    const parsed = parseToolArguments(echoTool, '{"path": 3}');
    expect(parsed).toEqual({ ok: false, error: 'Invalid arguments for tool echo: path: expected string, received number' });
    const missing = parseToolArguments(echoTool, '{}');
    expect(missing).toEqual({ ok: false, error: 'Invalid arguments for tool echo: path: expected string, received undefined' });
  });

  it('treats an empty argument string as an empty object', () => {
    const parsed = parseToolArguments(echoTool, '  ');
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error).toMatch(/path: expected string/);
  });
});
