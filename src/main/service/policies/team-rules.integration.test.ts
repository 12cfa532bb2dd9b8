// The team service's rules live in the core (team-policy.ts), not at the HTTP edge: a core opened
// for `folio serve --multi-tenant` refuses a task folder on the server and a stdio MCP server, and
// shows no server path, whatever transport calls it. The desktop's core still takes all of it.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI } from '../../../../testing/fake-openai/server';
import { findResourcesDir } from '../../config/app-paths';
import { mcpConfigPath } from '../../mcp/config';
import { STDIO_REFUSED } from '../../mcp/manager';
import { makeCore, makeDataDir } from '../core-test-kit';
import type { Core } from '../create-core';

let fake: FakeOpenAI;
const cores: Core[] = [];
const dirs: string[] = [];

beforeAll(async () => {
  fake = await startFakeOpenAI();
});
afterAll(async () => {
  for (const core of cores) await core.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  await fake.close();
});

/** A folder the desktop would take as a coding task's project. */
function projectFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'folio-project-'));
  dirs.push(dir);
  return dir;
}

async function open(teamPolicy: boolean): Promise<{ core: Core; dataDir: string }> {
  const dataDir = makeDataDir(fake.url);
  dirs.push(dataDir);
  const core = await makeCore(dataDir, undefined, { teamPolicy });
  cores.push(core);
  return { core, dataDir };
}

const stdioConfig = JSON.stringify({ mcpServers: { x: { command: process.execPath, args: ['-e', '0'] } } });
const httpConfig = JSON.stringify({ mcpServers: { docs: { url: 'https://mcp.example.com/mcp' } } });

describe("a team core's handlers", () => {
  let core: Core;
  let dataDir: string;
  beforeAll(async () => {
    ({ core, dataDir } = await open(true));
  });

  it('refuse a task folder on the server, and take every other change', async () => {
    const task = await core.handlers.createTask({ mode: 'coding', model: 'fake.main' });
    await expect(core.handlers.updateTask({ task_id: task.id, workspace_path: projectFolder() })).rejects.toMatchObject({ code: 'unsupported' });
    expect((await core.handlers.getTask({ task_id: task.id })).workspace_path).toBeNull();
    expect((await core.handlers.updateTask({ task_id: task.id, title: 'mine', workspace_path: null })).title).toBe('mine');
  });

  it('refuse a stdio MCP server without writing the config, and save an HTTP one under its bare name', async () => {
    await expect(core.handlers.saveMcpConfig({ text: stdioConfig })).rejects.toMatchObject({ code: 'unsupported' });
    expect(existsSync(mcpConfigPath(dataDir))).toBe(false);
    const saved = await core.handlers.saveMcpConfig({ text: httpConfig });
    expect(saved.path).toBe('mcp.json');
    expect((await core.handlers.getMcpConfig({})).path).toBe('mcp.json');
  });

  it('do not start a stdio server already in the config (written before the rule, or by hand), and start nothing', async () => {
    const marker = join(projectFolder(), 'started');
    const command = { command: process.execPath, args: ['-e', `require('node:fs').writeFileSync(${JSON.stringify(marker)}, '')`] };
    writeFileSync(mcpConfigPath(dataDir), JSON.stringify({ mcpServers: { handwritten: command } }));
    const info = await core.handlers.restartMcpServer({ name: 'handwritten' });
    expect(info).toMatchObject({ status: 'error', error: STDIO_REFUSED });
    expect(existsSync(marker)).toBe(false);
    const desktop = await open(false);
    writeFileSync(mcpConfigPath(desktop.dataDir), JSON.stringify({ mcpServers: { handwritten: command } }));
    await desktop.core.handlers.restartMcpServer({ name: 'handwritten' });
    // The desktop ran the command (it is no MCP server, so the handshake then fails).
    expect(existsSync(marker)).toBe(true);
    writeFileSync(mcpConfigPath(dataDir), httpConfig);
  });

  it("name skills and config warnings by their path inside the tenant's folder or Folio's, not the server's", async () => {
    writeFileSync(join(dataDir, 'models', 'broken.yaml'), 'provider: [unclosed');
    const { skills, warnings: skillWarnings } = await core.handlers.listSkills({});
    const { warnings } = await core.handlers.listModels({});
    expect(skills.find((skill) => skill.name === 'analyze')?.path).toBe(join('skills', 'analyze', 'SKILL.md'));
    expect(warnings.map((w) => w.source)).toContain(join('models', 'broken.yaml'));
    const text = JSON.stringify([skills, skillWarnings, warnings]);
    expect(text).not.toContain(dataDir);
    expect(text).not.toContain(findResourcesDir());
  });

  it('show no path of the server in the settings', async () => {
    const shown = [await core.handlers.getSettings({}), await core.handlers.updateSettings({ language: 'en' })];
    for (const settings of shown) {
      expect(settings).not.toHaveProperty('data_dir');
      expect(JSON.stringify(settings)).not.toContain(dataDir);
    }
  });
});

describe("the desktop core's handlers", () => {
  it('still take a task folder, a stdio MCP server, and show the data folder', async () => {
    const { core, dataDir } = await open(false);
    const task = await core.handlers.createTask({ mode: 'coding', model: 'fake.main' });
    const project = projectFolder();
    expect((await core.handlers.updateTask({ task_id: task.id, workspace_path: project })).workspace_path).toBe(project);
    expect((await core.handlers.saveMcpConfig({ text: stdioConfig })).path).toBe(mcpConfigPath(dataDir));
    expect((await core.handlers.getSettings({})).data_dir).toBe(dataDir);
  });
});
