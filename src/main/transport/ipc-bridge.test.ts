import { beforeEach, describe, expect, it } from 'vitest';
import { type RunEvent } from '../../shared/contract/events';
import { type FakeCore, createFakeCore } from './fake-core.test-support';
import { type IpcHandlers, MAX_SUBSCRIPTIONS_PER_SENDER, createIpcHandlers } from './ipc-bridge';

const APP_URL = 'file:///opt/folio/resources/app/out/renderer/index.html';
const isTrustedSender = (url: string) => url.startsWith('file:///opt/folio/resources/app/out/renderer/');

let core: FakeCore;
let ipc: IpcHandlers;
let taskId = '';
let runId = '';

beforeEach(async () => {
  core = createFakeCore();
  ipc = createIpcHandlers(core, { isTrustedSender });
  taskId = (await core.handlers.createTask({ mode: 'coding' })).id;
  runId = (await core.handlers.sendMessage({ task_id: taskId, content: 'go' })).run_id;
});

function collector() {
  const events: RunEvent[] = [];
  return { events, send: (event: RunEvent) => events.push(event), seqs: () => events.map((e) => e.seq) };
}

describe('handleCall', () => {
  it('dispatches calls from the app page', async () => {
    expect(await ipc.handleCall(APP_URL, 'getTask', { task_id: taskId })).toMatchObject({ ok: true, value: { id: taskId } });
  });

  it('allows IPC-only methods, validated like any other', async () => {
    expect(await ipc.handleCall(APP_URL, 'addFiles', { task_id: taskId, paths: [] })).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
  });

  it('refuses untrusted or unknown senders without calling the service', async () => {
    for (const url of ['https://evil.example/', 'file:///tmp/evil.html', '', null, undefined]) {
      expect(await ipc.handleCall(url, 'deleteTask', { task_id: taskId })).toEqual({
        ok: false,
        error: { name: 'ForbiddenError', code: 'forbidden', message: 'Untrusted sender' },
      });
    }
    expect(core.tasks.has(taskId)).toBe(true);
  });
});

describe('run subscriptions', async () => {
  it('replays past events, then delivers live ones', async () => {
    core.hub.emit(runId, { type: 'text_delta', delta: 'a' });
    const sink = collector();
    expect(await ipc.handleSubscribe(1, APP_URL, taskId, runId, undefined, sink.send)).toEqual({ ok: true, value: null });
    expect(sink.seqs()).toEqual([1, 2]);
    core.hub.emit(runId, { type: 'text_delta', delta: 'b' });
    expect(sink.seqs()).toEqual([1, 2, 3]);
  });

  it('replays only after afterSeq', async () => {
    core.hub.emit(runId, { type: 'text_delta', delta: 'a' });
    const sink = collector();
    await ipc.handleSubscribe(1, APP_URL, taskId, runId, 1, sink.send);
    expect(sink.seqs()).toEqual([2]);
  });

  it('stops delivery on unsubscribe, reference-counted per window and run', async () => {
    const sink = collector();
    await ipc.handleSubscribe(1, APP_URL, taskId, runId, undefined, sink.send);
    await ipc.handleSubscribe(1, APP_URL, taskId, runId, undefined, sink.send);
    expect(core.hub.listenerCount(runId)).toBe(1);
    ipc.handleUnsubscribe(1, taskId, runId);
    core.hub.emit(runId, { type: 'text_delta', delta: 'still here' });
    expect(sink.events.at(-1)).toMatchObject({ delta: 'still here' });
    ipc.handleUnsubscribe(1, taskId, runId);
    expect(core.hub.listenerCount(runId)).toBe(0);
    expect(ipc.subscriptionCount()).toBe(0);
    const before = sink.events.length;
    core.hub.emit(runId, { type: 'text_delta', delta: 'gone' });
    expect(sink.events).toHaveLength(before);
  });

  it('drops every subscription of a closed window, and only that window', async () => {
    const other = (await core.handlers.continueTask({ task_id: taskId })).run_id;
    await ipc.handleSubscribe(1, APP_URL, taskId, runId, undefined, collector().send);
    await ipc.handleSubscribe(1, APP_URL, taskId, other, undefined, collector().send);
    await ipc.handleSubscribe(2, APP_URL, taskId, runId, undefined, collector().send);
    expect(ipc.subscriptionCount(1)).toBe(2);
    ipc.dropSender(1);
    expect(ipc.subscriptionCount(1)).toBe(0);
    expect(ipc.subscriptionCount(2)).toBe(1);
    expect(core.hub.listenerCount(runId)).toBe(1);
    expect(core.hub.listenerCount(other)).toBe(0);
  });

  it('does not keep subscriptions to runs that already finished', async () => {
    core.hub.emit(runId, { type: 'run_finished', reason: 'done', duration_ms: 1 });
    const sink = collector();
    await ipc.handleSubscribe(1, APP_URL, taskId, runId, undefined, sink.send);
    expect(sink.seqs()).toEqual([1, 2]);
    expect(ipc.subscriptionCount()).toBe(0);
  });

  it('refuses untrusted senders, bad arguments and unknown runs', async () => {
    const sink = collector();
    expect(await ipc.handleSubscribe(1, 'https://evil.example/', taskId, runId, undefined, sink.send)).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    for (const [t, r, after] of [['../x', runId, undefined], [taskId, 'a'.repeat(65), undefined], [taskId, runId, -1], [taskId, runId, '1'], [42, runId, undefined]] as const) {
      expect(await ipc.handleSubscribe(1, APP_URL, t, r, after, sink.send)).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    }
    expect(await ipc.handleSubscribe(1, APP_URL, taskId, 'run_missing', undefined, sink.send)).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect(sink.events).toHaveLength(0);
    expect(ipc.subscriptionCount()).toBe(0);
    ipc.handleUnsubscribe(1, '../x', runId); // ignored, not thrown
  });

  it('caps subscriptions per window', async () => {
    for (let i = 0; i < MAX_SUBSCRIPTIONS_PER_SENDER; i++) {
      const run = (await core.handlers.continueTask({ task_id: taskId })).run_id;
      expect((await ipc.handleSubscribe(1, APP_URL, taskId, run, undefined, () => {})).ok).toBe(true);
    }
    const one = (await core.handlers.continueTask({ task_id: taskId })).run_id;
    expect(await ipc.handleSubscribe(1, APP_URL, taskId, one, undefined, () => {})).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect((await ipc.handleSubscribe(2, APP_URL, taskId, one, undefined, () => {})).ok).toBe(true);
  });
});
