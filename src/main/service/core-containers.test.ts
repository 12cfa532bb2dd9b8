// Cores share the process's executor (in the team service, every tenant's cores do): closing one
// core, as the team service does with an idle (tenant, user), frees the containers of its own tasks
// and leaves every other core's alone. The container executor runs against the fake runtime CLI.
import { mkdtempSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FakeOpenAI } from '../../../testing/fake-openai/server';
import { installFakeRuntime } from '../sandbox/fake-container-runtime.test-support';
import { containerName } from '../sandbox/container-spec';
import { closeDefaultExecutor } from '../sandbox/select-executor';
import { normalizeCommand } from '../tools/shell/normalize';
import { collect } from './core-test-kit';
import type { Core } from './create-core';
import { useFakeModelCores } from './fake-model-cores.test-support';
import '../tools/catalog';

// Read when the process's executor is first chosen, i.e. at the first run below.
const runtime = installFakeRuntime(mkdtempSync(join(tmpdir(), 'folio-core-containers-')));
process.env.FOLIO_EXECUTOR = 'container';
process.env.FOLIO_EXECUTOR_RUNTIME = runtime.runtime;
process.env.FAKE_RUNTIME_STATE = runtime.clientEnv.FAKE_RUNTIME_STATE;

let fake: FakeOpenAI;
const { open, closeNow } = useFakeModelCores((f) => (fake = f));

/** Runs `echo` in a new task of `core` (allowed up front), so the task gets a container. */
async function runInContainer(core: Core): Promise<string> {
  const task = await core.handlers.createTask({ mode: 'general' });
  await core.ctx.store.grants.grant(task.id, 'shell', normalizeCommand('echo hi'));
  fake.script([{ toolCalls: [{ name: 'shell', arguments: '{"command":"echo hi"}' }] }, { text: 'done' }]);
  const { run_id } = await core.handlers.sendMessage({ task_id: task.id, content: 'run it' });
  await collect(core, task.id, run_id);
  const tool = (await core.handlers.listMessages({ task_id: task.id })).messages.find((m) => m.role === 'tool');
  expect(tool?.content).toContain('hi');
  return task.id;
}

const owner = `${hostname()}:${process.pid}`;

describe('closing a core', () => {
  it("removes its own tasks' containers and no other core's", async () => {
    const first = await open();
    const second = await open();
    const mine = await runInContainer(first);
    const theirs = await runInContainer(second);
    expect(Object.keys(runtime.containers()).sort()).toEqual([containerName(mine, owner), containerName(theirs, owner)].sort());

    await closeNow(first);
    expect(Object.keys(runtime.containers())).toEqual([containerName(theirs, owner)]);

    // The other core goes on using its container.
    runtime.clearCalls();
    fake.script([{ toolCalls: [{ name: 'shell', arguments: '{"command":"echo hi"}' }] }, { text: 'done' }]);
    const { run_id } = await second.handlers.sendMessage({ task_id: theirs, content: 'again' });
    await collect(second, theirs, run_id);
    expect(runtime.calls().filter((argv) => argv[0] === 'run')).toEqual([]);

    // The process's shutdown frees the rest.
    await closeDefaultExecutor();
    expect(runtime.containers()).toEqual({});
    await closeNow(second);
  });
});
