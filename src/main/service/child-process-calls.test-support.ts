// node:child_process for vi.mock, with the programs started recorded by name: in the background
// (execFile) or holding the event loop (spawnSync). Tests check that a probe runs where it should.
import type * as childProcess from 'node:child_process';
import { basename } from 'node:path';

export interface ChildProcessCalls {
  background: string[];
  blocking: string[];
}

type AnyFunction = (...args: unknown[]) => unknown;

export function recordingChildProcess(actual: typeof childProcess, calls: ChildProcessCalls): typeof childProcess {
  return {
    ...actual,
    execFile: ((command: string, ...rest: unknown[]) => {
      calls.background.push(basename(command));
      return (actual.execFile as AnyFunction)(command, ...rest);
    }) as typeof actual.execFile,
    spawnSync: ((command: string, ...rest: unknown[]) => {
      calls.blocking.push(basename(command));
      return (actual.spawnSync as AnyFunction)(command, ...rest);
    }) as typeof actual.spawnSync,
  };
}
