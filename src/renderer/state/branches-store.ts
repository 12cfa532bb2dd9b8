// Conversation branches in the open task: where the active path forks ("< 2/3 >"), which of the
// person's messages is being edited, and the actions that regenerate, edit and switch. Runs start
// through the chat store's runFrom, so they are followed like any other run.
import { create } from 'zustand';
import type { BranchPoint, Message } from '../../shared/contract';
import { getApi } from './api';
import { openChat as useChat } from './open-chat';
import { toErrorInfo } from './notices';

interface BranchesState {
  taskId: string | null;
  /** Forks of the active path, by the id of the message shown with the switcher. */
  points: Record<string, BranchPoint>;
  /** The user message being edited inline, if any. */
  editing: string | null;
  /** A switch is under way (the switcher is disabled meanwhile). */
  switching: boolean;
  load: (taskId: string) => Promise<void>;
  regenerate: () => Promise<boolean>;
  startEdit: (messageId: string) => void;
  cancelEdit: () => void;
  saveEdit: (messageId: string, text: string) => Promise<boolean>;
  switchTo: (messageId: string) => Promise<void>;
}

/** The reply "regenerate" replaces: the last assistant message, if no message of the person follows it. */
export function regenerableReply(messages: readonly Message[]): string | null {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m.role === 'user') return null;
    if (m.role === 'assistant') return m.id;
  }
  return null;
}

export const useBranches = create<BranchesState>((set, get) => {
  const openTask = (): string | null => useChat.getState().taskId;
  const failed = (err: unknown) => useChat.setState({ error: toErrorInfo(err) });
  /**
   * Once the service has made the branch, the replaced messages leave the view. They are exactly
   * those from the fork's seq on: a branch's messages are always newer than the path before it,
   * while the new path's messages are newer still, so a reload's merge by seq would keep them.
   */
  const startBranch = (taskId: string, fromSeq: number, start: () => Promise<{ run_id: string }>) =>
    useChat.getState().runFrom(taskId, async () => {
      const started = await start();
      if (openTask() === taskId) useChat.setState((s) => ({ messages: s.messages.filter((m) => m.seq < fromSeq) }));
      return started;
    });

  return {
    taskId: null,
    points: {},
    editing: null,
    switching: false,

    load: async (taskId) => {
      if (get().taskId !== taskId) set({ taskId, points: {}, editing: null });
      try {
        const { branches } = await getApi().client.listBranches({ task_id: taskId });
        if (openTask() !== taskId) return;
        set({ taskId, points: Object.fromEntries(branches.map((b) => [b.message_id, b])) });
      } catch (err) {
        if (openTask() === taskId) failed(err);
      }
    },

    regenerate: async () => {
      const taskId = openTask();
      if (!taskId) return false;
      set({ editing: null });
      const asked = useChat.getState().messages.findLast((m) => m.role === 'user');
      if (!asked) return false;
      return startBranch(taskId, asked.seq + 1, () => getApi().client.regenerate({ task_id: taskId }));
    },

    startEdit: (messageId) => set({ editing: messageId }),
    cancelEdit: () => set({ editing: null }),

    saveEdit: async (messageId, text) => {
      const taskId = openTask();
      const edited = useChat.getState().messages.find((m) => m.id === messageId);
      if (!taskId || !edited || !text.trim()) return false;
      const ok = await startBranch(taskId, edited.seq, () => getApi().client.editMessage({ task_id: taskId, message_id: messageId, text }));
      if (ok) set({ editing: null });
      return ok;
    },

    switchTo: async (messageId) => {
      const taskId = openTask();
      if (!taskId || get().switching) return;
      set({ switching: true, editing: null });
      try {
        await getApi().client.switchBranch({ task_id: taskId, message_id: messageId });
        // Everything after the fork may differ: the conversation is read again from the start.
        await useChat.getState().open(taskId);
      } catch (err) {
        if (openTask() === taskId) failed(err);
      } finally {
        set({ switching: false });
      }
    },
  };
});
