// Projects: the list in the sidebar and the page shown for a project or the personal
// library. Which project's tasks the list shows lives in the tasks store (it is part of the list's query).
import { create } from 'zustand';
import type { Project } from '../../shared/contract';
import { PERSONAL_LIBRARY } from '../../shared/contract/library-id';
import { useApp } from './app-store';
import { getApi } from './api';
import { reportError } from './notices';
import { scopeProjectId, useTasks } from './tasks-store';

export interface ProjectPatch {
  name?: string;
  instructions?: string;
  default_model?: string | null;
  default_mode?: Project['default_mode'];
  default_approval_mode?: Project['default_approval_mode'];
  archived?: boolean;
}

interface ProjectsState {
  /** Every project, archived ones included (the sidebar splits them). */
  projects: Project[];
  loaded: boolean;
  /** The page shown while the view is 'project': a project's id or `personal`. */
  page: string | null;
  load: () => Promise<void>;
  /** Creates a project, selects it and opens its page; null when it failed (reported). */
  create: (name: string) => Promise<Project | null>;
  /** Like update, but the caller shows the error (the project page shows it next to the form). */
  save: (projectId: string, patch: ProjectPatch) => Promise<Project>;
  update: (projectId: string, patch: ProjectPatch) => Promise<void>;
  remove: (projectId: string) => Promise<void>;
  /** Shows a project's tasks and its page. */
  open: (projectId: string) => void;
  openPersonalLibrary: () => void;
}

function replace(projects: Project[], project: Project): Project[] {
  const index = projects.findIndex((p) => p.id === project.id);
  if (index === -1) return [...projects, project];
  const next = projects.slice();
  next[index] = project;
  return next;
}

export const useProjects = create<ProjectsState>((set, get) => ({
  projects: [],
  loaded: false,
  page: null,

  load: async () => {
    try {
      const { projects } = await getApi().client.listProjects({ archived: 'true' });
      set({ projects, loaded: true });
    } catch (err) {
      reportError(err);
    }
  },

  create: async (name) => {
    try {
      const project = await getApi().client.createProject({ name });
      set((s) => ({ projects: replace(s.projects, project) }));
      get().open(project.id);
      return project;
    } catch (err) {
      reportError(err);
      return null;
    }
  },

  save: async (projectId, patch) => {
    const project = await getApi().client.updateProject({ project_id: projectId, ...patch });
    set((s) => ({ projects: replace(s.projects, project) }));
    return project;
  },

  update: async (projectId, patch) => {
    try {
      await get().save(projectId, patch);
    } catch (err) {
      reportError(err);
    }
  },

  remove: async (projectId) => {
    try {
      await getApi().client.deleteProject({ project_id: projectId });
      set((s) => ({ projects: s.projects.filter((p) => p.id !== projectId), page: s.page === projectId ? null : s.page }));
      const tasks = useTasks.getState();
      // Its tasks stay, without a project: the list (and the open task's header) must say so.
      if (scopeProjectId(tasks.project) === projectId) tasks.setProject('all');
      else void tasks.load();
      if (tasks.currentTaskId) void tasks.refresh(tasks.currentTaskId);
      if (useApp.getState().view === 'project' && get().page === null) useApp.getState().setView('chat');
    } catch (err) {
      reportError(err);
    }
  },

  open: (projectId) => {
    set({ page: projectId });
    const tasks = useTasks.getState();
    if (scopeProjectId(tasks.project) !== projectId) tasks.setProject({ projectId });
    useApp.getState().setView('project');
  },

  openPersonalLibrary: () => {
    set({ page: PERSONAL_LIBRARY });
    useApp.getState().setView('project');
  },
}));

/** Projects shown by name (active first, then archived), for pickers. */
export function projectName(projects: readonly Project[], projectId: string | null): string | null {
  if (projectId === null) return null;
  return projects.find((p) => p.id === projectId)?.name ?? null;
}
