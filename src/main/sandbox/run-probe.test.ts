import { describe, expect, it } from 'vitest';
import { runProbe } from './run-probe';

describe('runProbe answers as spawnSync would', () => {
  it('gives the exit status and both outputs', async () => {
    const run = await runProbe('sh', ['-c', 'echo out; echo err >&2; exit 3'], { timeoutMs: 10_000, env: {} });
    expect(run).toEqual({ status: 3, signal: null, stdout: 'out\n', stderr: 'err\n' });
    expect(await runProbe('sh', ['-c', 'echo fine'], { timeoutMs: 10_000, env: {} })).toEqual({ status: 0, signal: null, stdout: 'fine\n', stderr: '' });
  });

  it('says why a program did not run to its end: not found, or timed out', async () => {
    const missing = await runProbe('folio-no-such-program', [], { timeoutMs: 10_000, env: {} });
    expect((missing.error as NodeJS.ErrnoException).code).toBe('ENOENT');
    expect(missing.status).toBeNull();
    const slow = await runProbe('sleep', ['10'], { timeoutMs: 50, env: {} });
    expect(slow.error?.message).toBe('timed out after 50 ms');
    expect(slow.status).toBeNull();
  });
});
