import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { FolioClient, IndexProgress, LibraryFile } from '../../shared/contract';
import type { FolioApi } from '../api/folio-api';
import { setApi } from './api';
import { LIBRARY_POLL_MS, useLibrary } from './library-store';

const file = (status: LibraryFile['status']): LibraryFile => ({
  library: 'p1', path: 'a.pdf', task_path: 'library/project/a.pdf', size: 10, sha256: 'x', status, pages: status === 'ok' ? 3 : null, message: null, created_at: 1, updated_at: 1,
});
const progress = (queued: number, pages: number): IndexProgress => ({ total_files: 1, queued_files: queued, indexed_pages: pages, embedded_pages: 0 });

/** listLibraryFiles answers from the queue (the last answer repeats); uploads are recorded. */
function installApi(answers: { files: LibraryFile[]; progress: IndexProgress }[]) {
  const calls: string[] = [];
  const uploads: { libraryId: string; names: string[] }[] = [];
  const client = {
    listLibraryFiles: async ({ project_id }: { project_id: string }) => {
      calls.push(project_id);
      return answers[Math.min(calls.length - 1, answers.length - 1)];
    },
  } as unknown as FolioClient;
  const api: FolioApi = {
    kind: 'http',
    client,
    subscribeRun: () => () => undefined,
    addFiles: async () => [],
    addLibraryFiles: async (libraryId, files) => {
      uploads.push({ libraryId, names: files.map((f) => f.name) });
      return [];
    },
    importTemplate: async () => {
      throw new Error('not used here');
    },
    downloadFile: async () => new Blob(),
    downloadLibraryFile: async () => new Blob(),
  };
  setApi(api);
  return { calls, uploads };
}

describe('library store', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    useLibrary.setState({ libraryId: null, files: [], progress: null, uploading: false, error: null });
  });
  afterEach(async () => {
    await useLibrary.getState().load(null);
    vi.useRealTimers();
  });

  it('polls every second while files are queued, and stops once none is', async () => {
    const api = installApi([
      { files: [file('pending')], progress: progress(1, 0) },
      { files: [file('indexing')], progress: progress(1, 1) },
      { files: [file('ok')], progress: progress(0, 3) },
    ]);
    await useLibrary.getState().load('p1');
    expect(useLibrary.getState().progress?.queued_files).toBe(1);
    await vi.advanceTimersByTimeAsync(LIBRARY_POLL_MS);
    expect(useLibrary.getState().files[0].status).toBe('indexing');
    await vi.advanceTimersByTimeAsync(LIBRARY_POLL_MS);
    expect(useLibrary.getState().progress).toMatchObject({ queued_files: 0, indexed_pages: 3 });
    expect(api.calls).toHaveLength(3);
    await vi.advanceTimersByTimeAsync(LIBRARY_POLL_MS * 5);
    expect(api.calls).toHaveLength(3);
  });

  it('does not poll an idle library, and stops when the page closes', async () => {
    const idle = installApi([{ files: [file('ok')], progress: progress(0, 3) }]);
    await useLibrary.getState().load('p1');
    await vi.advanceTimersByTimeAsync(LIBRARY_POLL_MS * 3);
    expect(idle.calls).toHaveLength(1);

    const busy = installApi([{ files: [file('pending')], progress: progress(1, 0) }]);
    await useLibrary.getState().load('p2');
    await useLibrary.getState().load(null);
    await vi.advanceTimersByTimeAsync(LIBRARY_POLL_MS * 3);
    expect(busy.calls).toEqual(['p2']);
  });

  it('uploads to the open library and then follows the indexing', async () => {
    const api = installApi([
      { files: [], progress: { ...progress(0, 0), total_files: 0 } },
      { files: [file('pending')], progress: progress(1, 0) },
      { files: [file('ok')], progress: progress(0, 3) },
    ]);
    await useLibrary.getState().load('p1');
    await useLibrary.getState().upload([new File(['hello'], 'a.pdf')]);
    expect(api.uploads).toEqual([{ libraryId: 'p1', names: ['a.pdf'] }]);
    expect(useLibrary.getState().progress?.queued_files).toBe(1);
    await vi.advanceTimersByTimeAsync(LIBRARY_POLL_MS);
    expect(useLibrary.getState().files[0].status).toBe('ok');
  });
});
