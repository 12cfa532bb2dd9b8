// A process killed mid-run (SIGKILL, no cleanup) is resumed to completion: nothing acknowledged is
// lost, nothing is duplicated, and a tool that may have run is never run again.
import { spawn } from 'node:child_process';
import { sqliteMaintenance } from '../store/sqlite-port';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI } from '../../../testing/fake-openai/server';
import { taskDir } from '../workspace/layout';
import { collect, makeCore, makeDataDir, waitFor, waitForEvent } from './core-test-kit';
import { prepareTestStore, testStoreBackend } from '../store/test-store.test-support';
import { callKey, callStatesOf } from '../../shared/contract/tool-calls';
import { DENIED_RESULT, toolCardState } from '../../shared/tool-outcome';

let fake: FakeOpenAI;
beforeAll(async () => {
  fake = await startFakeOpenAI();
});
afterAll(async () => {
  await fake.close();
});

describe('kill and resume', () => {
  it('resumes a SIGKILLed run without losing, duplicating or re-running anything', async () => {
    const dataDir = makeDataDir(fake.url);
    fake.script([
      { toolCalls: [{ id: 'k_write', name: 'write', arguments: '{"path":"work/a.txt","content":"step one"}' }] },
      { toolCalls: [{ id: 'k_shell', name: 'shell', arguments: '{"command":"echo ran >> work/count.txt; sleep 30"}' }] },
    ]);
    await prepareTestStore(dataDir);
    const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'crash-run.fixture.ts'), dataDir], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    await waitFor(() => /RUN \S+ \S+/.test(out), 20_000);
    const [, taskId, runId] = /RUN (\S+) (\S+)/.exec(out)!;
    const count = join(taskDir(dataDir, taskId), 'work', 'count.txt');
    await waitFor(() => existsSync(count), 20_000);
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));

    const core = await makeCore(dataDir);
    try {
      const task = await core.handlers.getTask({ task_id: taskId });
      expect(task.last_run).toEqual({ id: runId, status: 'interrupted' });
      fake.script([{ text: 'All done.' }]);
      const { run_id } = await core.handlers.continueTask({ task_id: taskId });
      const events = await collect(core, taskId, run_id);
      expect(events.at(-1)).toMatchObject({ reason: 'done' });

      const { messages } = await core.handlers.listMessages({ task_id: taskId });
      expect(messages.map((m) => m.seq)).toEqual(messages.map((_, i) => i + 1));
      expect(new Set(messages.map((m) => m.id)).size).toBe(messages.length);
      expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'tool', 'assistant']);
      expect(messages[2]).toMatchObject({ tool_call_id: 'k_write', is_error: false });
      expect(messages[4]).toMatchObject({ tool_call_id: 'k_shell', is_error: true });
      expect(messages[4].content).toMatch(/interrupted/);
      expect(messages[5].content).toBe('All done.');
      // The shell command that was running when the process died was not run a second time.
      expect(readFileSync(count, 'utf8')).toBe('ran\n');
      expect(readFileSync(join(taskDir(dataDir, taskId), 'work', 'a.txt'), 'utf8')).toBe('step one');
      // SQLite's file survived the SIGKILL intact (PostgreSQL's own recovery is not ours to check).
      if (testStoreBackend() === 'sqlite') expect(sqliteMaintenance(core.ctx.store).integrityCheck()).toBe('ok');
    } finally {
      await core.close();
    }
  });

  it('a run killed while a call awaits approval shows the same card after restart and on Continue; denied, it shows denied', async () => {
    const dataDir = makeDataDir(fake.url);
    const command = 'echo asked > work/asked.txt';
    fake.script([{ toolCalls: [{ id: 'k_ask', name: 'shell', arguments: JSON.stringify({ command }) }] }]);
    await prepareTestStore(dataDir);
    const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'crash-run.fixture.ts'), dataDir], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    await waitFor(() => out.includes('ASKED'), 20_000);
    const [, taskId] = /RUN (\S+) (\S+)/.exec(out)!;
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));

    const core = await makeCore(dataDir);
    try {
      const stateOfCall = async () => {
        const { messages } = await core.handlers.listMessages({ task_id: taskId });
        const asking = messages.find((m) => m.tool_calls?.some((c) => c.id === 'k_ask'))!;
        const { runs } = await core.handlers.listRuns({ task_id: taskId });
        return callStatesOf(runs).get(callKey(asking.id, 'k_ask'))?.state;
      };
      // After the restart, before Continue: the persisted state says the call waits for a yes, and
      // its card says so (not "running"), beside the persisted question.
      expect(await stateOfCall()).toBe('awaiting_approval');
      expect(toolCardState(await stateOfCall(), null)).toBe('approval');
      const [asked] = (await core.handlers.listApprovals({ task_id: taskId })).approvals;
      expect(asked).toMatchObject({ call_id: 'k_ask', name: 'shell' });

      fake.script([{ text: 'Left it.' }]);
      const { run_id } = await core.handlers.continueTask({ task_id: taskId });
      const again = await waitForEvent(core, taskId, run_id, 'approval_required');
      expect(again).toMatchObject({ call_id: 'k_ask', name: asked.name, arguments: asked.arguments, kind: asked.kind, risk: asked.risk, detail: asked.detail, reasons: asked.reasons });
      // The state is stored beside the question, not before it: on PostgreSQL it can land just after.
      let state = await stateOfCall();
      for (const deadline = Date.now() + 10_000; state !== 'awaiting_approval' && Date.now() < deadline; state = await stateOfCall()) await new Promise((r) => setTimeout(r, 50));
      expect(state).toBe('awaiting_approval');
      await core.handlers.decideApproval({ task_id: taskId, run_id, call_id: 'k_ask', decision: 'deny' });
      const events = await collect(core, taskId, run_id);
      expect(events.find((e) => e.type === 'tool_result')).toMatchObject({ call_id: 'k_ask', is_error: true, state: 'denied' });
      expect(events.at(-1)).toMatchObject({ reason: 'done' });
      expect(await stateOfCall()).toBe('denied');
      expect(toolCardState(await stateOfCall(), { isError: true, preview: DENIED_RESULT })).toBe('denied');
      expect(existsSync(join(taskDir(dataDir, taskId), 'work', 'asked.txt'))).toBe(false);
    } finally {
      await core.close();
    }
  });
});
