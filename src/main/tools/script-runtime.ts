// Which Node runs run_script's scripts. Under plain Node (web mode, the CLI) it is Folio's own
// executable. In the desktop app it cannot be: the packaged Electron binary has the RunAsNode fuse
// off (electron-builder.yml), so `ELECTRON_RUN_AS_NODE` no longer turns it into Node — and leaving
// that switch on would let anything that starts the app with the variable run code through it.
// There the script runs with the person's own `node` from PATH; without one, run_script says so.
import fs from 'node:fs';
import path from 'node:path';
import { ToolError } from './types';

export interface RuntimeHost {
  /** Set when Folio itself runs inside Electron. */
  electron?: string;
  execPath: string;
  pathEnv?: string;
  platform: NodeJS.Platform;
}

const currentHost = (): RuntimeHost => ({ electron: process.versions.electron, execPath: process.execPath, pathEnv: process.env.PATH, platform: process.platform });

function isExecutableFile(file: string): boolean {
  try {
    if (!fs.statSync(file).isFile()) return false;
    fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The first `node` on a PATH string, or null. */
export function findNodeOnPath(pathEnv: string | undefined, platform: NodeJS.Platform): string | null {
  const names = platform === 'win32' ? ['node.exe', 'node.cmd'] : ['node'];
  const separator = platform === 'win32' ? ';' : ':';
  for (const dir of (pathEnv ?? '').split(separator)) {
    if (dir === '' || !path.isAbsolute(dir)) continue;
    for (const name of names) {
      const file = path.join(dir, name);
      if (isExecutableFile(file)) return file;
    }
  }
  return null;
}

/** The executable to run scripts with; throws a ToolError (told to the model) when there is none. */
export function scriptRuntime(configured?: string, host: RuntimeHost = currentHost()): string {
  if (configured !== undefined) return configured;
  if (host.electron === undefined) return host.execPath;
  const node = findNodeOnPath(host.pathEnv, host.platform);
  if (node === null) {
    throw new ToolError('run_script needs Node.js (version 20 or newer) installed and on the PATH in the desktop app; none was found. Use the shell tool, or ask the person to install Node.js.');
  }
  return node;
}
