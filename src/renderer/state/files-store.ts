import { create } from 'zustand';
import type { FileEntry } from '../../shared/contract';
import { getApi } from './api';
import { toErrorInfo, type ErrorInfo } from './notices';

interface FilesState {
  taskId: string | null;
  files: FileEntry[];
  uploading: boolean;
  error: ErrorInfo | null;
  load: (taskId: string | null) => Promise<void>;
  /** Adds files to the task's folder; resolves to the entries added (none when it failed). */
  upload: (taskId: string, files: File[]) => Promise<FileEntry[]>;
  download: (entry: FileEntry) => Promise<void>;
}

export function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.appendChild(link);
  link.click();
  link.remove();
  // Give the browser a moment to start the download before the URL goes away.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export const useFiles = create<FilesState>((set, get) => ({
  taskId: null,
  files: [],
  uploading: false,
  error: null,

  load: async (taskId) => {
    if (taskId !== get().taskId) set({ taskId, files: [], error: null });
    if (!taskId) return;
    try {
      const { files } = await getApi().client.listFiles({ task_id: taskId });
      if (get().taskId === taskId) set({ files });
    } catch (err) {
      if (get().taskId === taskId) set({ error: toErrorInfo(err) });
    }
  },

  upload: async (taskId, files) => {
    if (files.length === 0) return [];
    set({ uploading: true, error: null });
    let added: FileEntry[] = [];
    try {
      added = await getApi().addFiles(taskId, files);
    } catch (err) {
      set({ error: toErrorInfo(err) });
    } finally {
      set({ uploading: false });
    }
    await get().load(taskId);
    return added;
  },

  download: async (entry) => {
    try {
      const blob = await getApi().downloadFile(entry.task_id, entry.path);
      saveBlob(blob, entry.path.split('/').pop() ?? entry.path);
    } catch (err) {
      set({ error: toErrorInfo(err) });
    }
  },
}));
