// The libraries the open task's agent can search and read (its project's, the personal one) and how
// many files each holds, so the task's panel counts what the agent sees rather than the task's own
// folder alone. Which libraries those are is decided once, by librariesOfTask.
import { create } from 'zustand';
import { librariesOfTask } from '../../shared/contract/library-id';
import { getApi } from './api';

export interface TaskLibrary {
  /** A project's id or `personal`. */
  library: string;
  files: number;
}

interface TaskLibrariesState {
  taskId: string | null;
  /** Only the libraries that hold a file, in the order the agent searches them. */
  libraries: TaskLibrary[];
  load: (taskId: string | null, projectId: string | null) => Promise<void>;
}

export const useTaskLibraries = create<TaskLibrariesState>((set, get) => ({
  taskId: null,
  libraries: [],

  load: async (taskId, projectId) => {
    if (taskId !== get().taskId) set({ taskId, libraries: [] });
    if (!taskId) return;
    const counted = await Promise.all(
      librariesOfTask(projectId).map(async (library): Promise<TaskLibrary> => {
        try {
          const { files } = await getApi().client.listLibraryFiles({ project_id: library });
          return { library, files: files.length };
        } catch {
          // A library that cannot be listed is not shown as holding files; the library page reports why.
          return { library, files: 0 };
        }
      }),
    );
    if (get().taskId === taskId) set({ libraries: counted.filter((l) => l.files > 0) });
  },
}));
