// Child processes for e2e: start with captured output, wait for a line or a URL, stop by pid.
import { type ChildProcess, spawn } from 'node:child_process';

export { freePort } from '../../testing/http-helpers';

export const repoRoot = new URL('../../', import.meta.url).pathname;

export interface Started {
  child: ChildProcess;
  /** Everything the process printed so far, for error messages. */
  output: () => string;
}

export function startProcess(command: string, args: string[], env: NodeJS.ProcessEnv): Started {
  const child = spawn(command, args, { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const append = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-20_000);
  };
  child.stdout?.on('data', append);
  child.stderr?.on('data', append);
  return { child, output: () => output };
}

export function waitForLine(started: Started, pattern: RegExp, timeoutMs: number, what: string): Promise<RegExpMatchArray> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const match = started.output().match(pattern);
      if (match) {
        cleanup();
        resolve(match);
      }
    };
    const onExit = (code: number | null) => {
      cleanup();
      reject(new Error(`${what} exited (code ${code}) before it was ready. Output:\n${started.output()}`));
    };
    const timer = setTimeout(() => {
      cleanup();
      reject(new Error(`${what} did not become ready within ${timeoutMs} ms. Output:\n${started.output()}`));
    }, timeoutMs);
    const cleanup = () => {
      clearTimeout(timer);
      started.child.stdout?.off('data', check);
      started.child.off('exit', onExit);
    };
    started.child.stdout?.on('data', check);
    started.child.once('exit', onExit);
    check();
  });
}

export async function stopProcess(child: ChildProcess, timeoutMs = 5000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  await exited;
  clearTimeout(timer);
}


export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
