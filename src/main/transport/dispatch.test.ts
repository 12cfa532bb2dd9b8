import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { contract, methodNames, type MethodInput, type MethodName, type MethodSpec } from '../../shared/contract/methods';
import { FolioError } from '../../shared/errors';
import type { CallResult } from '../../shared/transport';
import { MAX_IPC_PAYLOAD_BYTES, dispatchCall, type TransportKind } from './dispatch';
import { type FakeCore, createFakeCore } from './fake-core.test-support';

interface Ctx {
  core: FakeCore;
  taskId: string;
  runId: string;
  localFile: string;
}

let localDir = '';
beforeAll(async () => {
  localDir = await mkdtemp(join(tmpdir(), 'folio-dispatch-test-'));
  await writeFile(join(localDir, 'notes.md'), '# notes');
});

/** One valid input per method; a method added to the contract without one fails to compile. */
const validInputs: { [M in MethodName]: (ctx: Ctx) => MethodInput<M> } = {
  createTask: () => ({ mode: 'ppt', title: 'Deck' }),
  listTasks: () => ({ status: 'active', q: 'deck' }),
  getTask: (c) => ({ task_id: c.taskId }),
  updateTask: (c) => ({ task_id: c.taskId, title: 'Renamed', model: null }),
  deleteTask: (c) => ({ task_id: c.taskId }),
  listMessages: (c) => ({ task_id: c.taskId, limit: 10 }),
  sendMessage: (c) => ({ task_id: c.taskId, content: 'hello' }),
  listRuns: (c) => ({ task_id: c.taskId }),
  cancelRun: (c) => ({ task_id: c.taskId, run_id: c.runId }),
  continueTask: (c) => ({ task_id: c.taskId }),
  listApprovals: (c) => ({ task_id: c.taskId }),
  decideApproval: (c) => ({ task_id: c.taskId, run_id: c.runId, call_id: 'call_1', decision: 'allow_once' }),
  getToolResult: (c) => ({ task_id: c.taskId, call_id: 'call_1' }),
  listFiles: (c) => ({ task_id: c.taskId }),
  addFiles: (c) => ({ task_id: c.taskId, paths: [c.localFile] }),
  readFile: (c) => ({ task_id: c.taskId, path: 'source/a.txt' }),
  deleteFile: (c) => ({ task_id: c.taskId, path: 'source/a.txt' }),
  listSources: (c) => ({ task_id: c.taskId }),
  getArtifactPreview: (c) => ({ task_id: c.taskId, path: 'artifacts/deck.pptx' }),
  exportPdf: (c) => ({ task_id: c.taskId, path: 'artifacts/deck.pptx' }),
  openPath: (c) => ({ task_id: c.taskId, path: 'source/a.txt', reveal: true }),
  getCapabilities: () => ({}),
  probeModel: () => ({ profile_id: 'deepseek.flash' }),
  listModels: () => ({}),
  setApiKey: () => ({ env: 'OPENAI_API_KEY', key: 'sk-test' }),
  listSkills: () => ({}),
  getUsage: () => ({}),
  getSettings: () => ({}),
  updateSettings: () => ({ language: 'zh-CN' }),
  getHealth: () => ({}),
  restoreBackup: () => ({}),
  getOutline: (c) => ({ task_id: c.taskId }),
  saveOutline: (c) => ({ task_id: c.taskId, slides: [{ title: 'Heat islands cost 2.5 °C', layout: 'bullets', points: ['12 stations'] }] }),
  approveOutline: (c) => ({ task_id: c.taskId, slides: [{ id: 's1', title: 'Heat islands cost 2.5 °C', layout: 'bullets' }] }),
  listDeckVersions: (c) => ({ task_id: c.taskId, path: 'artifacts/deck.pptx' }),
  restoreDeckVersion: (c) => ({ task_id: c.taskId, path: 'artifacts/deck.pptx' }),
  listTemplates: () => ({}),
  importTemplate: (c) => ({ path: c.localFile }),
  deleteTemplate: () => ({ template_id: 'acme' }),
  getTemplatePreview: () => ({ template_id: 'acme' }),
  regenerate: (c) => ({ task_id: c.taskId }),
  editMessage: (c) => ({ task_id: c.taskId, message_id: c.core.messages.get(c.taskId)![0].id, text: 'edited' }),
  listBranches: (c) => ({ task_id: c.taskId }),
  switchBranch: (c) => ({ task_id: c.taskId, message_id: c.core.messages.get(c.taskId)![0].id }),
  listToolPermissions: () => ({}),
  setToolPermission: () => ({ name: 'write', always_allow: true }),
  listTaskGrants: (c) => ({ task_id: c.taskId }),
  revokeTaskGrant: (c) => ({ task_id: c.taskId, tool: 'write', scope: 'work/' }),
  getSetupStatus: () => ({ mode: 'proposal' }),
  listProviderModels: () => ({ api_base: 'http://127.0.0.1:11434/v1', api_key: 'sk-lan' }),
  addCustomProvider: () => ({ name: 'LAN', api_base: 'http://127.0.0.1:11434/v1', api_key: 'sk-lan', models: ['fake-model'] }),
  testSearch: () => ({ query: 'heat islands' }),
  testEmbedding: () => ({}),
  listMcpServers: () => ({}),
  getMcpConfig: () => ({}),
  saveMcpConfig: () => ({ text: '{"mcpServers": {}}' }),
  restartMcpServer: () => ({ name: 'everything' }),
  listMcpResources: () => ({ name: 'everything' }),
  attachMcpResource: (c) => ({ task_id: c.taskId, server: 'everything', uri: 'demo://readme' }),
  listMcpPrompts: () => ({ name: 'everything' }),
  getMcpPrompt: () => ({ name: 'everything', prompt: 'simple', arguments: { city: 'Paris' } }),
  createProject: () => ({ name: '课题组', instructions: 'Cite in GB/T 7714.' }),
  listProjects: () => ({}),
  getProject: () => ({ project_id: 'lab' }),
  updateProject: () => ({ project_id: 'lab', name: 'Renamed' }),
  deleteProject: () => ({ project_id: 'lab' }),
  listLibraryFiles: () => ({ project_id: 'personal' }),
  addLibraryFiles: (c) => ({ project_id: 'personal', paths: [c.localFile] }),
  deleteLibraryFile: () => ({ project_id: 'personal', path: 'a.pdf' }),
  readLibraryFile: () => ({ project_id: 'personal', path: 'papers/a.txt' }),
  searchLibrary: () => ({ project_id: 'personal', q: '检索增强' }),
};

async function setup(): Promise<Ctx> {
  const core = createFakeCore();
  const task = await core.handlers.createTask({ mode: 'general', title: 'Fixture' });
  const { run_id } = await core.handlers.sendMessage({ task_id: task.id, content: 'start' });
  core.putFile(task.id, 'source/a.txt', Buffer.from('hello'), 'text/plain');
  return { core, taskId: task.id, runId: run_id, localFile: join(localDir, 'notes.md') };
}

/** Counts handler invocations, so a rejected payload is shown never to reach the service. */
function countCalls(core: FakeCore): Map<string, number> {
  const counts = new Map<string, number>();
  const handlers = core.handlers as unknown as Record<string, (input: unknown) => Promise<unknown>>;
  for (const name of methodNames) {
    const original = handlers[name].bind(core.handlers);
    handlers[name] = (input) => {
      counts.set(name, (counts.get(name) ?? 0) + 1);
      return original(input);
    };
  }
  return counts;
}

const HUGE = 'x'.repeat(300_000);
const BAD_IDS = ['../x', 'a'.repeat(65), 'has space', '', 'a/b'];

function malformedPayloads(valid: Record<string, unknown>): { label: string; input: unknown }[] {
  const out: { label: string; input: unknown }[] = [
    { label: 'a number', input: 42 },
    { label: 'a string', input: 'task' },
    { label: 'null', input: null },
    { label: 'an array', input: [valid] },
    { label: 'an unknown field', input: { ...valid, unexpected_field: 1 } },
    { label: 'a __proto__ field', input: JSON.parse(`{"__proto__": {"admin": true}, ${JSON.stringify(valid).slice(1, -1) || '"x": 1'}}`) as unknown },
  ];
  for (const [key, value] of Object.entries(valid)) {
    out.push({ label: `${key} as an object`, input: { ...valid, [key]: { nested: true } } });
    if (typeof value === 'string') out.push({ label: `${key} as a 300 KB string`, input: { ...valid, [key]: HUGE } });
    // call_id is a provider's tool-call id (any 1-200 chars), not one of Folio's ids.
    if (key === 'call_id') out.push({ label: 'an empty call_id', input: { ...valid, call_id: '' } });
    if (key === 'task_id' || key === 'run_id') {
      for (const bad of BAD_IDS) out.push({ label: `${key} = ${JSON.stringify(bad.slice(0, 20))}`, input: { ...valid, [key]: bad } });
    }
    if (Array.isArray(value)) out.push({ label: `${key} holding a 300 KB string`, input: { ...valid, [key]: [HUGE] } });
  }
  return out;
}

function expectError(result: CallResult, code: string): void {
  expect(result.ok).toBe(false);
  if (result.ok) return;
  expect(result.error.code).toBe(code);
  expect(Object.keys(result.error).sort()).toEqual(['code', 'message', 'name']);
  expect(result.error.message.length).toBeLessThanOrEqual(1001);
}

describe('dispatchCall: every method refuses malformed input and still works afterwards', () => {
  const transports: TransportKind[] = ['ipc', 'http'];
  for (const name of methodNames) {
    for (const transport of transports) {
      const spec: MethodSpec = contract[name];
      const refusedOverHttp = transport === 'http' && spec.ipcOnly === true;
      it(`${name} over ${transport}`, async () => {
        const ctx = await setup();
        const counts = countCalls(ctx.core);
        const valid = validInputs[name](ctx) as Record<string, unknown>;
        for (const { label, input } of malformedPayloads(valid)) {
          const result = await dispatchCall(ctx.core, name, input, { transport });
          try {
            expectError(result, refusedOverHttp ? 'forbidden' : 'invalid_input');
            if (!result.ok && !refusedOverHttp) expect(result.error.name).toBe('ValidationError');
          } catch (error) {
            throw new Error(`${name} with ${label}: ${String(error)}`);
          }
        }
        expect(counts.get(name) ?? 0).toBe(0);

        const result = await dispatchCall(ctx.core, name, valid, { transport });
        if (refusedOverHttp) {
          expectError(result, 'forbidden');
          expect(counts.get(name) ?? 0).toBe(0);
          return;
        }
        expect(result).toMatchObject({ ok: true });
        if (result.ok) expect(spec.output.safeParse(result.value).success).toBe(true);
        expect(counts.get(name)).toBe(1);
      });
    }
  }
});

describe('dispatchCall', () => {
  it('names an unknown method without echoing non-strings', async () => {
    const { core } = await setup();
    expect(await dispatchCall(core, 'nope', {}, { transport: 'ipc' })).toEqual({
      ok: false,
      error: { name: 'ValidationError', code: 'invalid_input', message: 'Unknown method nope' },
    });
    for (const method of ['toString', '__proto__', 'constructor', 'hasOwnProperty']) {
      expectError(await dispatchCall(core, method, {}, { transport: 'http' }), 'invalid_input');
    }
    const result = await dispatchCall(core, { evil: true }, {}, { transport: 'ipc' });
    expect(result).toMatchObject({ ok: false, error: { message: 'Unknown method <object>' } });
  });

  it('treats a missing input as {} for methods without fields', async () => {
    const { core } = await setup();
    expect(await dispatchCall(core, 'getSettings', undefined, { transport: 'ipc' })).toMatchObject({ ok: true, value: { language: 'system' } });
  });

  it('refuses IPC payloads over 2 MB before validating them', async () => {
    const { core, taskId } = await setup();
    const content = 'y'.repeat(MAX_IPC_PAYLOAD_BYTES + 10);
    expectError(await dispatchCall(core, 'sendMessage', { task_id: taskId, content }, { transport: 'ipc' }), 'payload_too_large');
    // Multi-byte text counts in bytes, not characters.
    const chinese = '字'.repeat(Math.ceil(MAX_IPC_PAYLOAD_BYTES / 3) + 10);
    expectError(await dispatchCall(core, 'sendMessage', { task_id: taskId, content: chinese }, { transport: 'ipc' }), 'payload_too_large');
  });

  it('refuses cyclic IPC input as invalid rather than crashing', async () => {
    const { core } = await setup();
    const cyclic: Record<string, unknown> = { mode: 'ppt' };
    cyclic.self = cyclic;
    expectError(await dispatchCall(core, 'createTask', cyclic, { transport: 'ipc' }), 'invalid_input');
  });

  it('passes typed service errors through unchanged', async () => {
    const { core } = await setup();
    expect(await dispatchCall(core, 'getTask', { task_id: 'missing' }, { transport: 'http' })).toEqual({
      ok: false,
      error: { name: 'NotFoundError', code: 'not_found', message: 'Task missing not found' },
    });
  });

  it('hides unexpected errors behind `internal` and reports them to the log hook', async () => {
    const { core, taskId } = await setup();
    core.sabotage.getTask = () => {
      throw new Error('disk path /home/user/secret leaked');
    };
    const reported: unknown[] = [];
    const result = await dispatchCall(core, 'getTask', { task_id: taskId }, { transport: 'ipc', onInternalError: (_m, e) => reported.push(e) });
    expect(result).toEqual({ ok: false, error: { name: 'InternalError', code: 'internal', message: 'An internal error occurred.' } });
    expect(JSON.stringify(result)).not.toContain('secret');
    expect(reported).toHaveLength(1);
  });

  it('does not report FolioErrors as internal', async () => {
    const { core, taskId } = await setup();
    core.sabotage.getTask = () => {
      throw new FolioError('conflict', 'busy');
    };
    const reported: unknown[] = [];
    const result = await dispatchCall(core, 'getTask', { task_id: taskId }, { transport: 'ipc', onInternalError: (_m, e) => reported.push(e) });
    expect(result).toMatchObject({ ok: false, error: { code: 'conflict', message: 'busy' } });
    expect(reported).toHaveLength(0);
  });

  it('strips fields the contract does not name from outputs', async () => {
    const { core, taskId } = await setup();
    const real = core.tasks.get(taskId);
    core.sabotage.getTask = () => ({ ...real, api_key: 'sk-secret' });
    const result = await dispatchCall(core, 'getTask', { task_id: taskId }, { transport: 'http' });
    expect(result.ok).toBe(true);
    expect(JSON.stringify(result)).not.toContain('sk-secret');
  });

  it('turns an output that breaks the contract into `internal`', async () => {
    const { core, taskId } = await setup();
    core.sabotage.getTask = () => ({ id: taskId, title: 42 });
    const reported: unknown[] = [];
    const result = await dispatchCall(core, 'getTask', { task_id: taskId }, { transport: 'ipc', onInternalError: (_m, e) => reported.push(e) });
    expectError(result, 'internal');
    expect(String(reported[0])).toContain('output of getTask breaks the contract');
  });

  it('clips messages that quote a huge unknown key', async () => {
    const { core } = await setup();
    const result = await dispatchCall(core, 'listModels', { ['k'.repeat(300_000)]: 1 }, { transport: 'http' });
    expectError(result, 'invalid_input');
  });
});
