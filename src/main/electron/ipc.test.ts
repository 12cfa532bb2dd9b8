// Electron cannot run here; `electron` is replaced by a small recording fake so the wiring
// (which channel goes where, which frame counts as the sender, cleanup) is still tested.
import { EventEmitter } from 'node:events';
import type { BrowserWindow } from 'electron';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { type RunEvent } from '../../shared/contract/events';
import { IPC } from '../../shared/transport';
import { type FakeCore, createFakeCore } from '../transport/fake-core.test-support';
import { registerIpc } from './ipc';

type Listener = (event: unknown, ...args: unknown[]) => unknown;

const fake = vi.hoisted(() => ({
  handlers: new Map<string, Listener>(),
  listeners: new Map<string, Listener>(),
}));

vi.mock('electron', () => ({
  ipcMain: {
    handle: (channel: string, fn: Listener) => {
      if (fake.handlers.has(channel)) throw new Error(`second handler for ${channel}`);
      fake.handlers.set(channel, fn);
    },
    removeHandler: (channel: string) => fake.handlers.delete(channel),
    on: (channel: string, fn: Listener) => fake.listeners.set(channel, fn),
    removeAllListeners: (channel: string) => fake.listeners.delete(channel),
  },
}));

const APP_URL = 'file:///app/out/renderer/index.html';

class FakeWebContents extends EventEmitter {
  readonly sent: unknown[][] = [];
  destroyed = false;
  readonly mainFrame = { url: APP_URL, parent: null };
  constructor(readonly id: number) {
    super();
  }
  isDestroyed() {
    return this.destroyed;
  }
  send(...args: unknown[]) {
    this.sent.push(args);
  }
}

let core: FakeCore;
let contents: FakeWebContents;
let dispose: () => void;
let taskId = '';
let runId = '';

beforeEach(async () => {
  fake.handlers.clear();
  fake.listeners.clear();
  core = createFakeCore();
  contents = new FakeWebContents(7);
  dispose = registerIpc(core, { webContents: contents } as unknown as BrowserWindow, { isTrustedSender: (url) => url === APP_URL });
  taskId = (await core.handlers.createTask({ mode: 'ppt' })).id;
  runId = (await core.handlers.sendMessage({ task_id: taskId, content: 'go' })).run_id;
});

const fromMainFrame = () => ({ sender: contents, senderFrame: contents.mainFrame });

/** The bridge's subscribe answers after the hub's (async) subscribe has. */
const subscribed = () => new Promise((resolve) => setImmediate(resolve));

describe('registerIpc', () => {
  it('answers calls from the window\'s main frame', async () => {
    const result = await fake.handlers.get(IPC.call)!(fromMainFrame(), 'getTask', { task_id: taskId });
    expect(result).toMatchObject({ ok: true, value: { id: taskId } });
  });

  it('refuses calls from subframes, other windows and vanished frames', async () => {
    const call = fake.handlers.get(IPC.call)!;
    const events = [
      { sender: contents, senderFrame: { url: APP_URL, parent: contents.mainFrame } },
      { sender: new FakeWebContents(8), senderFrame: { url: APP_URL, parent: null } },
      { sender: contents, senderFrame: null },
      { sender: contents, senderFrame: { url: 'https://evil.example/', parent: null } },
    ];
    for (const e of events) expect(await call(e, 'deleteTask', { task_id: taskId })).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(core.tasks.has(taskId)).toBe(true);
  });

  it('pushes subscribed run events to the window and stops on unsubscribe', async () => {
    fake.listeners.get(IPC.subscribe)!(fromMainFrame(), taskId, runId);
    await subscribed();
    core.hub.emit(runId, { type: 'text_delta', delta: 'x' });
    expect(contents.sent.map(([channel, e]) => [channel, (e as RunEvent).seq])).toEqual([
      [IPC.event, 1],
      [IPC.event, 2],
    ]);
    fake.listeners.get(IPC.unsubscribe)!(fromMainFrame(), taskId, runId);
    expect(core.hub.listenerCount(runId)).toBe(0);
  });

  it('drops subscriptions when the window is destroyed, and sends nothing to it', async () => {
    fake.listeners.get(IPC.subscribe)!(fromMainFrame(), taskId, runId);
    await subscribed();
    contents.destroyed = true;
    core.hub.emit(runId, { type: 'text_delta', delta: 'x' });
    expect(contents.sent).toHaveLength(1);
    contents.emit('destroyed');
    expect(core.hub.listenerCount(runId)).toBe(0);
  });

  it('drops subscriptions when the page navigates or crashes', async () => {
    for (const event of ['did-navigate', 'render-process-gone']) {
      fake.listeners.get(IPC.subscribe)!(fromMainFrame(), taskId, runId);
      await subscribed();
      expect(core.hub.listenerCount(runId)).toBe(1);
      contents.emit(event);
      expect(core.hub.listenerCount(runId)).toBe(0);
    }
  });

  it('unregisters its channels on dispose, so it can be registered again', async () => {
    fake.listeners.get(IPC.subscribe)!(fromMainFrame(), taskId, runId);
    await subscribed();
    dispose();
    expect(fake.handlers.size).toBe(0);
    expect(fake.listeners.size).toBe(0);
    expect(core.hub.listenerCount(runId)).toBe(0);
    expect(() => registerIpc(core, { webContents: contents } as unknown as BrowserWindow, { isTrustedSender: () => true })).not.toThrow();
  });
});
