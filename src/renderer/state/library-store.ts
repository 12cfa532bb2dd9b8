// The open library's files and the index's measured progress. While files are queued the
// list is polled every second; polling stops as soon as none is, or when the page closes.
import { create } from 'zustand';
import type { IndexProgress, LibraryFile } from '../../shared/contract';
import { getApi } from './api';
import { toErrorInfo, type ErrorInfo } from './notices';

export const LIBRARY_POLL_MS = 1000;

interface LibraryState {
  /** A project's id or `personal`; null when no library page is open. */
  libraryId: string | null;
  files: LibraryFile[];
  progress: IndexProgress | null;
  uploading: boolean;
  error: ErrorInfo | null;
  /** Loads the library (null: stop following one) and polls while indexing is under way. */
  load: (libraryId: string | null) => Promise<void>;
  upload: (files: File[]) => Promise<void>;
  remove: (path: string) => Promise<void>;
}

let timer: ReturnType<typeof setTimeout> | null = null;

function stopPolling(): void {
  if (timer !== null) clearTimeout(timer);
  timer = null;
}

export const useLibrary = create<LibraryState>((set, get) => {
  const poll = async (libraryId: string): Promise<void> => {
    stopPolling();
    try {
      const { files, progress } = await getApi().client.listLibraryFiles({ project_id: libraryId });
      if (get().libraryId !== libraryId) return;
      set({ files, progress, error: null });
      if (progress.queued_files > 0) timer = setTimeout(() => void poll(libraryId), LIBRARY_POLL_MS);
    } catch (err) {
      if (get().libraryId === libraryId) set({ error: toErrorInfo(err) });
    }
  };

  return {
    libraryId: null,
    files: [],
    progress: null,
    uploading: false,
    error: null,

    load: async (libraryId) => {
      stopPolling();
      if (libraryId !== get().libraryId) set({ libraryId, files: [], progress: null, error: null, uploading: false });
      if (libraryId) await poll(libraryId);
    },

    upload: async (files) => {
      const libraryId = get().libraryId;
      if (!libraryId || files.length === 0) return;
      set({ uploading: true, error: null });
      try {
        await getApi().addLibraryFiles(libraryId, files);
      } catch (err) {
        if (get().libraryId === libraryId) set({ error: toErrorInfo(err) });
      } finally {
        if (get().libraryId === libraryId) set({ uploading: false });
      }
      // The new files are queued: this starts the polling.
      if (get().libraryId === libraryId) await poll(libraryId);
    },

    remove: async (path) => {
      const libraryId = get().libraryId;
      if (!libraryId) return;
      try {
        await getApi().client.deleteLibraryFile({ project_id: libraryId, path });
        if (get().libraryId === libraryId) set((s) => ({ files: s.files.filter((f) => f.path !== path) }));
      } catch (err) {
        if (get().libraryId === libraryId) set({ error: toErrorInfo(err) });
      }
      if (get().libraryId === libraryId) await poll(libraryId);
    },
  };
});
