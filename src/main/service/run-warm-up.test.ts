import type * as childProcess from 'node:child_process';
import { describe, expect, it, vi } from 'vitest';

const spawned: string[] = [];
vi.mock('node:child_process', async (importOriginal) => {
  const actual = await importOriginal<typeof childProcess>();
  return {
    ...actual,
    spawnSync: (command: string, ...rest: unknown[]) => {
      spawned.push(command);
      return (actual.spawnSync as (...args: unknown[]) => unknown)(command, ...rest);
    },
  };
});

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
