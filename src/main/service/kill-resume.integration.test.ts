// A process killed mid-run (SIGKILL, no cleanup) is resumed to completion: nothing acknowledged is
// lost, nothing is duplicated, and a tool that may have run is never run again.
import { spawn } from 'node:child_process';
import { sqliteMaintenance } from '../store/sqlite-port';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI } from '../../../testing/fake-openai/server';
import { taskDir } from '../workspace/layout';
import { collect, makeCore, makeDataDir, waitFor } from './core-test-kit';
import { prepareTestStore, testStoreBackend } from '../store/test-store.test-support';

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
});
