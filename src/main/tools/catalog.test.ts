import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { toolCatalog } from './catalog';
import type { PythonRuntime } from './python-runtime';

const python = (): PythonRuntime => ({ available: true, executable: '/usr/bin/python3', version: '3.11.2', packages: [{ module: 'numpy', version: '1.24.2' }] });
const catalog = toolCatalog({ python });

describe('the tool catalog', () => {
  it('lists every tool once', () => {
    const names = catalog.map((t) => t.name);
    expect(new Set(names).size).toBe(names.length);
    expect([...names].sort()).toEqual(['edit', 'extract_figures', 'glob', 'grep', 'load_skill', 'ocr', 'propose_outline', 'propose_plan', 'read', 'render_deck', 'render_document', 'revise_document', 'run_python', 'run_script', 'search_library', 'shell', 'web_fetch', 'web_search', 'write', 'write_spreadsheet']);
  });

  it.each(catalog.map((t) => [t.name, t] as const))('%s declares consistent traits', (_name, tool) => {
    const { traits } = tool;
    // Code-running tools are granted per command, never as a whole tool.
    if (traits.runsCode) {
      expect(traits.kind).toBe('execute');
      expect(typeof tool.grantScope).toBe('function');
    }
    // A read-only tool writes nothing; only tools that write artifacts may name artifacts/ for writing alone.
    if (traits.kind === 'read') expect(traits.paths.write).toEqual([]);
    if (traits.writesArtifacts) expect(traits.paths.write).toContain('artifact');
    // source/ holds the person's originals: no tool may write there (the type says so too).
    expect(traits.paths.write as readonly string[]).not.toContain('source');
    if (traits.network) expect(['fetch', 'execute']).toContain(traits.kind);
    // A tool that skips approval by handing the turn over must not run code or reach the network.
    if (traits.endsTurn) expect(traits).toMatchObject({ runsCode: false, network: false, writesArtifacts: false });
    // A yes that grants more than the call itself is only given where the call is the question, asked every time.
    if (tool.approvalGrants) expect(traits).toMatchObject({ alwaysAsks: true, runsCode: false });
  });

  it('names every tool for the person in each UI language (the approval card shows these names)', () => {
    for (const locale of ['en', 'zh-CN']) {
      const file = fileURLToPath(new URL(`../../shared/locales/tools/${locale}.json`, import.meta.url));
      const names = (JSON.parse(readFileSync(file, 'utf8')) as { toolName: Record<string, string> }).toolName;
      expect(catalog.map((t) => t.name).filter((name) => !names[name]), locale).toEqual([]);
    }
  });

  it('offers run_python only where a Python 3 was found, saying which packages it has', () => {
    expect(catalog.find((t) => t.name === 'run_python')?.description).toContain('Python 3.11.2 with: numpy 1.24.2');
    const without = toolCatalog({ python: () => ({ available: false, reason: 'python3: not found' }) });
    expect(without.map((t) => t.name)).not.toContain('run_python');
    expect(without.map((t) => t.name)).toContain('run_script');
  });

  it('grants a shell command by its exact normalized text', () => {
    const shell = catalog.find((t) => t.name === 'shell');
    expect(shell?.grantScope?.({ command: 'npm   test' })).toBe('npm test');
    expect(shell?.grantScope?.({ command: 'npm test # again' })).toBe('npm test');
    expect(shell?.grantScope?.({ command: 'npm test && rm -rf x' })).not.toBe('npm test');
    expect(shell?.grantScope?.({ command: 'echo "a  b"' })).toBe('echo "a  b"');
  });
});
