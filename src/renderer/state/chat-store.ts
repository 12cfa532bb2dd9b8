// The open task's conversation: persisted history (paged), past runs, pending approvals and the
// live run. Live events are batched per frame so a fast stream doesn't re-render per token.
import { create } from 'zustand';
import type { ApprovalDecision, Message, PendingApproval, Run, RunEvent, SlideContext } from '../../shared/contract';
import { getApi } from './api';
import { applyRunEvent, createLiveRun, isLiveRunActive, type LiveRun } from './live-run';
import { mergeNewestPage, prependOlderPage, type ApprovalView } from './chat-rows';
import { toErrorInfo, type ErrorInfo } from './notices';
import { useTasks } from './tasks-store';
import { useFiles } from './files-store';
import { useArtifacts } from './artifacts-store';
import { useSources } from './sources-store';
import { useUsage } from './usage-store';
import { useOutline } from './outline-store';
import { useBranches } from './branches-store';
import { linkOpenChat } from './open-chat';

export const PAGE_SIZE = 100;

interface ChatState {
  taskId: string | null;
  messages: Message[];
  hasMore: boolean;
  loading: boolean;
  loadingOlder: boolean;
  runs: Run[];
  persistedApprovals: PendingApproval[];
  live: LiveRun | null;
  /** Bumped when the person starts a run (from the composer, the outline, a deck's preview): the chat shows its end. */
  followRequests: number;
  /** The last failed action in this chat (send, cancel, continue, decide). */
  error: ErrorInfo | null;
  open: (taskId: string | null) => Promise<void>;
  loadOlder: () => Promise<void>;
  /** `context`: slides selected in a deck's preview, which the instruction is about. */
  send: (content: string, context?: SlideContext) => Promise<boolean>;
  cancel: () => Promise<void>;
  continueTask: () => Promise<void>;
  decide: (approval: ApprovalView, decision: ApprovalDecision, reason?: string) => Promise<void>;
  /** Starts a run by another call that posts the person's message (approving an outline) and follows it. */
  runFrom: (taskId: string, start: () => Promise<{ run_id: string }>) => Promise<boolean>;
  dismissError: () => void;
}

let unsubscribe: (() => void) | null = null;
let pending: RunEvent[] = [];
let flushTimer: ReturnType<typeof setTimeout> | null = null;

function stopFollowing(): void {
  unsubscribe?.();
  unsubscribe = null;
  pending = [];
  if (flushTimer !== null) clearTimeout(flushTimer);
  flushTimer = null;
}

export const useChat = create<ChatState>((set, get) => {
  const stillOpen = (taskId: string): boolean => get().taskId === taskId;

  /** Replaces the newest page, runs and approvals with the server's persisted view. */
  const reload = async (taskId: string): Promise<void> => {
    const api = getApi();
    const [page, runs, approvals] = await Promise.all([
      api.client.listMessages({ task_id: taskId, limit: PAGE_SIZE }),
      api.client.listRuns({ task_id: taskId }),
      api.client.listApprovals({ task_id: taskId }),
    ]);
    if (!stillOpen(taskId)) return;
    void useBranches.getState().load(taskId);
    set((s) => ({
      messages: mergeNewestPage(s.messages, page.messages),
      // Only the first load decides whether older pages exist; later reloads keep what was paged in.
      hasMore: s.messages.length === 0 ? page.has_more : s.hasMore,
      runs: runs.runs,
      persistedApprovals: approvals.approvals,
    }));
  };

  const finishRun = async (taskId: string, runId: string): Promise<void> => {
    try {
      await reload(taskId);
    } catch (err) {
      if (stillOpen(taskId)) set({ error: toErrorInfo(err) });
    }
    // Drop the draft only now, so the persisted form replaces it without a blank frame.
    if (stillOpen(taskId) && get().live?.runId === runId) set({ live: null });
    void useTasks.getState().refresh(taskId);
    void useFiles.getState().load(taskId);
    void useSources.getState().load(taskId);
    void useUsage.getState().load();
  };

  const flush = (): void => {
    flushTimer = null;
    const batch = pending;
    pending = [];
    const live = get().live;
    if (!live || batch.length === 0) return;
    let next = live;
    let filesTouched = false;
    let rendered = false;
    for (const event of batch) {
      next = applyRunEvent(next, event);
      if (event.type === 'tool_result') {
        filesTouched = true;
        if (event.writes_artifacts && !event.is_error) rendered = true;
      }
      if (event.type === 'outline_proposed') useOutline.getState().received(event.task_id, event.outline);
    }
    if (next === live) return;
    set({ live: next });
    // A render brings its artifact into view; any other tool may have touched files too.
    if (rendered) void useArtifacts.getState().afterRender(next.taskId);
    else if (filesTouched) void useFiles.getState().load(next.taskId);
    if (next.finished && !live.finished) {
      stopFollowing();
      void finishRun(next.taskId, next.runId);
    }
  };

  const follow = (taskId: string, runId: string): void => {
    stopFollowing();
    set({ live: createLiveRun(taskId, runId) });
    unsubscribe = getApi().subscribeRun(
      taskId,
      runId,
      (event) => {
        if (!stillOpen(taskId)) return;
        pending.push(event);
        flushTimer ??= setTimeout(flush, 30);
      },
      (error) => {
        // The run can't be followed (e.g. it ended while the server restarted): show what was saved.
        if (!stillOpen(taskId)) return;
        set({ error: toErrorInfo(error) });
        void finishRun(taskId, runId);
      },
    );
  };

  const startedRun = async (taskId: string, start: () => Promise<{ run_id: string }>): Promise<boolean> => {
    try {
      set({ error: null });
      const { run_id } = await start();
      if (!stillOpen(taskId)) return true;
      follow(taskId, run_id);
      set((s) => ({ followRequests: s.followRequests + 1 }));
      await reload(taskId); // brings in the persisted user message
      void useTasks.getState().refresh(taskId);
      return true;
    } catch (err) {
      if (stillOpen(taskId)) set({ error: toErrorInfo(err) });
      return false;
    }
  };

  return {
    taskId: null,
    messages: [],
    hasMore: false,
    loading: false,
    loadingOlder: false,
    runs: [],
    persistedApprovals: [],
    live: null,
    followRequests: 0,
    error: null,

    open: async (taskId) => {
      stopFollowing();
      set({ taskId, messages: [], hasMore: false, runs: [], persistedApprovals: [], live: null, error: null, loading: taskId !== null });
      if (!taskId) return;
      try {
        const task = await getApi().client.getTask({ task_id: taskId });
        if (!stillOpen(taskId)) return;
        if (task.last_run?.status === 'running') follow(taskId, task.last_run.id);
        await reload(taskId);
      } catch (err) {
        if (stillOpen(taskId)) set({ error: toErrorInfo(err) });
      } finally {
        if (stillOpen(taskId)) set({ loading: false });
      }
    },

    loadOlder: async () => {
      const { taskId, messages, hasMore, loadingOlder } = get();
      if (!taskId || !hasMore || loadingOlder || messages.length === 0) return;
      set({ loadingOlder: true });
      try {
        const page = await getApi().client.listMessages({ task_id: taskId, before_seq: messages[0].seq, limit: PAGE_SIZE });
        if (!stillOpen(taskId)) return;
        set((s) => ({ messages: prependOlderPage(s.messages, page.messages), hasMore: page.has_more }));
      } catch (err) {
        if (stillOpen(taskId)) set({ error: toErrorInfo(err) });
      } finally {
        if (stillOpen(taskId)) set({ loadingOlder: false });
      }
    },

    send: async (content, context) => {
      const { taskId, live } = get();
      if (!taskId || isLiveRunActive(live)) return false;
      return startedRun(taskId, () => getApi().client.sendMessage({ task_id: taskId, content, ...(context ? { context } : {}) }));
    },

    continueTask: async () => {
      const { taskId, live } = get();
      if (!taskId || isLiveRunActive(live)) return;
      await startedRun(taskId, () => getApi().client.continueTask({ task_id: taskId }));
    },

    cancel: async () => {
      const { taskId, live } = get();
      if (!taskId || !live) return;
      try {
        await getApi().client.cancelRun({ task_id: taskId, run_id: live.runId });
      } catch (err) {
        if (stillOpen(taskId)) set({ error: toErrorInfo(err) });
      }
    },

    decide: async (approval, decision, reason) => {
      const { taskId } = get();
      if (!taskId) return;
      try {
        await getApi().client.decideApproval({
          task_id: taskId,
          run_id: approval.runId,
          call_id: approval.callId,
          decision,
          ...(reason?.trim() ? { reason: reason.trim() } : {}),
        });
        // The live stream will confirm with approval_resolved; drop it now so the card can't be clicked twice.
        set((s) => ({ persistedApprovals: s.persistedApprovals.filter((a) => a.call_id !== approval.callId) }));
        const live = get().live;
        if (live) {
          set({
            live: { ...live, approvals: live.approvals.filter((a) => a.callId !== approval.callId), resolvedApprovals: [...live.resolvedApprovals, approval.callId] },
          });
        } else {
          // An approval from an interrupted run: the task may now be resumable.
          void useTasks.getState().refresh(taskId);
        }
      } catch (err) {
        if (stillOpen(taskId)) set({ error: toErrorInfo(err) });
      }
    },

    runFrom: async (taskId, start) => {
      if (get().taskId !== taskId || isLiveRunActive(get().live)) return false;
      return startedRun(taskId, start);
    },

    dismissError: () => set({ error: null }),
  };
});

linkOpenChat(useChat);
