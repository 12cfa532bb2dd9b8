// Runs a short probe program to its end as a child process, without holding the event loop: the
// answer spawnSync would give (exit status, stdout, stderr, or what kept it from running), for
// probes that may run in the background while the process serves requests.
import { execFile } from 'node:child_process';

export interface ProbeRun {
  /** Set when the program could not run to its end: not found, not startable, or timed out. */
  error?: Error;
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export function runProbe(file: string, args: readonly string[], opts: { timeoutMs: number; env: NodeJS.ProcessEnv }): Promise<ProbeRun> {
  return new Promise((resolve) => {
    execFile(file, args, { encoding: 'utf8', timeout: opts.timeoutMs, env: opts.env, windowsHide: true }, (error, stdout, stderr) => {
      if (!error) return resolve({ status: 0, signal: null, stdout, stderr });
      const { code, killed, signal } = error as NodeJS.ErrnoException & { killed?: boolean; signal?: NodeJS.Signals | null };
      if (typeof code === 'number') return resolve({ status: code, signal: null, stdout, stderr });
      if (killed) return resolve({ error: new Error(`timed out after ${opts.timeoutMs} ms`), status: null, signal: signal ?? null, stdout, stderr });
      if (signal) return resolve({ status: null, signal, stdout, stderr });
      resolve({ error, status: null, signal: null, stdout, stderr });
    });
  });
}
