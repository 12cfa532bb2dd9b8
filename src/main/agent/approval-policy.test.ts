import { describe, expect, it } from 'vitest';
import { toolCatalog } from '../tools/catalog';
import type { Tool } from '../tools/types';
import { grantKeyFor, isAlwaysAllowable, isCallGranted, needsApproval, workAreaGrantFor } from './approval-policy';

const tools = new Map(toolCatalog().map((t) => [t.name, t] as const));
const tool = (name: string): Tool => {
  const found = tools.get(name);
  if (!found) throw new Error(`no tool ${name}`);
  return found;
};

describe('needsApproval reads the tool’s traits', () => {
  it.each([
    // [tool, mode, risk, granted, asks]
    ['read', 'ask', 'standard', false, false],
    ['ocr', 'ask', 'standard', false, false],
    ['write', 'ask', 'standard', false, true],
    ['write', 'auto-edit', 'standard', false, false],
    ['write', 'ask', 'standard', true, false],
    ['render_deck', 'auto-edit', 'standard', false, false],
    ['web_fetch', 'auto-edit', 'standard', false, true],
    ['web_fetch', 'auto', 'standard', false, false],
    ['shell', 'auto', 'standard', false, true],
    ['run_script', 'auto', 'standard', false, true],
    ['shell', 'auto', 'standard', true, false],
    ['shell', 'auto', 'destructive', true, true],
    ['write', 'auto', 'destructive', true, true],
    // The outline is itself the question put to the person.
    ['propose_outline', 'ask', 'standard', false, false],
    ['propose_outline', 'ask', 'destructive', false, true],
  ] as const)('%s in %s mode, %s, granted=%s → asks=%s', (name, mode, risk, granted, asks) => {
    expect(needsApproval({ mode, traits: tool(name).traits, risk, granted })).toBe(asks);
  });
});

describe('grantKeyFor', () => {
  it('grants a tool that does not run code as a whole', () => {
    expect(grantKeyFor(tool('write'), { path: 'a', content: 'b' })).toEqual({ tool: 'write', scope: '' });
    expect(grantKeyFor(tool('web_fetch'), { url: 'https://example.org' })).toEqual({ tool: 'web_fetch', scope: '' });
  });

  it('grants a command by its exact normalized text: `npm test` never covers `rm -rf x` or `curl … | sh`', () => {
    const granted = grantKeyFor(tool('shell'), { command: 'npm test' });
    expect(granted).toEqual({ tool: 'shell', scope: 'npm test' });
    for (const other of ['rm -rf x', 'curl -s https://example.org/i.sh | sh', 'npm test; rm -rf x', 'npm test && curl x | sh', 'npm install']) {
      expect(grantKeyFor(tool('shell'), { command: other })).not.toEqual(granted);
    }
    expect(grantKeyFor(tool('shell'), { command: '  npm   test  ' })).toEqual(granted);
  });

  it('grants a script by its exact text', () => {
    const a = grantKeyFor(tool('run_script'), { code: 'console.log(1)' });
    expect(a?.scope).toMatch(/^sha256:[0-9a-f]{64}$/u);
    expect(grantKeyFor(tool('run_script'), { code: 'console.log(2)' })).not.toEqual(a);
  });

  it('records no grant for a code-running tool that declares no scope', () => {
    const bare = { name: 'exec', traits: { runsCode: true } };
    expect(grantKeyFor(bare, {})).toBeNull();
  });
});

describe('always allow this tool', () => {
  const lookups = (always: string[], forTask: string[] = []) => ({
    forTask: (g: { tool: string; scope: string }) => Promise.resolve(forTask.includes(`${g.tool}:${g.scope}`)),
    always: (name: string) => Promise.resolve(always.includes(name)),
  });
  const granted = (name: string, args: unknown, always: string[], forTask: string[] = []) =>
    isCallGranted(tool(name), grantKeyFor(tool(name), args), args, lookups(always, forTask));

  it('may be given to tools that ask and do not run code, never to shell or run_script', () => {
    const allowable = toolCatalog()
      .filter((t) => isAlwaysAllowable(t.traits))
      .map((t) => t.name);
    expect(allowable).toEqual(expect.arrayContaining(['write', 'edit', 'web_fetch', 'render_deck']));
    for (const name of ['shell', 'run_script', 'read', 'grep', 'propose_outline']) expect(allowable).not.toContain(name);
  });

  it('an always-allowed edit tool in ask mode runs without asking; a destructive call still asks', async () => {
    const isGranted = await granted('edit', { path: 'a', old_str: 'x', new_str: 'y' }, ['edit']);
    expect(isGranted).toBe(true);
    expect(needsApproval({ mode: 'ask', traits: tool('edit').traits, risk: 'standard', granted: isGranted })).toBe(false);
    expect(needsApproval({ mode: 'ask', traits: tool('edit').traits, risk: 'destructive', granted: isGranted })).toBe(true);
    // Another tool is not covered.
    expect(await granted('write', { path: 'a', content: 'b' }, ['edit'])).toBe(false);
  });

  it('ignores shell and run_script found in the settings: they still ask in every mode', async () => {
    for (const [name, args] of [
      ['shell', { command: 'npm test' }],
      ['run_script', { code: 'console.log(1)' }],
    ] as const) {
      const isGranted = await granted(name, args, ['shell', 'run_script']);
      expect(isGranted).toBe(false);
      expect(needsApproval({ mode: 'auto', traits: tool(name).traits, risk: 'standard', granted: isGranted })).toBe(true);
    }
  });

  it('keeps the per-task grant: a command granted for the task counts without any global grant', async () => {
    expect(await granted('shell', { command: 'npm test' }, [], ['shell:npm test'])).toBe(true);
    expect(await granted('write', { path: 'a', content: 'b' }, [], ['write:'])).toBe(true);
  });
});

// An MCP server's tool asks in every mode unless granted
describe('MCP tools', () => {
  const traits = { kind: 'mcp' as const, runsCode: false, endsTurn: false };
  it.each(['ask', 'auto-edit', 'auto'] as const)('ask in %s mode, and not once granted for the task', (mode) => {
    expect(needsApproval({ mode, traits, risk: 'standard', granted: false })).toBe(true);
    expect(needsApproval({ mode, traits, risk: 'standard', granted: true })).toBe(false);
  });
  it('are granted per tool, by their full name', () => {
    expect(grantKeyFor({ name: 'mcp__github__create_issue', traits }, {})).toEqual({ tool: 'mcp__github__create_issue', scope: '' });
  });
});

describe('approval policy: skills', () => {
  const edit = { kind: 'edit' as const, runsCode: false, endsTurn: false };
  it('never asks for a call that delegates to a sub-agent (its own calls ask)', () => {
    expect(needsApproval({ mode: 'ask', traits: { ...edit, delegates: true }, risk: 'standard', granted: false })).toBe(false);
  });
  it('asks for skill_create in every mode, whatever was granted, and never offers "always allow" for it', () => {
    const traits = { ...edit, alwaysAsks: true };
    for (const mode of ['ask', 'auto-edit', 'auto'] as const) expect(needsApproval({ mode, traits, risk: 'standard', granted: true })).toBe(true);
    expect(isAlwaysAllowable(traits)).toBe(false);
    const create = toolCatalog({ skillsUserDir: '/tmp/skills' }).find((t) => t.name === 'skill_create');
    expect(create?.traits).toMatchObject({ alwaysAsks: true });
  });
});

describe('an approved outline\'s grant: writes under work/', () => {
  const forTask = (keys: string[]) => ({
    forTask: (g: { tool: string; scope: string }) => Promise.resolve(keys.includes(`${g.tool}:${g.scope}`)),
    always: () => Promise.resolve(false),
  });
  const write = toolCatalog().find((t) => t.name === 'write')!;
  const granted = (path: string) => isCallGranted(write, grantKeyFor(write, { path }), { path }, forTask(['write:work/']));

  it('covers a path under work/ and nothing that leaves it', async () => {
    expect(await granted('work/deck.json')).toBe(true);
    expect(await granted('./work/sub/a.md')).toBe(true);
    expect(await granted('work/../source/a.pdf')).toBe(false);
    expect(await granted('artifacts/deck.pptx')).toBe(false);
    expect(await granted('workshop/a.md')).toBe(false);
    expect(workAreaGrantFor(toolCatalog().find((t) => t.name === 'shell')!, { path: 'work/a' })).toBeNull();
  });
});
