import type * as childProcess from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { findResourcesDir } from '../config/app-paths';
import { findOnPath } from '../sandbox/which';

// Which programs ran, and how: in the background (execFile) or holding the event loop (spawnSync).
const { background, blocking } = vi.hoisted(() => ({ background: [] as string[], blocking: [] as string[] }));
vi.mock('node:child_process', async (importOriginal) =>
  (await import('./child-process-calls.test-support')).recordingChildProcess(await importOriginal<typeof childProcess>(), { background, blocking }),
);

const isProbe = (command: string) => command === 'bwrap' || command.startsWith('python');

describe('the machine probes of a long-running core', () => {
  it('start in the background when the core starts, and getCapabilities answers from them without probing again', async () => {
    const { createCore } = await import('./create-core');
    const dataDir = await mkdtemp(join(tmpdir(), 'folio-machine-probes-'));
    const core = await createCore({ dataDir, resourcesDir: findResourcesDir(), warmMachineProbes: true });
    try {
      // Started with the core, before anyone asked (python3 and bubblewrap are installed wherever the suite runs).
      expect(background).toContain('python3');
      if (findOnPath('bwrap')) expect(background).toContain('bwrap');
      // Asked while they run: it waits for them instead of running its own, synchronous ones.
      const first = await core.handlers.getCapabilities({});
      expect(first.python.available).toBe(true);
      // Asked again once they are done: answered from them.
      expect(await core.handlers.getCapabilities({})).toEqual(first);
      expect(blocking.filter(isProbe)).toEqual([]);
      expect(background.filter(isProbe).length).toBeLessThanOrEqual(3);
    } finally {
      await core.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
