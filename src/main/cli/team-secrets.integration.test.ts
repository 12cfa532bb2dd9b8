// What a tenant must not reach on a shared worker. The worker's environment holds the service's own
// secrets (FOLIO_JWT_SECRET, FOLIO_PLATFORM_KEY, the database URL with its password): a tenant's
// settings name key *variables*, and a key is sent to whatever URL those settings name, so a
// tenant's core must never read a key from there. Nor may a tenant run a command on the worker (a
// stdio MCP server) or point a task at another tenant's folder (workspace_path).
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pgSkipReason } from '../../../testing/postgres/test-database';
import { findResourcesDir } from '../config/app-paths';
import { startTeamServer, type TeamServer } from './team-server.test-support';

const skip = pgSkipReason();
if (skip !== null) console.warn(`team service secret tests skipped: ${skip}`);

describe.skipIf(skip !== null)("team service: a tenant cannot have the worker's environment sent anywhere", () => {
  const VARIABLE = 'FOLIO_TEST_WORKER_SECRET';
  let s: TeamServer;
  let catcher: Server;
  let catcherUrl = '';
  const seen: string[] = [];

  beforeAll(async () => {
    process.env[VARIABLE] = 'worker-secret-value-0123456789';
    s = await startTeamServer(['acme']);
    catcher = createServer((req, res) => {
      seen.push(JSON.stringify([req.headers.authorization, req.headers['x-subscription-token']]));
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"results":[]}');
    });
    await new Promise<void>((resolve) => catcher.listen(0, '127.0.0.1', resolve));
    catcherUrl = `http://127.0.0.1:${(catcher.address() as { port: number }).port}`;
  }, 60_000);
  afterAll(async () => {
    delete process.env[VARIABLE];
    await new Promise((resolve) => catcher?.close(resolve));
    await s?.close();
  });

  it('a search backend naming a worker variable as its key gets no key, and Settings says there is none', async () => {
    const updated = await s.as('acme', 'mallory', '/v1/settings', { method: 'PATCH', json: { search: { backend: 'searxng', url: catcherUrl, api_key_env: VARIABLE } } });
    expect(updated.status).toBe(200);
    expect(((await updated.json()) as { search: { has_key: boolean } }).search.has_key).toBe(false);
    // The test query either goes out without a key or not at all (SearXNG with a key variable but no key).
    const tested = (await (await s.as('acme', 'mallory', '/v1/settings/search/test', { method: 'POST', json: {} })).json()) as { ok: boolean };
    expect(tested.ok).toBe(false);
    expect(seen.join('\n')).not.toContain('worker-secret-value');
  });
});

describe.skipIf(skip !== null)("team service: a tenant cannot reach past its own folder", () => {
  let s: TeamServer;
  let scratch = '';
  beforeAll(async () => {
    s = await startTeamServer(['acme', 'globex']);
    scratch = mkdtempSync(join(tmpdir(), 'folio-team-policy-'));
  }, 60_000);
  afterAll(async () => {
    await s?.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('refuses a stdio MCP server (a command the worker would run); an HTTP one is saved', async () => {
    const marker = join(scratch, 'ran');
    const stdio = { mcpServers: { x: { command: process.execPath, args: ['-e', `require('fs').writeFileSync(${JSON.stringify(marker)}, 'ran')`] } } };
    const refused = await s.as('acme', 'mallory', '/v1/mcp/config', { method: 'PUT', json: { text: JSON.stringify(stdio) } });
    expect(refused.status).toBe(415);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('unsupported');
    await (await s.as('acme', 'mallory', '/v1/mcp/servers/x/restart', { method: 'POST', json: {} })).text();
    expect(existsSync(marker)).toBe(false);
    const http = { mcpServers: { docs: { url: 'https://mcp.example.com/mcp' } } };
    expect((await s.as('acme', 'mallory', '/v1/mcp/config', { method: 'PUT', json: { text: JSON.stringify(http) } })).status).toBe(200);
  });

  it("shows a tenant no path of the server: not in Settings, the MCP config, skills or model warnings", async () => {
    writeFileSync(join(s.storageRoot, 'tenants', 'acme', 'models', 'broken.yaml'), 'provider: [unclosed');
    for (const [path, init] of [
      ['/v1/settings', {}],
      ['/v1/settings', { method: 'PATCH', json: { language: 'en' } }],
      ['/v1/mcp/config', {}],
      ['/v1/skills', {}],
      ['/v1/models', {}],
    ] as const) {
      const res = await s.as('acme', 'mallory', path, init);
      const text = await res.text();
      expect(res.status, text).toBe(200);
      expect(text).not.toContain(s.storageRoot);
      expect(text).not.toContain(findResourcesDir());
      expect(text).not.toContain('data_dir');
    }
  });

  it("refuses a task folder on the server, such as another tenant's data folder", async () => {
    const victim = join(s.storageRoot, 'tenants', 'globex');
    mkdirSync(victim, { recursive: true });
    writeFileSync(join(victim, 'keys.json'), '{"OPENAI_API_KEY":"sk-globex"}');
    const task = (await (await s.as('acme', 'mallory', '/v1/tasks', { method: 'POST', json: { mode: 'coding', model: 'fake.main' } })).json()) as { id: string };
    const patched = await s.as('acme', 'mallory', `/v1/tasks/${task.id}`, { method: 'PATCH', json: { workspace_path: victim } });
    expect(patched.status).toBe(415);
    const after = (await (await s.as('acme', 'mallory', `/v1/tasks/${task.id}`)).json()) as { workspace_path: string | null };
    expect(after.workspace_path).toBeNull();
    // Other fields still change, and clearing the folder is accepted.
    expect((await s.as('acme', 'mallory', `/v1/tasks/${task.id}`, { method: 'PATCH', json: { title: 'mine', workspace_path: null } })).status).toBe(200);
  });
});
