import { describe, expect, it } from 'vitest';
import { ExecutorError, type Executor, type ExecResult } from './executor';
import { isolatedOnly } from './select-executor';

function executor(active: boolean, reason: string): Executor & { runs: number; active: boolean } {
  return {
    active,
    kind: 'bubblewrap',
    hostFilesystem: true,
    shownRoot: (root) => root,
    runs: 0,
    status(this: { active: boolean }) {
      return { active: this.active, reason };
    },
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
    expect(chosen.status()).toEqual({ active: true, reason: 'sandboxed with bubblewrap' });
    expect((await chosen.run(['true'], options)).output).toBe('ran');
    expect(sandboxed.runs).toBe(1);
  });

  it('run as soon as an executor that could not isolate them at first can (an engine that was slow to answer)', async () => {
    const engine = executor(false, 'no container runtime: `podman info` failed (timed out)');
    const chosen = isolatedOnly(engine);
    await expect(chosen.run(['true'], options)).rejects.toThrow(/only isolated, and no container runtime/u);
    engine.active = true;
    expect((await chosen.run(['true'], options)).output).toBe('ran');
    expect(engine.runs).toBe(1);
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
