// Moving a task between projects: the dialog offers the right choices, and the flow
// against a fake client files the task where asked, with the list following the selected project.
import { renderToStaticMarkup } from 'react-dom/server';
import { beforeEach, describe, expect, it } from 'vitest';
import type { FolioClient, Project, Task } from '../../shared/contract';
import type { FolioApi } from '../api/folio-api';
import { setApi } from '../state/api';
import { useApp } from '../state/app-store';
import { useProjects } from '../state/projects-store';
import { useTasks } from '../state/tasks-store';
import { MoveToProjectDialog } from './MoveToProjectDialog';

const project = (id: string, name: string, archived = false): Project => ({
  id, name, instructions: '', default_model: null, default_mode: null, default_approval_mode: null, archived, task_count: 0, file_count: 0, created_at: 1, updated_at: 1,
});

const task = (id: string, project_id: string | null): Task => ({
  id, title: id, description: '', mode: 'general', status: 'active', model: null, approval_mode: 'ask', workspace_path: null, allow_network: false,
  prompt_tokens: 0, completion_tokens: 0, cost: 0, created_at: 1, updated_at: 1, last_run: null, reasoning: null, mcp_servers: null, project_id,
});

const noop = () => undefined;

/** The value of the checked radio in rendered HTML. */
const checkedValue = (html: string) => [...html.matchAll(/<input[^>]*>/g)].map((m) => m[0]).filter((tag) => tag.includes('checked=""')).map((tag) => /value="([^"]*)"/.exec(tag)?.[1]);

describe('MoveToProjectDialog', () => {
  it('offers no project and the active projects, plus an archived one only when the task is in it', () => {
    const projects = [project('p1', 'Grant 2027'), project('p2', 'Old lab', true), project('p3', 'Thesis')];
    const html = renderToStaticMarkup(<MoveToProjectDialog task={{ title: 'Draft', project_id: 'p3' }} projects={projects} onMove={noop} onCancel={noop} />);
    expect(html).toContain('Grant 2027');
    expect(html).toContain('Thesis');
    expect(html).not.toContain('Old lab');
    expect(checkedValue(html)).toEqual(['p3']);

    const archivedHome = renderToStaticMarkup(<MoveToProjectDialog task={{ title: 'Draft', project_id: 'p2' }} projects={projects} onMove={noop} onCancel={noop} />);
    expect(archivedHome).toContain('Old lab');
    const loose = renderToStaticMarkup(<MoveToProjectDialog task={{ title: 'Draft', project_id: null }} projects={projects} onMove={noop} onCancel={noop} />);
    expect(checkedValue(loose)).toEqual(['']);
  });
});

/** Tasks and projects in memory, answering as the service does for the calls the flow makes. */
function installFakeClient() {
  const tasks = new Map<string, Task>([['t1', task('t1', 'p1')], ['t2', task('t2', null)]]);
  const projects = new Map<string, Project>([['p1', project('p1', 'Grant 2027')], ['p2', project('p2', 'Thesis')]]);
  const calls: { method: string; input: Record<string, unknown> }[] = [];
  let next = 3;
  const client = {
    listTasks: async (input: { project_id?: string }) => {
      calls.push({ method: 'listTasks', input });
      const all = [...tasks.values()];
      const scoped = input.project_id === undefined ? all : all.filter((t) => t.project_id === (input.project_id === 'none' ? null : input.project_id));
      return { tasks: scoped };
    },
    getTask: async ({ task_id }: { task_id: string }) => tasks.get(task_id),
    createTask: async (input: { mode: Task['mode']; project_id?: string | null }) => {
      calls.push({ method: 'createTask', input });
      const created = task(`t${next++}`, input.project_id ?? null);
      tasks.set(created.id, created);
      return created;
    },
    updateTask: async (input: { task_id: string; project_id?: string | null }) => {
      calls.push({ method: 'updateTask', input });
      const updated = { ...tasks.get(input.task_id)!, ...(input.project_id !== undefined ? { project_id: input.project_id } : {}) };
      tasks.set(updated.id, updated);
      return updated;
    },
    listProjects: async () => ({ projects: [...projects.values()] }),
    deleteProject: async ({ project_id }: { project_id: string }) => {
      projects.delete(project_id);
      for (const t of tasks.values()) if (t.project_id === project_id) tasks.set(t.id, { ...t, project_id: null });
      return { ok: true };
    },
  } as unknown as FolioClient;
  const api: FolioApi = {
    kind: 'http',
    client,
    subscribeRun: () => noop,
    addFiles: async () => [],
    addLibraryFiles: async () => [],
    importTemplate: async () => {
      throw new Error('not used here');
    },
    downloadFile: async () => new Blob(),
    downloadLibraryFile: async () => new Blob(),
  };
  setApi(api);
  return { calls, tasks };
}

const listed = () => useTasks.getState().tasks.map((t) => t.id).sort();

describe('the move-to-project flow', () => {
  beforeEach(() => {
    useTasks.setState({ tasks: [], filter: 'active', query: '', project: 'all', currentTaskId: null, current: null });
    useProjects.setState({ projects: [], loaded: false, page: null });
    useApp.setState({ view: 'chat' });
  });

  it('opens a project with its tasks, starts tasks in it and moves tasks out of it', async () => {
    const fake = installFakeClient();
    await useProjects.getState().load();
    useProjects.getState().open('p1');
    expect(useApp.getState().view).toBe('project');
    await useTasks.getState().load();
    expect(fake.calls.filter((c) => c.method === 'listTasks').at(-1)?.input).toMatchObject({ project_id: 'p1' });
    expect(listed()).toEqual(['t1']);

    // A task started while the project is selected belongs to it.
    const created = await useTasks.getState().create('general');
    expect(fake.calls.find((c) => c.method === 'createTask')?.input).toEqual({ mode: 'general', project_id: 'p1' });
    expect(created?.project_id).toBe('p1');
    expect(listed()).toEqual(['t1', created!.id].sort());

    // "Move to project… → No project": the task leaves this project's list and shows under "No project".
    await useTasks.getState().update('t1', { project_id: null });
    expect(fake.calls.filter((c) => c.method === 'updateTask').at(-1)?.input).toEqual({ task_id: 't1', project_id: null });
    expect(fake.tasks.get('t1')?.project_id).toBeNull();
    expect(listed()).toEqual([created!.id]);
    useTasks.getState().setProject('none');
    await useTasks.getState().load();
    expect(listed()).toEqual(['t1', 't2']);

    // And into another project.
    await useTasks.getState().update('t2', { project_id: 'p2' });
    expect(listed()).toEqual(['t1']);
  });

  it('deleting the selected project shows all tasks again, none of them in it', async () => {
    const fake = installFakeClient();
    await useProjects.getState().load();
    useProjects.getState().open('p1');
    await useProjects.getState().remove('p1');
    expect(useTasks.getState().project).toBe('all');
    expect(useProjects.getState().projects.map((p) => p.id)).toEqual(['p2']);
    expect(useApp.getState().view).toBe('chat');
    await useTasks.getState().load();
    expect(listed()).toEqual(['t1', 't2']);
    expect(fake.tasks.get('t1')?.project_id).toBeNull();
  });
});
