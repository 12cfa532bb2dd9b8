// The preload runs only inside Electron; here `electron` is replaced by a recording fake so the
// bridge's own logic (what it exposes, filtering, de-duplication, unsubscribe) is tested.
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { type RunEvent } from '../shared/contract/events';
import { type FolioBridge, IPC } from '../shared/transport';

const electron = vi.hoisted(() => {
  const handlers = new Map<string, (event: unknown, ...args: unknown[]) => void>();
  return {
    handlers,
    exposed: new Map<string, unknown>(),
    sent: [] as unknown[][],
    invoked: [] as unknown[][],
    emit(channel: string, ...args: unknown[]) {
      handlers.get(channel)?.({ sender: null }, ...args);
    },
  };
});

vi.mock('electron', () => ({
  contextBridge: { exposeInMainWorld: (key: string, api: unknown) => electron.exposed.set(key, api) },
  ipcRenderer: {
    on: (channel: string, handler: (event: unknown, ...args: unknown[]) => void) => electron.handlers.set(channel, handler),
    send: (...args: unknown[]) => electron.sent.push(args),
    invoke: async (...args: unknown[]) => {
      electron.invoked.push(args);
      return { ok: true, value: 'from main' };
    },
  },
  webUtils: {
    getPathForFile: (file: unknown) => {
      if (file === 'a-real-file') return '/home/me/报告.pdf';
      throw new TypeError('Expected a File');
    },
  },
}));

let folio: FolioBridge;
beforeAll(async () => {
  await import('./index');
  folio = electron.exposed.get('folio') as FolioBridge;
});

const event = (runId: string, seq: number): RunEvent => ({ type: 'text_delta', delta: `d${seq}`, run_id: runId, task_id: 't1', seq, at: seq });

describe('preload bridge', () => {
  it('exposes exactly window.folio with the FolioBridge methods', () => {
    expect([...electron.exposed.keys()]).toEqual(['folio']);
    expect(Object.keys(folio).sort()).toEqual(['call', 'getPathForFile', 'subscribeRun']);
  });

  it('forwards calls to the IPC call channel', async () => {
    expect(await folio.call('getTask', { task_id: 't1' })).toEqual({ ok: true, value: 'from main' });
    expect(electron.invoked.at(-1)).toEqual([IPC.call, 'getTask', { task_id: 't1' }]);
  });

  it('delivers only its run\'s events, each once, and stops after unsubscribe', () => {
    const a: number[] = [];
    const b: number[] = [];
    const stopA = folio.subscribeRun('t1', 'run_a', (e) => a.push(e.seq));
    expect(electron.sent.at(-1)).toEqual([IPC.subscribe, 't1', 'run_a']);
    electron.emit(IPC.event, event('run_a', 1));
    electron.emit(IPC.event, event('run_other', 2));
    electron.emit(IPC.event, { not: 'an event' });

    // A second subscriber to the same run makes main replay from the start; the first must not see it twice.
    const stopB = folio.subscribeRun('t1', 'run_a', (e) => b.push(e.seq));
    electron.emit(IPC.event, event('run_a', 1));
    electron.emit(IPC.event, event('run_a', 2));
    expect(a).toEqual([1, 2]);
    expect(b).toEqual([1, 2]);

    stopA();
    stopA();
    expect(electron.sent.filter((m) => m[0] === IPC.unsubscribe)).toHaveLength(1);
    electron.emit(IPC.event, event('run_a', 3));
    expect(a).toEqual([1, 2]);
    expect(b).toEqual([1, 2, 3]);
    stopB();
    expect(electron.sent.at(-1)).toEqual([IPC.unsubscribe, 't1', 'run_a']);
  });

  it('keeps delivering to other listeners when one throws', () => {
    const seen: number[] = [];
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const stop1 = folio.subscribeRun('t1', 'run_c', () => {
      throw new Error('listener bug');
    });
    const stop2 = folio.subscribeRun('t1', 'run_c', (e) => seen.push(e.seq));
    electron.emit(IPC.event, event('run_c', 1));
    expect(seen).toEqual([1]);
    expect(errors).toHaveBeenCalledOnce();
    errors.mockRestore();
    stop1();
    stop2();
  });

  it('returns a dropped file\'s path, or "" for anything else', () => {
    expect(folio.getPathForFile('a-real-file')).toBe('/home/me/报告.pdf');
    expect(folio.getPathForFile({})).toBe('');
  });
});
