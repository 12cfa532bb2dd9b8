// A run's tool-call states are stored with the run, on whichever store the test run uses, so a
// resumed task, the UI and another worker read the same state.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { OpenedStorePort } from '../store/port';
import { openTestStorePort } from '../store/test-store.test-support';
import { readRunToolCalls, RunCallLog } from './call-log';

let opened: OpenedStorePort | undefined;
afterEach(async () => {
  await opened?.close();
  opened = undefined;
});

describe('RunCallLog', () => {
  it('persists each call with its latest state, in order, and reads it back', async () => {
    opened = await openTestStorePort(mkdtempSync(join(tmpdir(), 'folio-call-log-')));
    const store = opened.port;
    await store.tasks.create({ id: 't1', mode: 'general', title: 't', description: '', model: null, reasoning: null, project_id: null });
    await store.runs.create({ id: 'r1', task_id: 't1', model: null });
    expect(await readRunToolCalls(store, 'r1')).toEqual({});
    const log = new RunCallLog(store, 'r1');
    log.set('c1', 'write', 'validating');
    log.set('c2', 'read', 'validating');
    log.set('c1', 'write', 'awaiting_approval');
    log.set('c2', 'read', 'executing');
    log.set('c2', 'read', 'done');
    await log.flushed();
    const calls = await readRunToolCalls(store, 'r1');
    expect(Object.entries(calls).map(([id, c]) => [id, c.name, c.state])).toEqual([
      ['c1', 'write', 'awaiting_approval'],
      ['c2', 'read', 'done'],
    ]);
  });
});
