import { create } from 'zustand';
import type { ApprovalMode, ReasoningMode, Task, TaskMode, TaskStatus } from '../../shared/contract';
import { getApi } from './api';
import { reportError } from './notices';

export type StatusFilter = TaskStatus | 'all';
/** Which project's tasks the list shows: every task, tasks outside every project, or one project's. */
export type ProjectScope = 'all' | 'none' | { projectId: string };

export function scopeProjectId(scope: ProjectScope): string | null {
  return typeof scope === 'object' ? scope.projectId : null;
}

export interface TaskPatch {
  title?: string;
  status?: TaskStatus;
  model?: string | null;
  approval_mode?: ApprovalMode;
  workspace_path?: string | null;
  allow_network?: boolean;
  reasoning?: ReasoningMode | null;
  /** MCP: servers whose tools the task's runs get; null: none. */
  mcp_servers?: string[] | null;
  /** Projects: move into a project, or out of every project with null. */
  project_id?: string | null;
}

interface TasksState {
  tasks: Task[];
  filter: StatusFilter;
  query: string;
  project: ProjectScope;
  currentTaskId: string | null;
  /** The open task, kept even when the list's filter hides it. */
  current: Task | null;
  loading: boolean;
  /**
   * Sends the first list request at start-up, before the app renders, and puts its answer in the
   * store when it arrives (resolves then, also on failure), so the first render can already hold the
   * rows; the first `load` takes that answer instead of asking again.
   */
  prefetch: () => Promise<void>;
  load: () => Promise<void>;
  setFilter: (filter: StatusFilter) => void;
  setQuery: (query: string) => void;
  setProject: (project: ProjectScope) => void;
  select: (taskId: string | null) => void;
  create: (mode: TaskMode) => Promise<Task | null>;
  update: (taskId: string, patch: TaskPatch) => Promise<void>;
  /** Like update, but the caller shows the error (e.g. inline in a dialog). */
  patch: (taskId: string, patch: TaskPatch) => Promise<Task>;
  remove: (taskId: string) => Promise<void>;
  refresh: (taskId: string) => Promise<void>;
}

const CURRENT_TASK_KEY = 'folio.currentTask';

function rememberCurrent(taskId: string | null): void {
  try {
    if (taskId) localStorage.setItem(CURRENT_TASK_KEY, taskId);
    else localStorage.removeItem(CURRENT_TASK_KEY);
  } catch {
    // storage may be unavailable (private mode); selection just won't survive a reload
  }
}

export function rememberedTaskId(): string | null {
  try {
    return localStorage.getItem(CURRENT_TASK_KEY);
  } catch {
    return null;
  }
}

interface ListFilter {
  filter: StatusFilter;
  query: string;
  project: ProjectScope;
}

function matchesProject(task: Task, project: ProjectScope): boolean {
  if (project === 'all') return true;
  if (project === 'none') return task.project_id === null;
  return task.project_id === project.projectId;
}

function matchesFilter(task: Task, { filter, query, project }: ListFilter): boolean {
  if (filter !== 'all' && task.status !== filter) return false;
  if (!matchesProject(task, project)) return false;
  const q = query.trim().toLowerCase();
  return q === '' || task.title.toLowerCase().includes(q) || task.description.toLowerCase().includes(q);
}

function replaceTask(tasks: Task[], task: Task, list: ListFilter): Task[] {
  const keep = matchesFilter(task, list);
  const index = tasks.findIndex((t) => t.id === task.id);
  if (index === -1) return keep ? [task, ...tasks] : tasks;
  if (!keep) return tasks.filter((t) => t.id !== task.id);
  const next = tasks.slice();
  next[index] = task;
  return next;
}

let loadGeneration = 0;

/** The start-up request (`prefetch`), kept for the first `load` that asks the same question. */
let prefetched: { key: string; answer: Promise<{ tasks: Task[] }>; inStore: boolean } | null = null;

function listInput(filter: StatusFilter, query: string, project: ProjectScope) {
  return {
    ...(filter === 'all' ? {} : { status: filter }),
    ...(query.trim() ? { q: query.trim() } : {}),
    ...(project === 'all' ? {} : { project_id: project === 'none' ? 'none' : project.projectId }),
  };
}

export const useTasks = create<TasksState>((set, get) => ({
  tasks: [],
  filter: 'active',
  query: '',
  project: 'all',
  currentTaskId: null,
  current: null,
  loading: false,

  prefetch: () => {
    const { filter, query, project } = get();
    const input = listInput(filter, query, project);
    const answer = getApi().client.listTasks(input);
    const entry = { key: JSON.stringify(input), answer, inStore: false };
    prefetched = entry;
    return answer.then(
      ({ tasks }) => {
        // Not if a load took it meanwhile: that load owns the list now.
        if (prefetched !== entry) return;
        set({ tasks });
        entry.inStore = true;
      },
      // Reported by the `load` that takes it (never, if the app shows the recovery screen instead).
      () => undefined,
    );
  },

  load: async () => {
    const generation = ++loadGeneration;
    const { filter, query, project } = get();
    const input = listInput(filter, query, project);
    if (prefetched?.inStore && prefetched.key === JSON.stringify(input)) {
      // The start-up answer is already what the list shows: no request, and no re-render of the list.
      prefetched = null;
      return;
    }
    set({ loading: true });
    try {
      const early = prefetched?.key === JSON.stringify(input) ? prefetched.answer : null;
      prefetched = null;
      const { tasks } = await (early ?? getApi().client.listTasks(input));
      if (generation === loadGeneration) set({ tasks });
    } catch (err) {
      reportError(err);
    } finally {
      if (generation === loadGeneration) set({ loading: false });
    }
  },

  setFilter: (filter) => {
    set({ filter });
    void get().load();
  },

  setQuery: (query) => set({ query }),

  setProject: (project) => {
    set({ project });
    void get().load();
  },

  select: (taskId) => {
    rememberCurrent(taskId);
    const current = taskId ? (get().tasks.find((t) => t.id === taskId) ?? null) : null;
    set({ currentTaskId: taskId, current });
    if (taskId) void get().refresh(taskId);
  },

  create: async (mode) => {
    try {
      // A task started while a project is selected belongs to it.
      const projectId = scopeProjectId(get().project);
      const task = await getApi().client.createTask({ mode, ...(projectId ? { project_id: projectId } : {}) });
      // A new task is active; show it even if the user was browsing another status.
      set((s) => ({ filter: s.filter === 'all' ? 'all' : 'active', query: '' }));
      await get().load();
      get().select(task.id);
      return task;
    } catch (err) {
      reportError(err);
      return null;
    }
  },

  update: async (taskId, patch) => {
    try {
      await get().patch(taskId, patch);
    } catch (err) {
      reportError(err);
    }
  },
  patch: async (taskId, patch) => {
    const task = await getApi().client.updateTask({ task_id: taskId, ...patch });
    set((s) => ({
      tasks: replaceTask(s.tasks, task, s),
      current: s.currentTaskId === task.id ? task : s.current,
    }));
    return task;
  },

  remove: async (taskId) => {
    try {
      await getApi().client.deleteTask({ task_id: taskId });
      set((s) => ({ tasks: s.tasks.filter((t) => t.id !== taskId) }));
      if (get().currentTaskId === taskId) get().select(null);
    } catch (err) {
      reportError(err);
    }
  },

  refresh: async (taskId) => {
    try {
      const task = await getApi().client.getTask({ task_id: taskId });
      set((s) => ({
        tasks: s.tasks.some((t) => t.id === task.id) ? replaceTask(s.tasks, task, s) : s.tasks,
        current: s.currentTaskId === task.id ? task : s.current,
      }));
    } catch (err) {
      // The remembered task may have been deleted elsewhere; forget it quietly.
      if (get().currentTaskId === taskId) {
        rememberCurrent(null);
        set({ currentTaskId: null, current: null });
      }
      if (!(err instanceof Error && 'code' in err && err.code === 'not_found')) reportError(err);
    }
  },
}));
