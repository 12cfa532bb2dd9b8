// A process killed mid-run on a regenerated branch is resumed on that branch: the replaced answer
// stays a branch, the model is sent the active path only, and the tool that may have run is not
// run again.
import { spawn } from 'node:child_process';
import { sqliteMaintenance } from '../store/sqlite-port';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI } from '../../../testing/fake-openai/server';
import { taskDir } from '../workspace/layout';
import { collect, makeCore, makeDataDir, waitFor } from './core-test-kit';
import { prepareTestStore, testStoreBackend, testStoreQuery } from '../store/test-store.test-support';

let fake: FakeOpenAI;
beforeAll(async () => {
  fake = await startFakeOpenAI();
});
afterAll(async () => {
  await fake.close();
});

describe('kill and resume on a branch', () => {
  it('resumes a SIGKILLed regenerated run on its branch and keeps the replaced answer', async () => {
    const dataDir = makeDataDir(fake.url);
    fake.script([
      { text: 'The first answer.' },
      { toolCalls: [{ id: 'k_shell', name: 'shell', arguments: '{"command":"echo ran >> work/count.txt; sleep 30"}' }] },
    ]);
    await prepareTestStore(dataDir);
    const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'crash-branch.fixture.ts'), dataDir], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    let exited = false;
    child.once('exit', () => (exited = true));
    // The child starts a core from the TypeScript sources and answers a first message: on a loaded
    // machine that alone took over 20 s. A child that dies fails the wait at once.
    const started = (): boolean => {
      if (exited) throw new Error(`the child exited before its regenerated run started: ${out}`);
      return /RUN \S+ \S+/.test(out);
    };
    await waitFor(started, 60_000);
    const [, taskId, runId] = /RUN (\S+) (\S+)/.exec(out)!;
    const count = join(taskDir(dataDir, taskId), 'work', 'count.txt');
    await waitFor(() => started() && existsSync(count), 60_000);
    child.kill('SIGKILL');
    if (!exited) await new Promise((r) => child.once('exit', r));

    const core = await makeCore(dataDir);
    try {
      expect((await core.handlers.getTask({ task_id: taskId })).last_run).toEqual({ id: runId, status: 'interrupted' });
      fake.script([{ text: 'Counted once.' }]);
      const { run_id } = await core.handlers.continueTask({ task_id: taskId });
      expect((await collect(core, taskId, run_id)).at(-1)).toMatchObject({ reason: 'done' });

      // The resumed request: the question, the regenerated turn, never the replaced answer.
      const sent = (fake.requests.at(-1)!.body as { messages: { role: string; content: string | null }[] }).messages.filter((m) => m.role !== 'system');
      expect(sent.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
      expect(JSON.stringify(sent)).not.toContain('The first answer.');

      const { messages } = await core.handlers.listMessages({ task_id: taskId });
      expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
      expect(messages[2]).toMatchObject({ tool_call_id: 'k_shell', is_error: true });
      expect(messages[3].content).toBe('Counted once.');
      expect(readFileSync(count, 'utf8')).toBe('ran\n');

      const [fork] = (await core.handlers.listBranches({ task_id: taskId })).branches;
      expect(fork).toMatchObject({ message_id: messages[1].id, index: 2, count: 2 });
      await core.handlers.switchBranch({ task_id: taskId, message_id: fork.siblings[0] });
      expect((await core.handlers.listMessages({ task_id: taskId })).messages.map((m) => m.content)).toEqual(['count once', 'The first answer.']);
      // Seqs stay unique across both branches.
      const seqs = (await testStoreQuery<{ seq: number }>(core.ctx.store, dataDir, 'SELECT seq FROM messages WHERE task_id = ? ORDER BY seq', [taskId])).map((r) => r.seq);
      expect(seqs).toEqual(seqs.map((_, i) => i + 1));
      // SQLite's file survived the SIGKILL intact (PostgreSQL's own recovery is not ours to check).
      if (testStoreBackend() === 'sqlite') expect(sqliteMaintenance(core.ctx.store).integrityCheck()).toBe('ok');
    } finally {
      await core.close();
    }
  }, 180_000);
});
