// The Electron side of the IPC transport: wiring only. Sender checks, dispatch and subscription
// bookkeeping live in ../transport/ipc-bridge (plain Node, unit-tested).
import { type BrowserWindow, type IpcMainEvent, type IpcMainInvokeEvent, ipcMain } from 'electron';
import { IPC } from '../../shared/ipc-channels';
import type { FolioCore } from '../service/ports';
import { type IpcBridgeOptions, createIpcHandlers } from '../transport/ipc-bridge';

export type RegisterIpcOptions = IpcBridgeOptions;

/**
 * Registers the IPC channels for the app window; returns a function that removes them. Only the
 * window's own top-level frame counts as a sender: another window or an embedded frame gets ''
 * as its URL, which the bridge refuses.
 */
export function registerIpc(core: FolioCore, window: BrowserWindow, opts: RegisterIpcOptions): () => void {
  const bridge = createIpcHandlers(core, opts);
  const contents = window.webContents;
  const frameUrl = (e: IpcMainEvent | IpcMainInvokeEvent): string =>
    e.sender.id === contents.id && e.senderFrame !== null && e.senderFrame.parent === null ? e.senderFrame.url : '';

  ipcMain.handle(IPC.call, (e, method: unknown, input: unknown) => bridge.handleCall(frameUrl(e), method, input));

  ipcMain.on(IPC.subscribe, (e, taskId: unknown, runId: unknown, afterSeq: unknown) => {
    const sender = e.sender;
    // A refused subscription has nobody to tell over a one-way channel; the renderer's
    // subscription simply receives nothing.
    void bridge.handleSubscribe(sender.id, frameUrl(e), taskId, runId, afterSeq, (event) => {
      if (!sender.isDestroyed()) sender.send(IPC.event, event);
    });
  });
  ipcMain.on(IPC.unsubscribe, (e, taskId: unknown, runId: unknown) => bridge.handleUnsubscribe(e.sender.id, taskId, runId));

  const senderId = contents.id;
  const drop = () => bridge.dropSender(senderId);
  // A reload or crash loses the page's listeners; its subscriptions would only leak.
  contents.on('did-navigate', drop);
  contents.on('render-process-gone', drop);
  contents.on('destroyed', drop);

  return () => {
    ipcMain.removeHandler(IPC.call);
    ipcMain.removeAllListeners(IPC.subscribe);
    ipcMain.removeAllListeners(IPC.unsubscribe);
    if (!contents.isDestroyed()) {
      contents.off('did-navigate', drop);
      contents.off('render-process-gone', drop);
      contents.off('destroyed', drop);
    }
    drop();
  };
}
