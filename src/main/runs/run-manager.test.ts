import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FinishReason, RunEvent, RunEventBody } from '../../shared/contract';
import { openStore } from '../store';
import { RunManager, type RunDriverContext } from './run-manager';

function setup(driver: (ctx: RunDriverContext) => AsyncGenerator<RunEventBody, FinishReason>) {
  const store = openStore(join(mkdtempSync(join(tmpdir(), 'folio-runs-')), 'folio.db'));
  store.tasks.create({ id: 't1', mode: 'general', title: '', description: '', model: null });
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
    const { store, runs } = setup(twoDeltas);
    const runId = runs.start('t1', { userMessage: 'hi', model: 'm' });
    expect(store.messages.all('t1').map((m) => m.content)).toEqual(['hi']);
    await runs.whenIdle();
    const seen: RunEvent[] = [];
    runs.subscribe('t1', runId, (e) => seen.push(e));
    expect(seen.map((e) => [e.seq, e.type])).toEqual([
      [1, 'run_started'],
      [2, 'text_delta'],
      [3, 'text_delta'],
      [4, 'run_finished'],
    ]);
    expect(store.runs.get(runId)?.status).toBe('done');
  });

  it('a subscriber resuming after the end still learns that the run is over', async () => {
    const { runs } = setup(twoDeltas);
    const runId = runs.start('t1', { userMessage: 'hi', model: null });
    await runs.whenIdle();
    const seen: RunEvent[] = [];
    runs.subscribe('t1', runId, (e) => seen.push(e), 4);
    expect(seen.map((e) => e.type)).toEqual(['run_finished']);
  });

  it('refuses a second run for the same task and unknown runs', async () => {
    const { runs } = setup(twoDeltas);
    runs.start('t1', { userMessage: 'hi', model: null });
    expect(() => runs.start('t1', { userMessage: 'again', model: null })).toThrow(/already active/);
    expect(() => runs.subscribe('t1', 'r_nope', () => undefined)).toThrow(/No run/);
    await runs.whenIdle();
  });

  it('a driver that throws ends the run failed with an error event', async () => {
    const { store, runs } = setup(async function* (): AsyncGenerator<RunEventBody, FinishReason> {
      throw new Error('boom');
    });
    const runId = runs.start('t1', { userMessage: 'hi', model: null });
    await runs.whenIdle();
    const seen: RunEvent[] = [];
    runs.subscribe('t1', runId, (e) => seen.push(e));
    expect(seen.map((e) => e.type)).toEqual(['run_started', 'error', 'run_finished']);
    expect(store.runs.get(runId)?.status).toBe('failed');
  });

  it('shutdown ends live runs as interrupted', async () => {
    const { store, runs } = setup(async function* ({ signal }) {
      await new Promise((r) => signal.addEventListener('abort', r));
      yield { type: 'text_delta', delta: 'x' };
      return 'cancelled';
    });
    const runId = runs.start('t1', { userMessage: 'hi', model: null });
    await runs.shutdown();
    expect(store.runs.get(runId)?.status).toBe('interrupted');
  });
});
