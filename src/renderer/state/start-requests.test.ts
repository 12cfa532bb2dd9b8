// The start-up requests are sent once: the task list's prefetch is taken by the first load, and the
// setup screen reuses the status the start check just read.
import { beforeEach, describe, expect, it } from 'vitest';
import type { FolioClient, Task } from '../../shared/contract';
import type { SetupStatus } from '../../shared/contract/setup';
import type { FolioApi } from '../api/folio-api';
import { setApi } from './api';
import { useNotices } from './notices';
import { useSetup } from './setup-store';
import { useTasks } from './tasks-store';

function installClient(client: Partial<FolioClient>): void {
  const api: FolioApi = {
    kind: 'http',
    client: client as FolioClient,
    subscribeRun: () => () => undefined,
    addFiles: async () => [],
    addLibraryFiles: async () => [],
    importTemplate: async () => {
      throw new Error('not used here');
    },
    downloadFile: async () => new Blob(),
    downloadLibraryFile: async () => new Blob(),
  };
  setApi(api);
}

const task = (id: string) => ({ id, title: id, description: '', status: 'active' }) as unknown as Task;

describe('start-up requests', () => {
  beforeEach(() => {
    useTasks.setState({ tasks: [], filter: 'active', query: '' });
    useSetup.setState({ status: null });
  });

  it('the first load takes the prefetched task list instead of asking again', async () => {
    const inputs: unknown[] = [];
    installClient({
      listTasks: async (input: unknown) => {
        inputs.push(input);
        return { tasks: [task(`t${inputs.length}`)] };
      },
    });
    void useTasks.getState().prefetch();
    await useTasks.getState().load();
    expect(inputs).toEqual([{ status: 'active' }]);
    expect(useTasks.getState().tasks.map((t) => t.id)).toEqual(['t1']);
    // Only once: a later load asks the server.
    await useTasks.getState().load();
    expect(inputs).toHaveLength(2);
    expect(useTasks.getState().tasks.map((t) => t.id)).toEqual(['t2']);
  });

  it('the prefetched list is in the store before the first render, and the first load then asks nothing', async () => {
    const inputs: unknown[] = [];
    installClient({
      listTasks: async (input: unknown) => {
        inputs.push(input);
        return { tasks: [task(`t${inputs.length}`)] };
      },
    });
    await useTasks.getState().prefetch();
    expect(useTasks.getState().tasks.map((t) => t.id)).toEqual(['t1']);
    const shown = useTasks.getState().tasks;
    await useTasks.getState().load();
    expect(inputs).toHaveLength(1);
    // The same array: the list's components have nothing to re-render.
    expect(useTasks.getState().tasks).toBe(shown);
    await useTasks.getState().load();
    expect(inputs).toHaveLength(2);
  });

  it('a failed prefetch resolves (the first render is not held up), leaves the list alone, and the first load reports it', async () => {
    let calls = 0;
    installClient({
      listTasks: async () => {
        calls++;
        if (calls === 1) throw new Error('database unavailable');
        return { tasks: [task('t2')] };
      },
    });
    await useTasks.getState().prefetch();
    expect(useTasks.getState().tasks).toEqual([]);
    await useTasks.getState().load();
    expect(calls).toBe(1);
    expect(useNotices.getState().notices.map((n) => n.message)).toContain('database unavailable');
    await useTasks.getState().load();
    expect(calls).toBe(2);
    expect(useTasks.getState().tasks.map((t) => t.id)).toEqual(['t2']);
  });

  it('a load for another filter does not take a prefetch made for the default one', async () => {
    const inputs: unknown[] = [];
    installClient({
      listTasks: async (input: unknown) => {
        inputs.push(input);
        return { tasks: [] };
      },
    });
    void useTasks.getState().prefetch();
    useTasks.setState({ filter: 'all' });
    await useTasks.getState().load();
    expect(inputs).toEqual([{ status: 'active' }, {}]);
  });

  it('the setup screen reuses the status the start check just read, and shares one in flight', async () => {
    let calls = 0;
    const status = { ready: false, problem: 'no model' } as unknown as SetupStatus;
    installClient({
      getSetupStatus: async () => {
        calls++;
        return status;
      },
    });
    const first = useSetup.getState().load({ atStart: true });
    const second = useSetup.getState().ensure();
    expect(await first).toBe(status);
    expect(await second).toBe(status);
    expect(await useSetup.getState().ensure()).toBe(status);
    expect(calls).toBe(1);
  });
});
