// shell and run_script hand their programs to the executor they are given (one chosen in
// sandbox/select-executor.ts in production): what they ask it for, and how its failures reach the model.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExecutorError, type Executor, type ExecOptions, type ExecResult } from '../sandbox/executor';
import { createRunScriptTool } from './run-script';
import { createShellTool } from './shell/tool';
import { contextFor, makeTempRoot, removeTemp } from './testing';
import type { NetworkSwitch } from './types';

interface Call {
  argv: readonly string[];
  options: ExecOptions;
}

function stubExecutor(shape: { hostFilesystem: boolean; active?: boolean; fail?: string }): Executor & { calls: Call[] } {
  const calls: Call[] = [];
  const ok: ExecResult = { output: 'ran\n', truncated: false, exitCode: 0, signal: null, durationMs: 5, timedOut: false, aborted: false };
  return {
    kind: 'container',
    hostFilesystem: shape.hostFilesystem,
    shownRoot: (root) => (shape.hostFilesystem ? root : '/workspace'),
    calls,
    status: () => ({ active: shape.active ?? true, reason: 'stub' }),
    note: () => 'Runs in the stub.',
    run: async (argv, options) => {
      calls.push({ argv, options });
      if (shape.fail) throw new ExecutorError(shape.fail);
      return ok;
    },
    release: async () => undefined,
    close: async () => undefined,
  };
}

const networkOn: NetworkSwitch = { allowed: () => Promise.resolve(true), allow: () => Promise.resolve() };

let root: string;
beforeAll(() => {
  root = makeTempRoot('folio-wiring-');
});
afterAll(() => removeTemp(root));

describe('shell through an executor', () => {
  it('passes the command as argv, the task, its folder, a clean environment and the network policy', async () => {
    const executor = stubExecutor({ hostFilesystem: false });
    const tool = createShellTool({ executor, baseEnv: () => ({ PATH: '/usr/bin', OPENAI_API_KEY: 'sk-x' }) });
    const result = await tool.execute({ command: 'echo "$HOME"' }, contextFor(root));
    expect(result.content).toMatch(/^ran\n\[exit code 0/u);
    const [call] = executor.calls;
    expect(call?.argv.at(-1)).toBe('echo "$HOME"');
    expect(call?.options).toMatchObject({ taskId: 'task-1', root, cwd: root, network: 'none', readOnlyPaths: [path.join(root, 'source')] });
    expect(call?.options.env.OPENAI_API_KEY).toBeUndefined();
    expect(call?.options.env.HOME).toBe('/tmp/home');
    await tool.execute({ command: 'ls' }, { ...contextFor(root), network: networkOn });
    expect(executor.calls[1]?.options.network).toBe('open');
    expect(tool.description).toContain('Runs in the stub.');
  });

  it('returns an executor that cannot run as a tool error the model reads', async () => {
    const tool = createShellTool({ executor: stubExecutor({ hostFilesystem: false, fail: 'Cannot run programs: no container runtime' }) });
    await expect(tool.execute({ command: 'ls' }, contextFor(root))).rejects.toMatchObject({ name: 'ToolError', message: /no container runtime/u });
  });
});

describe('run_script through an executor', () => {
  it("uses the image's node and mounts Folio's package folder where the executor has its own file system", async () => {
    const executor = stubExecutor({ hostFilesystem: false });
    const tool = createRunScriptTool({ executor, moduleRoot: '/opt/folio' });
    await tool.execute({ code: 'console.log(1)' }, contextFor(root));
    const [call] = executor.calls;
    expect(call?.argv[0]).toBe('node');
    expect(call?.options.readOnlyPaths).toEqual([path.join(root, 'source'), '/opt/folio']);
    expect(call?.options.network).toBe('none');
  });

  it("uses this machine's node where the executor shares its file system", async () => {
    const executor = stubExecutor({ hostFilesystem: true });
    const tool = createRunScriptTool({ executor, moduleRoot: '/opt/folio', nodePath: process.execPath });
    await tool.execute({ code: 'console.log(1)' }, { ...contextFor(root), network: networkOn });
    const [call] = executor.calls;
    expect(call?.argv[0]).toBe(process.execPath);
    expect(call?.options.readOnlyPaths).toEqual([path.join(root, 'source')]);
    expect(call?.options.network).toBe('open');
  });
});
