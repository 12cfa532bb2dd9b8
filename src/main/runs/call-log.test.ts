// A run's tool-call states are stored with the run, on whichever store the test run uses (SQLite
// for the desktop, PostgreSQL for the team service), and read back through one path: the run's
// tool_calls, merged over the task's runs by callStatesOf.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { callKey } from '../../shared/contract/tool-calls';
import type { OpenedStorePort } from '../store/port';
import { openTestStorePort } from '../store/test-store.test-support';
import { RunCallLog } from './call-log';

let opened: OpenedStorePort | undefined;
afterEach(async () => {
  await opened?.close();
  opened = undefined;
});

async function openWithTask() {
  opened = await openTestStorePort(mkdtempSync(join(tmpdir(), 'folio-call-log-')));
  const store = opened.port;
  await store.tasks.create({ id: 't1', mode: 'general', title: 't', description: '', model: null, reasoning: null, project_id: null });
  return store;
}

describe('RunCallLog', () => {
  it('persists each call with its latest state, in order, and the run hands it out', async () => {
    const store = await openWithTask();
    await store.runs.create({ id: 'r1', task_id: 't1', model: null });
    expect((await store.runs.get('r1'))?.tool_calls).toEqual({});
    const log = new RunCallLog(store, { id: 'r1', taskId: 't1' });
    log.set({ messageId: 'm1', callId: 'c1', name: 'write' }, 'validating');
    log.set({ messageId: 'm1', callId: 'c2', name: 'read' }, 'validating');
    log.set({ messageId: 'm1', callId: 'c1', name: 'write' }, 'awaiting_approval');
    log.set({ messageId: 'm1', callId: 'c2', name: 'read' }, 'executing');
    log.set({ messageId: 'm1', callId: 'c2', name: 'read' }, 'done');
    // A provider that reuses ids: the same id in a later message is another call.
    log.set({ messageId: 'm2', callId: 'c2', name: 'shell' }, 'validating');
    log.set({ messageId: 'm2', callId: 'c2', name: 'shell' }, 'denied');
    await log.flushed();
    const calls = (await store.runs.get('r1'))!.tool_calls;
    expect(Object.values(calls).map((c) => [c.message_id, c.call_id, c.name, c.state])).toEqual([
      ['m1', 'c1', 'write', 'awaiting_approval'],
      ['m1', 'c2', 'read', 'done'],
      ['m2', 'c2', 'shell', 'denied'],
    ]);
    expect((await store.runs.list('t1'))[0].tool_calls).toEqual(calls);
  });

  it("a resumed run reads the state earlier runs persisted, the latest run's winning", async () => {
    const store = await openWithTask();
    await store.runs.create({ id: 'r1', task_id: 't1', model: null });
    const first = new RunCallLog(store, { id: 'r1', taskId: 't1' });
    first.set({ messageId: 'm1', callId: 'c1', name: 'write' }, 'validating');
    first.set({ messageId: 'm1', callId: 'c1', name: 'write' }, 'awaiting_approval');
    first.set({ messageId: 'm1', callId: 'c2', name: 'shell' }, 'validating');
    first.set({ messageId: 'm1', callId: 'c2', name: 'shell' }, 'executing');
    await first.flushed();
    await store.runs.finish('r1', 'interrupted');
    await store.runs.create({ id: 'r2', task_id: 't1', model: null });
    const second = new RunCallLog(store, { id: 'r2', taskId: 't1' }, [{ message_id: 'm1', call_id: 'c2', name: 'shell', state: 'failed', at: Date.now() + 1 }]);
    expect(await second.recorded()).toEqual(
      new Map([
        [callKey('m1', 'c1'), 'awaiting_approval'],
        [callKey('m1', 'c2'), 'executing'],
      ]),
    );
    second.set({ messageId: 'm1', callId: 'c1', name: 'write' }, 'validating');
    await second.flushed();
    await store.runs.create({ id: 'r3', task_id: 't1', model: null });
    expect(await new RunCallLog(store, { id: 'r3', taskId: 't1' }).recorded()).toEqual(
      new Map([
        [callKey('m1', 'c1'), 'validating'],
        [callKey('m1', 'c2'), 'failed'],
      ]),
    );
  });
});
