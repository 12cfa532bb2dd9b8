// An answer cut off mid-stream (the app closed, the person stopped it) is kept, marked incomplete,
// and Continue asks the model again to finish it instead of taking the fragment for the whole reply.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI } from '../../../testing/fake-openai/server';
import { collect, makeCore, makeDataDir, waitForEvent } from './core-test-kit';
import { prepareTestStore } from '../store/test-store.test-support';

let fake: FakeOpenAI;
beforeAll(async () => {
  fake = await startFakeOpenAI();
});
afterAll(async () => {
  await fake.close();
});

const LONG = 'Folio keeps every answer it acknowledged. '.repeat(40);

describe('a cut-off answer', () => {
  it('is stored as incomplete when the app closes mid-stream, and Continue completes it with a new model request', async () => {
    const dataDir = makeDataDir(fake.url);
    await prepareTestStore(dataDir);
    fake.reset();
    fake.script([{ text: LONG, chunkDelayMs: 20 }]);
    const first = await makeCore(dataDir);
    const task = await first.handlers.createTask({ mode: 'general' });
    const { run_id } = await first.handlers.sendMessage({ task_id: task.id, content: 'write a long answer' });
    await waitForEvent(first, task.id, run_id, 'text_delta');
    await new Promise((r) => setTimeout(r, 200));
    await first.close();

    const core = await makeCore(dataDir);
    try {
      const reopened = await core.handlers.getTask({ task_id: task.id });
      expect(reopened.last_run).toEqual({ id: run_id, status: 'interrupted' });
      const before = (await core.handlers.listMessages({ task_id: task.id })).messages;
      const partial = before.at(-1)!;
      expect(partial.role).toBe('assistant');
      expect(partial.content.length).toBeGreaterThan(0);
      expect(partial.content.length).toBeLessThan(LONG.length);
      expect(partial.is_error).toBe(true);

      const requestsBefore = fake.requests.filter((r) => r.path.endsWith('/chat/completions')).length;
      fake.script([{ text: 'and that is the rest of it.' }]);
      const next = await core.handlers.continueTask({ task_id: task.id });
      const events = await collect(core, task.id, next.run_id);
      expect(events.at(-1)).toMatchObject({ reason: 'done' });
      const requests = fake.requests.filter((r) => r.path.endsWith('/chat/completions'));
      expect(requests.length).toBe(requestsBefore + 1);
      // The model sees the fragment and is asked to go on from it.
      const sent = (requests.at(-1)!.body as { messages: { role: string; content: string }[] }).messages;
      expect(sent.some((m) => m.role === 'assistant' && m.content === partial.content)).toBe(true);
      expect(sent.at(-1)!.role).toBe('user');

      const after = (await core.handlers.listMessages({ task_id: task.id })).messages;
      expect(after.at(-1)).toMatchObject({ role: 'assistant', content: 'and that is the rest of it.', is_error: false });
      // A complete answer needs no more: Continue now ends without asking the model.
      const again = await core.handlers.continueTask({ task_id: task.id });
      await collect(core, task.id, again.run_id);
      expect(fake.requests.filter((r) => r.path.endsWith('/chat/completions')).length).toBe(requestsBefore + 1);
    } finally {
      await core.close();
    }
  });
});
