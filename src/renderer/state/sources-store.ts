// Extraction status of the open task's sources. While any source is still pending the list is
// polled every second, and polling stops once none is (or after a bound, so a source nobody
// extracts doesn't keep the UI polling forever).
import { create } from 'zustand';
import type { SourceInfo } from '../../shared/contract';
import { getApi } from './api';
import { toErrorInfo, type ErrorInfo } from './notices';

export const POLL_INTERVAL_MS = 1000;
/** About two minutes of pending sources; a new upload or finished run starts polling again. */
export const MAX_POLLS = 120;

interface SourcesState {
  taskId: string | null;
  sources: SourceInfo[];
  error: ErrorInfo | null;
  /** Loads the task's source status and keeps polling while any is pending. */
  load: (taskId: string | null) => Promise<void>;
}

let timer: ReturnType<typeof setTimeout> | null = null;
let polls = 0;

function stopPolling(): void {
  if (timer !== null) clearTimeout(timer);
  timer = null;
}

export const useSources = create<SourcesState>((set, get) => {
  const poll = async (taskId: string): Promise<void> => {
    try {
      const { sources } = await getApi().client.listSources({ task_id: taskId });
      if (get().taskId !== taskId) return;
      set({ sources, error: null });
      if (sources.some((s) => s.status === 'pending') && polls < MAX_POLLS) {
        polls++;
        stopPolling();
        timer = setTimeout(() => void poll(taskId), POLL_INTERVAL_MS);
      }
    } catch (err) {
      if (get().taskId === taskId) set({ error: toErrorInfo(err) });
    }
  };

  return {
    taskId: null,
    sources: [],
    error: null,
    load: async (taskId) => {
      stopPolling();
      polls = 0;
      if (taskId !== get().taskId) set({ taskId, sources: [], error: null });
      if (taskId) await poll(taskId);
    },
  };
});

export function sourceFor(sources: readonly SourceInfo[], path: string): SourceInfo | undefined {
  return sources.find((s) => s.path === path);
}
