import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { FinishReason, RunEvent, RunEventBody } from '../../shared/contract';
import type { OpenedStorePort } from '../store/port';
import { openTestStorePort } from '../store/test-store.test-support';
import { RunManager, type RunDriverContext } from './run-manager';

const opened: OpenedStorePort[] = [];
afterEach(async () => {
  for (const o of opened.splice(0)) await o.close();
});

async function setup(driver: (ctx: RunDriverContext) => AsyncGenerator<RunEventBody, FinishReason>) {
  const o = await openTestStorePort(mkdtempSync(join(tmpdir(), 'folio-runs-')));
  opened.push(o);
  const store = o.port;
  await store.tasks.create({ id: 't1', mode: 'general', title: '', description: '', model: null });
  return { store, runs: new RunManager(store, driver) };
}

async function* twoDeltas(): AsyncGenerator<RunEventBody, FinishReason> {
  yield { type: 'text_delta', delta: 'a' };
  await new Promise((r) => setTimeout(r, 20));
  yield { type: 'text_delta', delta: 'b' };
  return 'done';
}

describe('run manager', () => {
  it('stamps events in order, replays them to late subscribers, and persists the outcome', async () => {
    const { store, runs } = await setup(twoDeltas);
    const runId = await runs.start('t1', { userMessage: 'hi', model: 'm', brought: null });
    expect((await store.messages.all('t1')).map((m) => m.content)).toEqual(['hi']);
    await runs.whenIdle();
    const seen: RunEvent[] = [];
    await runs.subscribe('t1', runId, (e) => seen.push(e));
    expect(seen.map((e) => [e.seq, e.type])).toEqual([
      [1, 'run_started'],
      [2, 'text_delta'],
      [3, 'text_delta'],
      [4, 'run_finished'],
    ]);
    expect((await store.runs.get(runId))?.status).toBe('done');
  });

  it("stores the loop's tool-call states with the run before it counts as finished", async () => {
    const { store, runs } = await setup(async function* (ctx) {
      ctx.callStates.set({ messageId: 'm1', callId: 'c1', name: 'write' }, 'validating');
      ctx.callStates.set({ messageId: 'm1', callId: 'c1', name: 'write' }, 'executing');
      yield { type: 'text_delta', delta: 'a' };
      ctx.callStates.set({ messageId: 'm1', callId: 'c1', name: 'write' }, 'done');
      return 'done';
    });
    const runId = await runs.start('t1', { userMessage: 'hi', model: null, brought: null });
    await runs.whenIdle();
    expect((await store.runs.get(runId))?.tool_calls).toEqual({ 'm1/c1': { message_id: 'm1', call_id: 'c1', name: 'write', state: 'done', at: expect.any(Number) as number } });
  });

  it('a subscriber resuming after the end still learns that the run is over', async () => {
    const { runs } = await setup(twoDeltas);
    const runId = await runs.start('t1', { userMessage: 'hi', model: null, brought: null });
    await runs.whenIdle();
    const seen: RunEvent[] = [];
    await runs.subscribe('t1', runId, (e) => seen.push(e), 4);
    expect(seen.map((e) => e.type)).toEqual(['run_finished']);
  });

  it('refuses a second run for the same task and unknown runs', async () => {
    const { runs } = await setup(twoDeltas);
    await runs.start('t1', { userMessage: 'hi', model: null, brought: null });
    await expect(runs.start('t1', { userMessage: 'again', model: null, brought: null })).rejects.toThrow(/already active/);
    await expect(runs.subscribe('t1', 'r_nope', () => undefined)).rejects.toThrow(/No run/);
    await runs.whenIdle();
  });

  it('refuses a second start that comes while the first is still creating its run', async () => {
    const { store, runs } = await setup(twoDeltas);
    const starts = await Promise.allSettled([runs.start('t1', { userMessage: 'one', model: null, brought: null }), runs.start('t1', { userMessage: 'two', model: null, brought: null })]);
    expect(starts.map((s) => s.status)).toEqual(['fulfilled', 'rejected']);
    expect(String((starts[1] as PromiseRejectedResult).reason)).toMatch(/already active/);
    await runs.whenIdle();
    expect((await store.messages.all('t1')).map((m) => m.content)).toEqual(['one']);
  });

  it('the start transaction is whole: a failure leaves no run and no message, and the task can start later', async () => {
    const { store, runs } = await setup(twoDeltas);
    // No such task: the run row breaks its foreign key after nothing else was written.
    await expect(runs.start('t2', { userMessage: 'hi', model: null, brought: null })).rejects.toThrow();
    expect(await store.runs.list('t2')).toEqual([]);
    expect(await store.messages.all('t2')).toEqual([]);
    await store.tasks.create({ id: 't2', mode: 'general', title: '', description: '', model: null });
    await runs.start('t2', { userMessage: 'hi', model: null, brought: null });
    await runs.whenIdle();
    expect((await store.messages.all('t2')).map((m) => m.content)).toEqual(['hi']);
  });

  it('accounts usage to the run and the task before subscribers hear of it', async () => {
    const { store, runs } = await setup(async function* (): AsyncGenerator<RunEventBody, FinishReason> {
      yield { type: 'usage', prompt_tokens: 10, completion_tokens: 5, cost: 0.5 };
      return 'done';
    });
    // The read is issued as the event arrives, so it sees what was stored before it was sent.
    const seenWithStored: Promise<[string, number | undefined]>[] = [];
    const runId = await runs.start('t1', { userMessage: 'hi', model: null, brought: null });
    await runs.subscribe('t1', runId, (e) => seenWithStored.push(store.tasks.get('t1').then((t) => [e.type, t?.prompt_tokens])));
    await runs.whenIdle();
    expect(await Promise.all(seenWithStored)).toContainEqual(['usage', 10]);
    expect(await store.runs.get(runId)).toMatchObject({ prompt_tokens: 10, completion_tokens: 5, cost: 0.5 });
  });

  it('a driver that throws ends the run failed with an error event', async () => {
    const { store, runs } = await setup(async function* (): AsyncGenerator<RunEventBody, FinishReason> {
      throw new Error('boom');
    });
    const runId = await runs.start('t1', { userMessage: 'hi', model: null, brought: null });
    await runs.whenIdle();
    const seen: RunEvent[] = [];
    await runs.subscribe('t1', runId, (e) => seen.push(e));
    expect(seen.map((e) => e.type)).toEqual(['run_started', 'error', 'run_finished']);
    expect((await store.runs.get(runId))?.status).toBe('failed');
  });

  it('shutdown ends live runs as interrupted', async () => {
    const { store, runs } = await setup(async function* ({ signal }) {
      await new Promise((r) => signal.addEventListener('abort', r));
      yield { type: 'text_delta', delta: 'x' };
      return 'cancelled';
    });
    const runId = await runs.start('t1', { userMessage: 'hi', model: null, brought: null });
    await runs.shutdown();
    expect((await store.runs.get(runId))?.status).toBe('interrupted');
  });
});
