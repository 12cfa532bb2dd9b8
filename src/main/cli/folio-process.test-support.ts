// `folio` run as a person runs it: a child process on the TypeScript entry, in English unless `env`
// names another locale (messages follow LC_ALL, LC_MESSAGES, LANG).
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { findResourcesDir } from '../config/app-paths';

export const root = findResourcesDir();

export function folio(args: string[], env: NodeJS.ProcessEnv = {}) {
  return spawnSync(process.execPath, ['--import', 'tsx', join(root, 'src/main/cli/main.ts'), ...args], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, LC_ALL: 'en_US.UTF-8', ...env },
    timeout: 60_000,
  });
}
