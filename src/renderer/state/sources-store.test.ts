import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { FolioClient, SourceInfo } from '../../shared/contract';
import type { FolioApi } from '../api/folio-api';
import { setApi } from './api';
import { MAX_POLLS, POLL_INTERVAL_MS, useSources } from './sources-store';

function source(status: SourceInfo['status'], extra: Partial<SourceInfo> = {}): SourceInfo {
  return { path: 'source/a.pdf', status, pages: null, message: null, cache_path: null, ...extra };
}

/** A FolioApi whose listSources answers from the queue (the last answer repeats). */
function installApi(answers: SourceInfo[][]): { calls: () => number } {
  let calls = 0;
  const client = {
    listSources: async () => {
      const answer = answers[Math.min(calls, answers.length - 1)];
      calls++;
      return { sources: answer };
    },
  } as unknown as FolioClient;
  const api: FolioApi = {
    kind: 'http',
    client,
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
  return { calls: () => calls };
}

describe('sources store', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    useSources.setState({ taskId: null, sources: [], error: null });
  });
  afterEach(async () => {
    await useSources.getState().load(null); // stops any polling
    vi.useRealTimers();
  });

  it('polls every second while a source is pending and stops once none is', async () => {
    const api = installApi([[source('pending')], [source('pending')], [source('error', { message: 'Invalid PDF structure' })]]);
    await useSources.getState().load('t1');
    expect(useSources.getState().sources[0].status).toBe('pending');
    expect(api.calls()).toBe(1);

    await vi.advanceTimersByTimeAsync(POLL_INTERVAL_MS);
    expect(api.calls()).toBe(2);
    await vi.advanceTimersByTimeAsync(POLL_INTERVAL_MS);
    expect(api.calls()).toBe(3);
    expect(useSources.getState().sources[0]).toMatchObject({ status: 'error', message: 'Invalid PDF structure' });

    await vi.advanceTimersByTimeAsync(POLL_INTERVAL_MS * 5);
    expect(api.calls()).toBe(3);
  });

  it('does not poll when nothing is pending', async () => {
    const api = installApi([[source('ok', { pages: 12 })]]);
    await useSources.getState().load('t1');
    await vi.advanceTimersByTimeAsync(POLL_INTERVAL_MS * 3);
    expect(api.calls()).toBe(1);
    expect(useSources.getState().sources[0].pages).toBe(12);
  });

  it('gives up after a bounded number of polls on a source nobody extracts', async () => {
    const api = installApi([[source('pending')]]);
    await useSources.getState().load('t1');
    await vi.advanceTimersByTimeAsync(POLL_INTERVAL_MS * (MAX_POLLS + 10));
    expect(api.calls()).toBe(MAX_POLLS + 1);
  });

  it('stops polling the old task when another one opens', async () => {
    const api = installApi([[source('pending')]]);
    await useSources.getState().load('t1');
    await useSources.getState().load(null);
    await vi.advanceTimersByTimeAsync(POLL_INTERVAL_MS * 3);
    expect(api.calls()).toBe(1);
    expect(useSources.getState().sources).toEqual([]);
  });
});
