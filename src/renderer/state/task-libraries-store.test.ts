// The libraries counted for a task are the ones its agent searches: the project's and the personal
// library inside a project, the personal one alone outside; empty ones are not shown.
import { beforeEach, describe, expect, it } from 'vitest';
import type { FolioClient } from '../../shared/contract';
import type { FolioApi } from '../api/folio-api';
import { setApi } from './api';
import { useTaskLibraries } from './task-libraries-store';

/** A FolioApi whose listLibraryFiles answers with `counts[library]` files and records what was asked. */
function installApi(counts: Record<string, number | Error>): string[] {
  const asked: string[] = [];
  const client = {
    listLibraryFiles: async ({ project_id }: { project_id: string }) => {
      asked.push(project_id);
      const count = counts[project_id] ?? 0;
      if (count instanceof Error) throw count;
      return { files: Array.from({ length: count }, (_, i) => ({ path: `f${i}.pdf` })), progress: { queued_files: 0 } };
    },
  } as unknown as FolioClient;
  const api = { kind: 'http', client } as unknown as FolioApi;
  setApi(api);
  return asked;
}

describe('task libraries store', () => {
  beforeEach(() => {
    useTaskLibraries.setState({ taskId: null, libraries: [] });
  });

  it('counts the project library and the personal one for a task in a project', async () => {
    const asked = installApi({ p1: 2, personal: 1 });
    await useTaskLibraries.getState().load('t1', 'p1');
    expect(asked).toEqual(['p1', 'personal']);
    expect(useTaskLibraries.getState().libraries).toEqual([
      { library: 'p1', files: 2 },
      { library: 'personal', files: 1 },
    ]);
  });

  it('asks only for the personal library outside a project, and leaves out empty or failing libraries', async () => {
    const asked = installApi({ personal: 0 });
    await useTaskLibraries.getState().load('t2', null);
    expect(asked).toEqual(['personal']);
    expect(useTaskLibraries.getState().libraries).toEqual([]);

    installApi({ p1: new Error('gone'), personal: 3 });
    await useTaskLibraries.getState().load('t2', 'p1');
    expect(useTaskLibraries.getState().libraries).toEqual([{ library: 'personal', files: 3 }]);
  });

  it('drops an answer for a task no longer open', async () => {
    installApi({ personal: 1 });
    const first = useTaskLibraries.getState().load('t1', null);
    void useTaskLibraries.getState().load('t2', null);
    useTaskLibraries.setState({ taskId: 't3', libraries: [] });
    await first;
    expect(useTaskLibraries.getState().libraries).toEqual([]);
  });
});
