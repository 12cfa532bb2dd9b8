// "Always allow this tool" end to end: the core against the project's fake model server.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FakeOpenAI } from '../../../testing/fake-openai/server';
import { useFakeModelCores } from './fake-model-cores.test-support';
import { taskDir } from '../workspace/layout';
import { collect, waitForEvent } from './core-test-kit';

let fake: FakeOpenAI;
const { open } = useFakeModelCores((f) => (fake = f));

const writeCall = (id: string, path: string) => ({ toolCalls: [{ id, name: 'write', arguments: JSON.stringify({ path, content: id }) }] });

describe('always allow this tool', () => {
  it('in ask mode a write asks, the person answers "always", and a second task’s write does not ask', async () => {
    const core = await open();
    const first = await core.handlers.createTask({ mode: 'general' });
    expect(first.approval_mode).toBe('ask');
    fake.script([writeCall('call_w1', 'work/one.txt'), { text: 'written' }]);
    const { run_id } = await core.handlers.sendMessage({ task_id: first.id, content: 'write one' });
    await waitForEvent(core, first.id, run_id, 'approval_required');
    await core.handlers.decideApproval({ task_id: first.id, run_id, call_id: 'call_w1', decision: 'always' });
    const events = await collect(core, first.id, run_id);
    expect(events.find((e) => e.type === 'approval_resolved')).toMatchObject({ decision: 'always' });
    expect(readFileSync(join(taskDir(core.dataDir, first.id), 'work', 'one.txt'), 'utf8')).toBe('call_w1');

    const { tools } = await core.handlers.listToolPermissions({});
    expect(tools.find((t) => t.name === 'write')).toEqual({ name: 'write', kind: 'edit', always_allow: true, grantable: true });
    expect(tools.find((t) => t.name === 'edit')).toMatchObject({ always_allow: false, grantable: true });
    expect(tools.find((t) => t.name === 'shell')).toMatchObject({ kind: 'execute', always_allow: false, grantable: false });
    // Tools that never ask are not listed.
    expect(tools.map((t) => t.name)).not.toContain('read');

    const second = await core.handlers.createTask({ mode: 'general' });
    fake.script([writeCall('call_w2', 'work/two.txt'), { text: 'written' }]);
    const run2 = await core.handlers.sendMessage({ task_id: second.id, content: 'write two' });
    const events2 = await collect(core, second.id, run2.run_id);
    expect(events2.map((e) => e.type)).not.toContain('approval_required');
    expect(events2.at(-1)).toMatchObject({ reason: 'done' });
    expect(readFileSync(join(taskDir(core.dataDir, second.id), 'work', 'two.txt'), 'utf8')).toBe('call_w2');

    // Turned off in Settings: the next write asks again.
    await core.handlers.setToolPermission({ name: 'write', always_allow: false });
    fake.script([writeCall('call_w3', 'work/three.txt')]);
    const run3 = await core.handlers.sendMessage({ task_id: second.id, content: 'write three' });
    expect(await waitForEvent(core, second.id, run3.run_id, 'approval_required')).toMatchObject({ name: 'write' });
    await core.handlers.cancelRun({ task_id: second.id, run_id: run3.run_id });
  });

  it('refuses shell and run_script with a ValidationError, from Settings and from an approval card', async () => {
    const core = await open();
    for (const name of ['shell', 'run_script']) {
      await expect(core.handlers.setToolPermission({ name, always_allow: true })).rejects.toMatchObject({ name: 'ValidationError', code: 'invalid_input' });
    }
    await expect(core.handlers.setToolPermission({ name: 'no_such_tool', always_allow: true })).rejects.toMatchObject({ code: 'not_found' });
    await expect(core.handlers.setToolPermission({ name: 'read', always_allow: true })).rejects.toMatchObject({ name: 'ValidationError' });
    expect(await core.ctx.store.settings.get('always_allow')).toBeUndefined();

    const task = await core.handlers.createTask({ mode: 'general' });
    fake.script([{ toolCalls: [{ id: 'call_sh', name: 'shell', arguments: '{"command":"echo hi"}' }] }, { text: 'ok' }]);
    const { run_id } = await core.handlers.sendMessage({ task_id: task.id, content: 'run it' });
    await waitForEvent(core, task.id, run_id, 'approval_required');
    await expect(core.handlers.decideApproval({ task_id: task.id, run_id, call_id: 'call_sh', decision: 'always' })).rejects.toMatchObject({ name: 'ValidationError' });
    // The question is still open and can be answered otherwise.
    expect((await core.handlers.listApprovals({ task_id: task.id })).approvals).toMatchObject([{ call_id: 'call_sh' }]);
    await core.handlers.decideApproval({ task_id: task.id, run_id, call_id: 'call_sh', decision: 'deny' });
    expect((await collect(core, task.id, run_id)).at(-1)).toMatchObject({ reason: 'done' });
    expect(await core.ctx.store.settings.get('always_allow')).toBeUndefined();
  });

  it('a shell name planted in the settings is ignored: the command still asks', async () => {
    const core = await open();
    await core.ctx.store.settings.set('always_allow', ['shell', 'run_script']);
    const created = await core.handlers.createTask({ mode: 'general' });
    const task = await core.handlers.updateTask({ task_id: created.id, approval_mode: 'auto' });
    fake.script([{ toolCalls: [{ id: 'call_sh2', name: 'shell', arguments: '{"command":"echo hi"}' }] }]);
    const { run_id } = await core.handlers.sendMessage({ task_id: task.id, content: 'run it' });
    expect(await waitForEvent(core, task.id, run_id, 'approval_required')).toMatchObject({ name: 'shell' });
    await core.handlers.cancelRun({ task_id: task.id, run_id });
    // Listed so it can be turned off, but never as grantable.
    const { tools } = await core.handlers.listToolPermissions({});
    expect(tools.find((t) => t.name === 'shell')).toMatchObject({ always_allow: true, grantable: false });
    await core.handlers.setToolPermission({ name: 'shell', always_allow: false });
    expect(await core.ctx.store.settings.get('always_allow')).toEqual(['run_script']);
  });

  it('accepts MCP tool names it does not know yet, keyed by the full name', async () => {
    const core = await open();
    const set = await core.handlers.setToolPermission({ name: 'mcp__files__read_file', always_allow: true });
    expect(set).toEqual({ name: 'mcp__files__read_file', kind: null, always_allow: true, grantable: true });
    const { tools } = await core.handlers.listToolPermissions({});
    expect(tools.find((t) => t.name === 'mcp__files__read_file')).toEqual(set);
  });
});
