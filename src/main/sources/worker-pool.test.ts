import { afterEach, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { useCodeCacheDir, useWorkerScript, workerEntry } from './worker-pool';

afterEach(() => {
  useWorkerScript(null);
  useCodeCacheDir(null);
});

describe('the built worker entry', () => {
  it('hands the thread the code cache folder once one is set, and none before', () => {
    // Any existing file stands for a built worker script here: only the entry is looked at.
    useWorkerScript(fileURLToPath(import.meta.url));
    expect(workerEntry()?.workerData).toBeUndefined();
    useCodeCacheDir('/data/cache/code');
    expect(workerEntry()?.workerData).toEqual({ codeCacheDir: '/data/cache/code' });
  });
});
