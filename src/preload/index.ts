// The preload bridge: exactly the FolioBridge interface on `window.folio`, nothing else (no
// ipcRenderer, no generic send), so page script can only make contract calls and follow runs.
import { type IpcRendererEvent, contextBridge, ipcRenderer, webUtils } from 'electron';
import type { RunEvent } from '../shared/contract/events';
import { IPC } from '../shared/ipc-channels';
import type { CallResult, FolioBridge } from '../shared/transport';

type Listener = (event: RunEvent) => void;

/** Listeners by run id. Each keeps the last seq it saw: a second subscription to the same run makes
 * main replay the run, and listeners that already have those events must not see them twice. */
const listeners = new Map<string, Set<{ listener: Listener; lastSeq: number }>>();

ipcRenderer.on(IPC.event, (_e: IpcRendererEvent, event: unknown) => {
  if (!isRunEventLike(event)) return;
  const entries = listeners.get(event.run_id);
  if (!entries) return;
  for (const entry of [...entries]) {
    if (event.seq <= entry.lastSeq) continue;
    entry.lastSeq = event.seq;
    try {
      entry.listener(event);
    } catch (error) {
      console.error('[folio] run event listener failed', error);
    }
  }
});

function isRunEventLike(value: unknown): value is RunEvent {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.run_id === 'string' && typeof v.seq === 'number' && typeof v.type === 'string';
}

const bridge: FolioBridge = {
  call(method: string, input: unknown): Promise<CallResult> {
    return ipcRenderer.invoke(IPC.call, method, input) as Promise<CallResult>;
  },

  subscribeRun(taskId: string, runId: string, listener: Listener): () => void {
    const entry = { listener, lastSeq: -1 };
    const entries = listeners.get(runId) ?? new Set();
    entries.add(entry);
    listeners.set(runId, entries);
    ipcRenderer.send(IPC.subscribe, taskId, runId);
    let active = true;
    return () => {
      if (!active) return;
      active = false;
      entries.delete(entry);
      if (entries.size === 0 && listeners.get(runId) === entries) listeners.delete(runId);
      ipcRenderer.send(IPC.unsubscribe, taskId, runId);
    };
  },

  getPathForFile(file: unknown): string {
    try {
      return webUtils.getPathForFile(file as File);
    } catch {
      return '';
    }
  },
};

contextBridge.exposeInMainWorld('folio', bridge);
