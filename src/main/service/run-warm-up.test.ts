import type * as childProcess from 'node:child_process';
import { describe, expect, it, vi } from 'vitest';

// Which programs ran holding the event loop (spawnSync); those started in the background are not this test's.
const { background, blocking: spawned } = vi.hoisted(() => ({ background: [] as string[], blocking: [] as string[] }));
vi.mock('node:child_process', async (importOriginal) =>
  (await import('./child-process-calls.test-support')).recordingChildProcess(await importOriginal<typeof childProcess>(), { background, blocking: spawned }),
);

describe('loadRunCode', () => {
  it('leaves a run nothing synchronous to probe: building the tools after it starts no child process', async () => {
    const { loadRunCode } = await import('./run-warm-up');
    await loadRunCode();
    // The probes ran here, at the warm-up (python3 and bubblewrap are installed wherever the suite runs).
    expect(spawned.length).toBeGreaterThan(0);
    spawned.length = 0;
    const { createToolRegistry } = await import('../tools/catalog');
    const { defaultExecutor } = await import('../sandbox/select-executor');
    createToolRegistry();
    defaultExecutor().status();
    expect(spawned).toEqual([]);
  }, 60_000);
});
