import { describe, expect, it } from 'vitest';
import { ExecutorError, type Executor, type ExecResult } from './executor';
import { isolatedOnly } from './select-executor';

function executor(active: boolean, reason: string): Executor & { runs: number } {
  return {
    kind: 'bubblewrap',
    hostFilesystem: true,
    runs: 0,
    status: () => ({ active, reason }),
    note: () => reason,
    run(this: { runs: number }) {
      this.runs += 1;
      return Promise.resolve({ output: 'ran', truncated: false, exitCode: 0, signal: null, durationMs: 1, timedOut: false, aborted: false } satisfies ExecResult);
    },
    release: () => Promise.resolve(),
    close: () => Promise.resolve(),
  };
}

const options = { taskId: 't', root: '/tmp', cwd: '/tmp', env: {}, network: { kind: 'none' } } as unknown as Parameters<Executor['run']>[1];

describe('programs in the team service', () => {
  it('run through an executor that isolates them', async () => {
    const sandboxed = executor(true, 'sandboxed with bubblewrap');
    const chosen = isolatedOnly(sandboxed);
    expect(chosen).toBe(sandboxed);
    expect((await chosen.run(['true'], options)).output).toBe('ran');
  });

  it("never run unsandboxed: bubblewrap's fallback is refused with the reason and what to do", async () => {
    const fallback = executor(false, 'NOT sandboxed: bubblewrap cannot create namespaces here.');
    const chosen = isolatedOnly(fallback);
    expect(chosen.status().active).toBe(false);
    const refusal = chosen.run(['cat', '/srv/folio/tenants/other/keys.json'], options);
    await expect(refusal).rejects.toBeInstanceOf(ExecutorError);
    await expect(refusal).rejects.toThrow(/only isolated, and NOT sandboxed: bubblewrap cannot create namespaces here; .*FOLIO_EXECUTOR=container/u);
    expect(fallback.runs).toBe(0);
  });
});
