// `folio` run as a person runs it: a child process on the TypeScript entry, in English unless `env`
// names another locale (messages follow LC_ALL, LC_MESSAGES, LANG).
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findResourcesDir } from '../config/app-paths';
import { openStore } from '../store';

export const root = findResourcesDir();

export function folio(args: string[], env: NodeJS.ProcessEnv = {}) {
  return spawnSync(process.execPath, ['--import', 'tsx', join(root, 'src/main/cli/main.ts'), ...args], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, LC_ALL: 'en_US.UTF-8', ...env },
    timeout: 60_000,
  });
}

/** `folio` as a child that does not block this process (a fake server here must answer it). */
export function folioAsync(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'src/main/cli/main.ts'), ...args], {
    cwd: root,
    env: { ...process.env, LC_ALL: 'en_US.UTF-8', ...env },
    timeout: 60_000,
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/**
 * `folio serve --port 0` until its standard error satisfies `done`, then stopped: what it printed.
 * Rejects with what it printed if it exits first or `done` is not met within the time allowed.
 */
export function serveUntil(env: NodeJS.ProcessEnv, done: (stderr: string) => boolean, timeoutMs = 45_000): Promise<{ stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'src/main/cli/main.ts'), 'serve', '--port', '0'], { cwd: root, env: { ...process.env, LC_ALL: 'en_US.UTF-8', ...env } });
  let stdout = '';
  let stderr = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`folio serve did not print what was awaited in ${timeoutMs} ms:\n${stdout}\n${stderr}`));
    }, timeoutMs);
    const check = () => {
      if (!done(stderr)) return;
      clearTimeout(timer);
      child.once('close', () => resolve({ stdout, stderr }));
      child.kill('SIGTERM');
    };
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
      check();
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      if (!done(stderr)) reject(new Error(`folio serve exited (${code}) before printing what was awaited:\n${stdout}\n${stderr}`));
    });
  });
}

/** A data folder whose database was emptied after a task was saved and backed up. */
export async function damagedDataFolder(): Promise<string> {
  const dataDir = mkdtempSync(join(tmpdir(), 'folio-cli-db-'));
  const dbPath = join(dataDir, 'folio.db');
  const store = openStore(dbPath);
  store.tasks.create({ id: 't_saved', mode: 'general', title: 'Saved task', description: '', model: null });
  store.tasks.markMaterialized('t_saved');
  await store.backupIfDue();
  store.close();
  truncateSync(dbPath, 0);
  return dataDir;
}
