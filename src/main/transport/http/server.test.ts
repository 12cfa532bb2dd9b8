import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { contract, methodNames, type MethodName, type MethodSpec } from '../../../shared/contract/methods';
import { createFakeCore } from '../fake-core.test-support';
import { CONTENT_SECURITY_POLICY } from './respond';
import { createHttpServer } from './server';
import { startHttpServer } from './start';
import { TEST_TOKEN, type TestServer, errorOf, startTestServer } from './http-test-kit.test-support';

let srv: TestServer;
let taskId = '';
let runId = '';

beforeEach(async () => {
  srv = await startTestServer();
  const task = await srv.core.handlers.createTask({ mode: 'ppt', title: 'Fixture deck' });
  taskId = task.id;
  runId = (await srv.core.handlers.sendMessage({ task_id: taskId, content: 'go' })).run_id;
  srv.core.putFile(taskId, 'source/a.txt', Buffer.from('hello'), 'text/plain');
  srv.core.putFile(taskId, 'artifacts/中文 报告.pptx', Buffer.from([0x50, 0x4b, 0x03, 0x04, 0xff]), 'application/vnd.openxmlformats-officedocument.presentationml.presentation');
});
afterEach(async () => {
  await srv.close();
});

interface RouteCheck {
  method: string;
  path: string;
  json?: unknown;
  status: number;
  check?: (body: unknown, res: Response) => void | Promise<void>;
}

/** One hand-written request per HTTP route of the contract (coverage is asserted below). */
const routeChecks: { [M in MethodName]?: () => RouteCheck } = {
  createTask: () => ({ method: 'POST', path: '/v1/tasks', json: { mode: 'proposal', title: '项目申请书' }, status: 201, check: (b) => expect(b).toMatchObject({ title: '项目申请书', mode: 'proposal' }) }),
  listTasks: () => ({ method: 'GET', path: '/v1/tasks?status=active&q=fixture', status: 200, check: (b) => expect((b as { tasks: unknown[] }).tasks).toHaveLength(1) }),
  getTask: () => ({ method: 'GET', path: `/v1/tasks/${taskId}`, status: 200, check: (b) => expect(b).toMatchObject({ id: taskId, last_run: { id: runId } }) }),
  updateTask: () => ({ method: 'PATCH', path: `/v1/tasks/${taskId}`, json: { title: 'Renamed', approval_mode: 'auto-edit' }, status: 200, check: (b) => expect(b).toMatchObject({ title: 'Renamed', approval_mode: 'auto-edit' }) }),
  deleteTask: () => ({ method: 'DELETE', path: `/v1/tasks/${taskId}`, status: 200, check: (b) => expect(b).toEqual({ ok: true }) }),
  listMessages: () => ({ method: 'GET', path: `/v1/tasks/${taskId}/messages?limit=1&before_seq=5`, status: 200, check: (b) => expect(b).toMatchObject({ messages: [{ content: 'go' }], has_more: false }) }),
  sendMessage: () => ({ method: 'POST', path: `/v1/tasks/${taskId}/messages`, json: { content: '你好' }, status: 200, check: (b) => expect(b).toHaveProperty('run_id') }),
  listRuns: () => ({ method: 'GET', path: `/v1/tasks/${taskId}/runs`, status: 200, check: (b) => expect(b).toMatchObject({ runs: [{ id: runId, status: 'running' }] }) }),
  cancelRun: () => ({ method: 'POST', path: `/v1/tasks/${taskId}/runs/${runId}/cancel`, status: 200, check: (b) => expect(b).toEqual({ ok: true }) }),
  continueTask: () => ({ method: 'POST', path: `/v1/tasks/${taskId}/continue`, status: 200, check: (b) => expect(b).toHaveProperty('run_id') }),
  listTaskGrants: () => ({ method: 'GET', path: `/v1/tasks/${taskId}/grants`, status: 200, check: (b) => expect(b).toEqual({ grants: [] }) }),
  revokeTaskGrant: () => ({ method: 'POST', path: `/v1/tasks/${taskId}/grants/revoke`, json: { tool: 'write', scope: 'work/' }, status: 200, check: (b) => expect(b).toEqual({ revoked: false }) }),
  listApprovals: () => ({ method: 'GET', path: `/v1/tasks/${taskId}/approvals`, status: 200, check: (b) => expect(b).toEqual({ approvals: [] }) }),
  decideApproval: () => ({ method: 'POST', path: `/v1/tasks/${taskId}/runs/${runId}/approvals/call_7`, json: { decision: 'deny', reason: 'no' }, status: 200 }),
  getToolResult: () => ({ method: 'GET', path: `/v1/tasks/${taskId}/tool-results/call%201`, status: 200, check: (b) => expect(b).toMatchObject({ call_id: 'call 1', content: 'result of call 1' }) }),
  listFiles: () => ({ method: 'GET', path: `/v1/tasks/${taskId}/files`, status: 200, check: (b) => expect((b as { files: unknown[] }).files).toHaveLength(2) }),
  readFile: () => ({ method: 'GET', path: `/v1/tasks/${taskId}/files/source/a.txt?format=json`, status: 200, check: (b) => expect(b).toEqual({ path: 'source/a.txt', mime: 'text/plain', size: 5, encoding: 'utf8', data: 'hello' }) }),
  deleteFile: () => ({ method: 'DELETE', path: `/v1/tasks/${taskId}/files/source/a.txt`, status: 200, check: (b) => expect(b).toEqual({ ok: true }) }),
  listSources: () => ({ method: 'GET', path: `/v1/tasks/${taskId}/sources`, status: 200, check: (b) => expect(b).toMatchObject({ sources: [{ status: 'ok', pages: 3 }] }) }),
  getArtifactPreview: () => ({ method: 'GET', path: `/v1/tasks/${taskId}/previews/artifacts/%E6%B1%87%E6%8A%A5.pptx`, status: 200, check: (b) => expect(b).toMatchObject({ kind: 'none', path: 'artifacts/汇报.pptx' }) }),
  exportPdf: () => ({ method: 'POST', path: `/v1/tasks/${taskId}/exports/artifacts/deck.pptx`, status: 200, check: (b) => expect(b).toEqual({ path: 'artifacts/deck.pdf', pages: 1 }) }),
  getCapabilities: () => ({ method: 'GET', path: '/v1/capabilities', status: 200, check: (b) => expect(b).toEqual({ desktop: false, soffice: false, sandbox: false, python: { available: false, version: null, packages: [] } }) }),
  probeModel: () => ({ method: 'POST', path: '/v1/models/probe', json: { profile_id: 'fake.main' }, status: 200, check: (b) => expect(b).toMatchObject({ profile: 'fake.main', exit_code: 0 }) }),
  listModels: () => ({ method: 'GET', path: '/v1/models', status: 200, check: (b) => expect(b).toMatchObject({ profiles: [] }) }),
  setApiKey: () => ({ method: 'POST', path: '/v1/keys', json: { env: 'DEEPSEEK_API_KEY', key: 'sk-1' }, status: 200, check: () => expect(srv.core.apiKeys.get('DEEPSEEK_API_KEY')).toBe('sk-1') }),
  listSkills: () => ({ method: 'GET', path: '/v1/skills', status: 200, check: (b) => expect(b).toMatchObject({ skills: [{ name: 'pptx' }] }) }),
  getUsage: () => ({ method: 'GET', path: '/v1/usage', status: 200, check: (b) => expect(b).toMatchObject({ total: { cost: 0 } }) }),
  getSettings: () => ({ method: 'GET', path: '/v1/settings', status: 200, check: (b) => expect(b).toMatchObject({ language: 'system' }) }),
  getHealth: () => ({ method: 'GET', path: '/v1/health', status: 200, check: (b) => expect(b).toEqual({ database: 'ok', message: null, backup_at: null }) }),
  restoreBackup: () => ({ method: 'POST', path: '/v1/health/restore', status: 200, check: (b) => expect(b).toHaveProperty('restored_from') }),
  updateSettings: () => ({ method: 'PATCH', path: '/v1/settings', json: { language: 'zh-CN', default_model: null }, status: 200, check: (b) => expect(b).toMatchObject({ language: 'zh-CN' }) }),
  getOutline: () => ({ method: 'GET', path: `/v1/tasks/${taskId}/outline`, status: 200, check: (b) => expect(b).toEqual({ outline: null, problem: null }) }),
  saveOutline: () => ({
    method: 'POST',
    path: `/v1/tasks/${taskId}/outline`,
    json: { slides: [{ title: '城区更热', layout: 'stat', points: ['十二个站点'] }] },
    status: 200,
    check: (b) => expect(b).toMatchObject({ status: 'proposed', approved_at: null, slides: [{ id: 's1', title: '城区更热', layout: 'stat', points: ['十二个站点'], sources: [] }] }),
  }),
  approveOutline: () => ({
    method: 'POST',
    path: `/v1/tasks/${taskId}/outline/approve`,
    json: { slides: [{ id: 'intro', title: 'Heat', layout: 'title' }] },
    status: 200,
    check: (b) => expect(b).toMatchObject({ outline: { status: 'approved', slides: [{ id: 'intro' }] }, run_id: expect.any(String) as unknown }),
  }),
  listDeckVersions: () => ({ method: 'GET', path: `/v1/tasks/${taskId}/deck-versions/artifacts/deck.pptx`, status: 200, check: (b) => expect(b).toEqual({ versions: [] }) }),
  restoreDeckVersion: () => ({ method: 'POST', path: `/v1/tasks/${taskId}/deck-versions/artifacts/deck.pptx`, status: 200, check: (b) => expect(b).toEqual({ path: 'artifacts/deck-v2.pptx', spec_path: null }) }),
  listTemplates: () => ({ method: 'GET', path: '/v1/templates', status: 200, check: (b) => expect(b).toMatchObject({ templates: [{ id: 'acme' }], errors: [] }) }),
  deleteTemplate: () => ({ method: 'DELETE', path: '/v1/templates/acme', status: 200, check: (b) => expect(b).toEqual({ ok: true }) }),
  getTemplatePreview: () => ({ method: 'GET', path: '/v1/templates/acme/preview', status: 200, check: (b) => expect(b).toMatchObject({ plan: { theme: 'acme' }, logo: null }) }),
  regenerate: () => ({ method: 'POST', path: `/v1/tasks/${taskId}/regenerate`, status: 200, check: (b) => expect(b).toHaveProperty('run_id') }),
  editMessage: () => ({
    method: 'POST',
    path: `/v1/tasks/${taskId}/messages/${srv.core.messages.get(taskId)![0].id}/edit`,
    json: { text: '改一下' },
    status: 200,
    check: (b) => {
      expect(b).toHaveProperty('run_id');
      expect(srv.core.messages.get(taskId)!.map((m) => m.content)).toEqual(['改一下']);
    },
  }),
  listBranches: () => ({ method: 'GET', path: `/v1/tasks/${taskId}/branches`, status: 200, check: (b) => expect(b).toEqual({ branches: [] }) }),
  switchBranch: () => ({ method: 'POST', path: `/v1/tasks/${taskId}/branches/${srv.core.messages.get(taskId)![0].id}`, status: 200, check: (b) => expect(b).toEqual({ ok: true }) }),
  listToolPermissions: () => ({ method: 'GET', path: '/v1/tool-permissions', status: 200, check: (b) => expect(b).toMatchObject({ tools: [{ name: 'write', always_allow: false }, { name: 'shell', grantable: false }] }) }),
  setToolPermission: () => ({ method: 'PATCH', path: '/v1/tool-permissions/write', json: { always_allow: true }, status: 200, check: (b) => expect(b).toEqual({ name: 'write', kind: 'edit', always_allow: true, grantable: true }) }),
  getSetupStatus: () => ({ method: 'GET', path: '/v1/setup?mode=proposal', status: 200, check: (b) => expect(b).toMatchObject({ ready: true, mode: 'proposal' }) }),
  listProviderModels: () => ({ method: 'POST', path: '/v1/setup/provider-models', json: { api_base: 'http://127.0.0.1:11434/v1/' }, status: 200, check: (b) => expect(b).toEqual({ models: [{ id: 'fake-model', context_length: null }] }) }),
  addCustomProvider: () => ({
    method: 'POST',
    path: '/v1/setup/providers',
    json: { name: 'LAN', api_base: 'http://127.0.0.1:11434/v1', api_key: 'sk-lan', models: ['fake-model'] },
    status: 200,
    check: (b) => expect(b).toMatchObject({ api_key_env: 'FOLIO_LAN_API_KEY', profile_ids: ['lan.fake-model'] }),
  }),
  testSearch: () => ({ method: 'POST', path: '/v1/settings/search/test', json: { query: 'heat' }, status: 200, check: (b) => expect(b).toEqual({ ok: false, message: 'No search backend is configured.', results: [] }) }),
  testEmbedding: () => ({ method: 'POST', path: '/v1/settings/embedding/test', status: 200, check: (b) => expect(b).toEqual({ ok: false, message: 'No embedding profile is configured.', dimensions: null }) }),
  listMcpServers: () => ({ method: 'GET', path: '/v1/mcp/servers', status: 200, check: (b) => expect(b).toMatchObject({ servers: [{ name: 'everything', status: 'idle' }] }) }),
  getMcpConfig: () => ({ method: 'GET', path: '/v1/mcp/config', status: 200, check: (b) => expect((b as { text: string }).text).toContain('••••') }),
  saveMcpConfig: () => ({ method: 'PUT', path: '/v1/mcp/config', json: { text: '{"mcpServers": {}}' }, status: 200, check: (b) => expect(b).toMatchObject({ text: '{"mcpServers": {}}' }) }),
  restartMcpServer: () => ({ method: 'POST', path: '/v1/mcp/servers/everything/restart', status: 200, check: (b) => expect(b).toMatchObject({ name: 'everything', status: 'ready' }) }),
  listMcpResources: () => ({ method: 'GET', path: '/v1/mcp/servers/everything/resources', status: 200, check: (b) => expect(b).toMatchObject({ resources: [{ uri: 'demo://readme' }] }) }),
  attachMcpResource: () => ({ method: 'POST', path: `/v1/tasks/${taskId}/mcp-resources`, json: { server: 'everything', uri: 'demo://readme' }, status: 200, check: (b) => expect(b).toMatchObject({ file: { path: 'source/readme.md', kind: 'source' } }) }),
  listMcpPrompts: () => ({ method: 'GET', path: '/v1/mcp/servers/everything/prompts', status: 200, check: (b) => expect(b).toMatchObject({ prompts: [{ name: 'simple' }] }) }),
  getMcpPrompt: () => ({ method: 'POST', path: '/v1/mcp/servers/everything/prompts/render', json: { prompt: 'simple' }, status: 200, check: (b) => expect(b).toEqual({ text: 'prompt simple' }) }),
  createProject: () => ({ method: 'POST', path: '/v1/projects', json: { name: '课题组', instructions: 'Cite in GB/T 7714.' }, status: 201, check: (b) => expect(b).toMatchObject({ name: '课题组', instructions: 'Cite in GB/T 7714.', archived: false }) }),
  listProjects: () => ({ method: 'GET', path: '/v1/projects?archived=true', status: 200, check: (b) => expect(b).toMatchObject({ projects: [{ id: 'lab' }] }) }),
  getProject: () => ({ method: 'GET', path: '/v1/projects/lab', status: 200, check: (b) => expect(b).toMatchObject({ id: 'lab', name: 'Lab' }) }),
  updateProject: () => ({ method: 'PATCH', path: '/v1/projects/lab', json: { name: 'Lab 2', archived: true }, status: 200, check: (b) => expect(b).toMatchObject({ name: 'Lab 2', archived: true }) }),
  deleteProject: () => ({ method: 'DELETE', path: '/v1/projects/lab', status: 200, check: (b) => expect(b).toEqual({ ok: true }) }),
  listLibraryFiles: () => ({ method: 'GET', path: '/v1/projects/personal/files', status: 200, check: (b) => expect(b).toMatchObject({ files: [], progress: { total_files: 0 } }) }),
  deleteLibraryFile: () => ({ method: 'DELETE', path: '/v1/projects/personal/files/papers/a.pdf', status: 200, check: (b) => expect(b).toEqual({ ok: true }) }),
  readLibraryFile: () => ({ method: 'GET', path: '/v1/projects/personal/files/papers/a.txt?format=json', status: 200, check: (b) => expect(b).toEqual({ path: 'papers/a.txt', mime: 'text/plain', size: 5, encoding: 'utf8', data: 'notes' }) }),
  searchLibrary: () => ({ method: 'GET', path: `/v1/projects/personal/search?q=${encodeURIComponent('检索增强')}&limit=5`, status: 200, check: (b) => expect(b).toMatchObject({ hits: [], mode: 'text' }) }),
};

describe('contract routes', () => {
  it('has a check for every method with an HTTP route', () => {
    const withHttp = methodNames.filter((name) => (contract[name] as MethodSpec).http && !(contract[name] as MethodSpec).ipcOnly);
    expect(Object.keys(routeChecks).sort()).toEqual([...withHttp].sort());
  });

  for (const [name, make] of Object.entries(routeChecks)) {
    it(`${name} is reachable`, async () => {
      const check = make();
      const spec: MethodSpec = contract[name as MethodName];
      expect(spec.http?.method).toBe(check.method);
      const res = await srv.api(check.path, { method: check.method, json: check.json });
      const body: unknown = await res.json();
      expect(res.status, JSON.stringify(body)).toBe(check.status);
      expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(spec.output.safeParse(body).success).toBe(true);
      await check.check?.(body, res);
    });
  }

  it('deleteTask really deletes: the task is then 404', async () => {
    expect((await srv.api(`/v1/tasks/${taskId}`, { method: 'DELETE' })).status).toBe(200);
    const res = await srv.api(`/v1/tasks/${taskId}`);
    expect(res.status).toBe(404);
    expect(await errorOf(res)).toEqual({ name: 'NotFoundError', code: 'not_found', message: `Task ${taskId} not found` });
  });

  it('downloads a file as raw bytes with an RFC 5987 file name', async () => {
    const res = await srv.api(`/v1/tasks/${taskId}/files/artifacts/${encodeURIComponent('中文 报告.pptx')}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/vnd.openxmlformats-officedocument.presentationml.presentation');
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="__ __.pptx"; filename*=UTF-8''${encodeURIComponent('中文 报告.pptx')}`,
    );
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await res.arrayBuffer())).toEqual(Buffer.from([0x50, 0x4b, 0x03, 0x04, 0xff]));
  });

  it('refuses an unknown download format and a missing file', async () => {
    expect((await srv.api(`/v1/tasks/${taskId}/files/source/a.txt?format=xml`)).status).toBe(400);
    const missing = await srv.api(`/v1/tasks/${taskId}/files/source/nope.txt`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toContain('application/json');
  });

  it('does not expose IPC-only methods', async () => {
    // addFiles names local paths; its POST route is the multipart upload, which wants multipart.
    const res = await srv.api(`/v1/tasks/${taskId}/files`, { method: 'POST', json: { paths: ['/etc/passwd'] } });
    expect(res.status).toBe(415);
    expect(srv.core.files.get(taskId)?.size).toBe(2);
  });
});

describe('auth and host checks', () => {
  it('requires the bearer token on every /v1 route, known or not', async () => {
    for (const authorization of ['', 'Bearer', `Bearer ${TEST_TOKEN}x`, `Bearer ${TEST_TOKEN.slice(0, -1)}X`, `Basic ${TEST_TOKEN}`, TEST_TOKEN]) {
      for (const path of ['/v1/tasks', '/v1/nope', '/v1']) {
        const res = await srv.api(path, { headers: { authorization } });
        expect(res.status, `${path} with "${authorization}"`).toBe(401);
        expect(await errorOf(res)).toMatchObject({ code: 'unauthorized' });
      }
    }
    expect((await srv.api('/v1/tasks', { headers: { authorization: `bearer ${TEST_TOKEN}` } })).status).toBe(200);
  });

  it('refuses foreign Host headers (DNS rebinding) even with the token', async () => {
    const auth = { authorization: `Bearer ${TEST_TOKEN}` };
    for (const host of ['evil.example', `evil.example:${srv.port}`, `127.0.0.1:${srv.port + 1}`, `127.0.0.1`, `0.0.0.0:${srv.port}`]) {
      const res = await srv.raw('/v1/tasks', { headers: { ...auth, host } });
      expect(res.status, host).toBe(403);
      expect(JSON.parse(res.body)).toMatchObject({ error: { code: 'forbidden' } });
    }
    expect((await srv.raw('/v1/tasks', { headers: { ...auth, host: `localhost:${srv.port}` } })).status).toBe(200);
    expect((await srv.raw('/v1/tasks', { headers: { ...auth, host: `127.0.0.1:${srv.port}` } })).status).toBe(200);
    expect((await srv.raw('/', { headers: { host: `evil.example:${srv.port}` } })).status).toBe(403);
  });
});

describe('bad requests', () => {
  it('answers unknown routes with 404 and wrong verbs with 405', async () => {
    const unknown = await srv.api('/v1/nope');
    expect(unknown.status).toBe(404);
    expect(await errorOf(unknown)).toMatchObject({ code: 'not_found' });
    const wrongVerb = await srv.api('/v1/tasks', { method: 'PUT', json: {} });
    expect(wrongVerb.status).toBe(405);
    expect(wrongVerb.headers.get('allow')).toBe('POST, GET');
    expect(await errorOf(wrongVerb)).toMatchObject({ name: 'MethodNotAllowedError' });
    expect((await srv.api(`/v1/tasks/${taskId}/runs`, { method: 'DELETE' })).status).toBe(405);
  });

  it('refuses malformed JSON, non-object bodies and bodies without a JSON content type', async () => {
    const bad = await srv.api('/v1/tasks', { method: 'POST', body: '{"mode":', headers: { 'content-type': 'application/json' } });
    expect(bad.status).toBe(400);
    expect(await errorOf(bad)).toEqual({ name: 'ValidationError', code: 'invalid_input', message: 'Malformed JSON body' });
    expect((await srv.api('/v1/tasks', { method: 'POST', json: [{ mode: 'ppt' }] })).status).toBe(400);
    expect((await srv.api('/v1/tasks', { method: 'POST', json: null })).status).toBe(400);
    const plain = await srv.api('/v1/tasks', { method: 'POST', body: '{"mode":"ppt"}', headers: { 'content-type': 'text/plain' } });
    expect(plain.status).toBe(415);
    expect(await errorOf(plain)).toMatchObject({ code: 'unsupported' });
  });

  it('treats an empty POST body as {}', async () => {
    const res = await srv.api('/v1/tasks', { method: 'POST' });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).message).toContain('mode');
  });

  it('rejects unknown fields and wrong types', async () => {
    const unknown = await srv.api('/v1/tasks', { method: 'POST', json: { mode: 'ppt', admin: true } });
    expect(unknown.status).toBe(400);
    expect((await errorOf(unknown)).message).toContain('admin');
    const wrongType = await srv.api('/v1/tasks', { method: 'POST', json: { mode: 42 } });
    expect(wrongType.status).toBe(400);
    expect((await errorOf(wrongType)).message).toMatch(/^mode: /);
    expect((await srv.api('/v1/tasks?status=bogus')).status).toBe(400);
    expect((await srv.api('/v1/tasks?unknown=1')).status).toBe(400);
    expect((await srv.api(`/v1/tasks/${taskId}/messages?limit=abc`)).status).toBe(400);
    expect((await srv.api('/v1/tasks?q=a&q=b')).status).toBe(400);
    expect((await srv.api('/v1/tasks?__proto__=x&__proto__=y')).status).toBe(400);
  });

  it('refuses inputs split between path, query and body ambiguously', async () => {
    expect((await srv.api(`/v1/tasks/${taskId}`, { method: 'PATCH', json: { task_id: 'other', title: 'x' } })).status).toBe(400);
    expect((await srv.api(`/v1/tasks/${taskId}?task_id=other`)).status).toBe(400);
    expect((await srv.api(`/v1/tasks/${taskId}?title=x`, { method: 'PATCH', json: {} })).status).toBe(400);
    expect(srv.core.tasks.get(taskId)?.title).toBe('Fixture deck');
  });

  it('rejects a 300 KB title with 400 and keeps serving', async () => {
    const res = await srv.api('/v1/tasks', { method: 'POST', json: { mode: 'ppt', title: 'x'.repeat(300_000) } });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).message.length).toBeLessThan(1001);
    expect(srv.core.tasks.size).toBe(1);
    expect((await srv.api('/v1/tasks')).status).toBe(200);
  });

  it('answers 413 to a body over the limit and keeps serving', async () => {
    const res = await srv.api(`/v1/tasks/${taskId}/messages`, { method: 'POST', json: { content: 'z'.repeat(1_200_000) } });
    expect(res.status).toBe(413);
    expect(await errorOf(res)).toMatchObject({ code: 'payload_too_large' });
    expect((await srv.api('/v1/tasks')).status).toBe(200);
  });

  it('answers 413 to a chunked body that grows past the limit', async () => {
    const small = await startTestServer({ maxBodyBytes: 1000 });
    try {
      const chunks = new ReadableStream<Uint8Array>({
        start(controller) {
          for (let i = 0; i < 20; i++) controller.enqueue(new TextEncoder().encode(i === 0 ? '{"mode":"ppt","title":"' : 'y'.repeat(200)));
          controller.close();
        },
      });
      const res = await small.api('/v1/tasks', { method: 'POST', body: chunks, headers: { 'content-type': 'application/json' }, duplex: 'half' });
      expect(res.status).toBe(413);
      expect((await small.api('/v1/tasks')).status).toBe(200);
    } finally {
      await small.close();
    }
  });

  it('rejects bad ids in the path with 400', async () => {
    for (const id of [encodeURIComponent('../x'), 'a'.repeat(65), 'has%20space', '%E4%B8%AD', 'a%2Fb']) {
      const res = await srv.api(`/v1/tasks/${id}`);
      expect(res.status, id).toBe(400);
      expect((await errorOf(res)).message).toMatch(/^task_id: /);
    }
    expect((await srv.api(`/v1/tasks/${taskId}/runs/bad%20id/cancel`, { method: 'POST' })).status).toBe(400);
    expect((await srv.api('/v1/tasks/%E0%A4%A')).status).toBe(400);
  });

  it('hides internal errors behind a generic 500', async () => {
    srv.core.sabotage.getTask = () => {
      throw new Error('secret detail');
    };
    const res = await srv.api(`/v1/tasks/${taskId}`);
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(text).not.toContain('secret');
    expect(text).not.toContain('at ');
    expect(srv.internalErrors).toHaveLength(1);
  });
});

describe('static files', () => {
  let root = '';
  let site = '';
  let web: TestServer;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'folio-static-test-'));
    site = join(root, 'site');
    await mkdir(join(site, 'assets'), { recursive: true });
    await writeFile(join(site, 'index.html'), '<!doctype html><title>Folio</title>');
    await writeFile(join(site, 'assets', 'app.js'), 'console.log(1)');
    await writeFile(join(site, 'assets', 'style.css'), 'body{}');
    await writeFile(join(root, 'package.json'), '{"secret": true}');
    await symlink(join(root, 'package.json'), join(site, 'linked.json'));
    web = await startTestServer({ staticDir: site });
  });
  afterAll(async () => {
    await web.close();
    await rm(root, { recursive: true, force: true });
  });

  it('serves index.html at / without a token, with security headers', async () => {
    const res = await fetch(`${web.url}/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(await res.text()).toContain('<title>Folio</title>');
  });

  // What each header guarantees is docs/security.md's "Response headers" table.
  it('sends the same security headers on the page, the first open, an asset, an answer and a refusal', async () => {
    const expected = {
      'content-security-policy': CONTENT_SECURITY_POLICY,
      'x-frame-options': 'DENY',
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cross-origin-opener-policy': 'same-origin',
      'cross-origin-resource-policy': 'same-origin',
    };
    expect(CONTENT_SECURITY_POLICY).toContain("frame-ancestors 'none'");
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/script-src[^;]*'unsafe-inline'/u);
    const answers = {
      page: await fetch(`${web.url}/`),
      firstOpen: await fetch(`${web.url}/?token=${TEST_TOKEN}`),
      asset: await fetch(`${web.url}/assets/app.js`),
      answer: await web.api('/v1/health'),
      refusal: await fetch(`${web.url}/v1/health`),
    };
    expect(answers.refusal.status).toBe(401);
    for (const [name, res] of Object.entries(answers)) {
      const sent = Object.fromEntries(Object.keys(expected).map((header) => [header, res.headers.get(header)]));
      expect(sent, name).toEqual(expected);
    }
  });

  it("names the sources of scripts and workers itself, as strict as default-src: Folio's own files only", async () => {
    const policy = (await fetch(`${web.url}/`)).headers.get('content-security-policy') ?? '';
    const directives = new Map(
      policy
        .split(';')
        .map((d) => d.trim().split(/\s+/u))
        .map(([name, ...sources]) => [name, sources.join(' ')]),
    );
    expect(directives.get('default-src')).toBe("'self'");
    expect(directives.get('script-src')).toBe("'self'");
    expect(directives.get('worker-src')).toBe("'self'");
  });

  it('serves assets with their content types', async () => {
    const js = await fetch(`${web.url}/assets/app.js`);
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(await js.text()).toBe('console.log(1)');
    expect((await fetch(`${web.url}/assets/style.css`)).headers.get('content-type')).toBe('text/css; charset=utf-8');
    const head = await fetch(`${web.url}/assets/app.js`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe('14');
  });

  it('answers 404 for missing files, directories and every traversal attempt', async () => {
    const paths = ['/missing.js', '/assets', '/../package.json', '/%2e%2e/package.json', '/assets/..%2f..%2fpackage.json', '/%2E%2E%5Cpackage.json', '/linked.json', '/index.html%00.js', '/%E0%A4%A'];
    for (const path of paths) {
      const res = await web.raw(path);
      expect(res.status, path).toBe(404);
      expect(res.body).not.toContain('secret');
    }
  });

  it('refuses other verbs on static paths', async () => {
    expect((await fetch(`${web.url}/`, { method: 'POST' })).status).toBe(405);
  });

  it('without a staticDir, / is a 404', async () => {
    expect((await fetch(`${srv.url}/`)).status).toBe(404);
  });
});

describe('startHttpServer', () => {
  it('binds 127.0.0.1 only and refuses other hosts', async () => {
    expect(srv.server.address()).toMatchObject({ address: '127.0.0.1', port: srv.port });
    expect(srv.url).toBe(`http://127.0.0.1:${srv.port}`);
    await expect(startHttpServer(createFakeCore(), { token: TEST_TOKEN, host: '0.0.0.0' })).rejects.toThrow('127.0.0.1');
  });

  it('refuses a short token', () => {
    expect(() => createHttpServer(createFakeCore(), { token: 'short' })).toThrow();
  });
});
