import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempRoot, removeTemp } from '../testing';
import { MAX_OUTPUT_BYTES, runShell, stripSecrets } from './run';
import { resetSandboxStatus, sandboxStatus } from '../../sandbox/sandbox';

let cwd: string;
beforeAll(() => {
  cwd = makeTempRoot('folio-run-');
});
afterAll(() => removeTemp(cwd));

const env = stripSecrets(process.env);

/** True once `pid` is gone (a zombie awaiting its reaper counts as gone: it runs nothing). */
function isGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
  try {
    return /^\d+ \(.*\) Z/u.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}

async function waitUntilGone(pid: number, ms = 2000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (isGone(pid)) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return isGone(pid);
}

function grandchildPid(output: string): number {
  const match = /child=(\d+)/u.exec(output);
  if (!match?.[1]) throw new Error(`no child pid in output: ${output}`);
  return Number(match[1]);
}

describe('runShell', () => {
  it('captures stdout and stderr interleaved, the exit code and the duration', async () => {
    const result = await runShell({ command: 'echo out; echo err 1>&2; echo 中文; exit 3', cwd, env });
    expect(result.output).toBe('out\nerr\n中文\n');
    expect(result.exitCode).toBe(3);
    expect(result.signal).toBeNull();
    expect(result.timedOut).toBe(false);
    expect(result.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('runs in the given folder with an empty stdin', async () => {
    const result = await runShell({ command: 'pwd; cat; echo done', cwd, env });
    expect(result.output).toBe(`${cwd}\ndone\n`);
    expect(result.exitCode).toBe(0);
  });

  it('kills the whole process group on timeout, grandchildren included', async () => {
    const started = Date.now();
    const result = await runShell({ command: 'sleep 30 & echo child=$!; sleep 30', cwd, env, timeoutMs: 500 });
    expect(result.timedOut).toBe(true);
    expect(result.exitCode).toBeNull();
    expect(result.signal).toBe('SIGTERM');
    expect(Date.now() - started).toBeLessThan(5000);
    expect(await waitUntilGone(grandchildPid(result.output))).toBe(true);
  });

  it('escalates to SIGKILL when the group ignores SIGTERM', async () => {
    const started = Date.now();
    const result = await runShell({ command: "trap '' TERM; echo ready; while :; do sleep 0.1; done", cwd, env, timeoutMs: 300 });
    expect(result.timedOut).toBe(true);
    expect(result.signal).toBe('SIGKILL');
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('stops within a second when aborted, and takes the grandchildren with it', async () => {
    const controller = new AbortController();
    const pending = runShell({ command: 'sleep 30 & echo child=$!; sleep 30', cwd, env, signal: controller.signal });
    await new Promise((r) => setTimeout(r, 300));
    const abortedAt = Date.now();
    controller.abort();
    const result = await pending;
    expect(Date.now() - abortedAt).toBeLessThan(1000);
    expect(result.aborted).toBe(true);
    expect(await waitUntilGone(grandchildPid(result.output))).toBe(true);
  });

  it('does not start at all when already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const result = await runShell({ command: `touch ${cwd}/should-not-exist`, cwd, env, signal: controller.signal });
    expect(result.aborted).toBe(true);
    expect(fs.existsSync(`${cwd}/should-not-exist`)).toBe(false);
  });

  it('stops background jobs left behind when the command ends', async () => {
    const result = await runShell({ command: 'sleep 30 & echo child=$!', cwd, env });
    expect(result.exitCode).toBe(0);
    expect(await waitUntilGone(grandchildPid(result.output))).toBe(true);
  });

  it('caps output at 100 KB, keeping head and tail, with a note', async () => {
    const result = await runShell({ command: 'echo FIRST; head -c 300000 /dev/zero | tr "\\0" x; echo; echo LAST', cwd, env });
    expect(result.truncated).toBe(true);
    expect(result.output.startsWith('FIRST\n')).toBe(true);
    expect(result.output.endsWith('LAST\n')).toBe(true);
    expect(result.output).toMatch(/\[\.\.\. \d+ bytes of output omitted; output is capped at 100 KB \.\.\.\]/);
    expect(Buffer.byteLength(result.output)).toBeLessThan(MAX_OUTPUT_BYTES + 200);
    // Where the note sits, so a person's screen can put its own words there instead.
    const { from, to, bytes } = result.omitted!;
    expect(result.output.slice(from, to)).toBe(`[... ${bytes} bytes of output omitted; output is capped at 100 KB ...]`);
    expect(bytes).toBeGreaterThan(190_000);
  });
});

describe('stripSecrets', () => {
  it('removes credential-like variables and named stored keys, keeping the rest', () => {
    const stripped = stripSecrets(
      { FOO_API_KEY: 'sk-secret', GITHUB_TOKEN: 'x', DB_PASSWORD: 'y', aws_secret_access_key: 'z', MY_PRIVATE_KEY: 'p', GCP_CREDENTIALS: 'c', DEEPSEEK: 'd', PATH: '/usr/bin', HOME: '/home/me' },
      ['deepseek'],
    );
    expect(stripped).toEqual({ PATH: '/usr/bin', HOME: '/home/me' });
  });

  it('keeps secrets out of the command environment', async () => {
    const parent = { ...process.env, FOO_API_KEY: 'sk-secret', GITHUB_TOKEN: 'x-token-value', DB_PASSWORD: 'y-password-value', FOLIO_VISIBLE: 'visible' };
    const result = await runShell({ command: 'env', cwd, env: stripSecrets(parent) });
    expect(result.output).toContain('FOLIO_VISIBLE=visible');
    expect(result.output).not.toContain('sk-secret');
    expect(result.output).not.toContain('FOO_API_KEY');
    expect(result.output).not.toContain('GITHUB_TOKEN');
    expect(result.output).not.toContain('x-token-value');
    expect(result.output).not.toContain('DB_PASSWORD');
    expect(result.output).not.toContain('y-password-value');
  });
});

describe('sandbox (bubblewrap)', () => {
  const status = sandboxStatus();
  const hasBwrap = status.active;
  if (!hasBwrap) console.warn(`sandbox tests skipped: bubblewrap unavailable (${status.reason})`);

  let data: string;
  let root: string;
  beforeAll(() => {
    // A stand-in for Folio's data folder: keys.json beside the tasks, another task's file beside ours.
    data = makeTempRoot('folio-data-');
    root = path.join(data, 'tasks', 'mine');
    fs.mkdirSync(root, { recursive: true });
    fs.mkdirSync(path.join(data, 'tasks', 'other'), { recursive: true });
    fs.writeFileSync(path.join(data, 'keys.json'), '{"openai":"sk-very-secret"}');
    fs.writeFileSync(path.join(data, 'tasks', 'other', 'notes.md'), 'other task secret');
    fs.writeFileSync(path.join(root, 'input.txt'), 'task input');
  });
  afterAll(() => removeTemp(data));

  const confine = (): { cwd: string; env: Record<string, string>; writableRoot: string; hiddenPaths: string[] } => ({ cwd: root, env, writableRoot: root, hiddenPaths: [data] });

  it.skipIf(!hasBwrap)('hides the data folder but keeps the task folder readable and writable', async () => {
    const result = await runShell({
      command: `cat ../../keys.json; cat ${data}/keys.json; cat ../other/notes.md; cat input.txt; echo made > out.txt; pwd`,
      ...confine(),
    });
    expect(result.output).not.toContain('sk-very-secret');
    expect(result.output).not.toContain('other task secret');
    expect(result.output).toContain('task input');
    expect(result.output).toContain(root);
    expect(fs.readFileSync(path.join(root, 'out.txt'), 'utf8')).toBe('made\n');
  });

  it.skipIf(!hasBwrap)('makes the rest of the file system read-only and /tmp private', async () => {
    const outside = makeTempRoot('folio-outside-');
    try {
      const result = await runShell({ command: `touch ${outside}/x; ls ${outside}`, ...confine() });
      expect(fs.existsSync(path.join(outside, 'x'))).toBe(false);
      expect(result.output).toMatch(/No such file|cannot access|Read-only/);
    } finally {
      removeTemp(outside);
    }
  });

  it.skipIf(!hasBwrap)('still kills everything it started on timeout and on abort', async () => {
    // Pids inside the sandbox's namespace mean nothing outside it: the children prove they died by
    // not writing their marker (setsid children: see sandbox/isolation.test.ts).
    const timed = await runShell({ command: `(sleep 1.5; touch timed-survived) & sleep 30`, ...confine(), timeoutMs: 500 });
    expect(timed.timedOut).toBe(true);
    expect(timed.durationMs).toBeLessThan(5000);

    const controller = new AbortController();
    const pending = runShell({ command: `(sleep 1.5; touch aborted-survived) & sleep 30`, ...confine(), signal: controller.signal });
    await new Promise((r) => setTimeout(r, 300));
    const abortedAt = Date.now();
    controller.abort();
    const aborted = await pending;
    expect(Date.now() - abortedAt).toBeLessThan(1000);
    expect(aborted.aborted).toBe(true);
    await new Promise((r) => setTimeout(r, 2000));
    expect(fs.existsSync(path.join(root, 'timed-survived'))).toBe(false);
    expect(fs.existsSync(path.join(root, 'aborted-survived'))).toBe(false);
  });

  it('is off when FOLIO_BWRAP=0, and says so', () => {
    const saved = process.env.FOLIO_BWRAP;
    process.env.FOLIO_BWRAP = '0';
    resetSandboxStatus();
    try {
      expect(sandboxStatus()).toEqual({ active: false, reason: 'sandbox disabled (FOLIO_BWRAP=0)' });
    } finally {
      if (saved === undefined) delete process.env.FOLIO_BWRAP;
      else process.env.FOLIO_BWRAP = saved;
      resetSandboxStatus();
    }
  });
});
