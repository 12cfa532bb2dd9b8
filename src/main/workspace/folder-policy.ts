// Which folders a coding task may work in. The agent reads, edits and runs commands in that folder,
// so a token holder (or a careless click) must not point it at the system, the whole home folder,
// key stores, or Folio's own data (keys, database, other tasks). Checked on the real path, with
// symlinks resolved, so a link to /etc is /etc.
import { realpathSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { FolioError } from '../../shared/errors';

export class WorkspaceRefusedError extends FolioError {
  constructor(
    readonly folder: string,
    reason: string,
  ) {
    super('workspace_refused', `Folio will not work in ${folder}: ${reason}. Choose a project folder.`, { name: 'WorkspaceRefusedError' });
  }
}

/** System trees: the folder and everything inside it. */
const SYSTEM_TREES_POSIX = ['/etc', '/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32', '/proc', '/sys', '/dev', '/boot', '/run', '/var/lib', '/var/log', '/var/run', '/var/spool', '/var/db', '/var/cache', '/var/mail', '/System', '/Library', '/private/etc', '/private/var/db'];
/** Folders that hold projects but are not one: refused themselves, not what is inside. */
const SYSTEM_ROOTS_POSIX = ['/var', '/opt', '/srv', '/home', '/Users', '/root', '/private', '/private/var', '/mnt', '/media', '/tmp', '/Volumes'];
const SYSTEM_TREES_WIN = ['C:\\Windows', 'C:\\Program Files', 'C:\\Program Files (x86)', 'C:\\ProgramData'];
const SYSTEM_ROOTS_WIN = ['C:\\Users'];
/** Credential stores in the home folder: the folder and everything inside it. */
const SECRET_TREES = ['.ssh', '.gnupg', '.aws', '.kube', '.docker', '.password-store'];
/** Settings folders of every program: refused as a whole (a project kept inside one is allowed). */
const SETTINGS_ROOTS = ['.config'];

export interface FolderPolicy {
  home: string;
  dataDir: string;
  platform: NodeJS.Platform;
}

/** Why `real` (an absolute path with links resolved) cannot be a project folder; null when it can. */
export function workspaceRefusal(real: string, policy: FolderPolicy): string | null {
  const win = policy.platform === 'win32';
  const p = win ? path.win32 : path.posix;
  const key = (x: string) => {
    const normal = p.resolve(x);
    return win ? normal.toLowerCase() : normal;
  };
  const folder = key(real);
  const same = (other: string) => folder === key(other);
  const within = (other: string) => {
    const rel = p.relative(key(other), folder);
    return rel === '' || (!rel.startsWith('..') && !p.isAbsolute(rel));
  };
  const contains = (other: string) => {
    const rel = p.relative(folder, key(other));
    return rel !== '' && !rel.startsWith('..') && !p.isAbsolute(rel);
  };

  if (folder === p.parse(folder).root) return 'it is the root of the disk';
  if ((win ? SYSTEM_TREES_WIN : SYSTEM_TREES_POSIX).some(within)) return 'it is a system folder';
  if ((win ? SYSTEM_ROOTS_WIN : SYSTEM_ROOTS_POSIX).some(same)) return 'it is a system folder';
  if (same(policy.home)) return 'it is your whole home folder';
  if (within(policy.dataDir)) return "it is Folio's data folder (keys, database, other tasks)";
  if (contains(policy.dataDir)) return "it contains Folio's data folder (keys, database, other tasks)";
  if (contains(policy.home)) return 'it contains your home folder';
  if (SECRET_TREES.some((name) => within(p.join(policy.home, name)))) return 'it holds keys or credentials';
  if (SETTINGS_ROOTS.some((name) => same(p.join(policy.home, name)))) return 'it holds the settings of every program';
  return null;
}

function realOrSelf(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}

/**
 * The real path of a folder the person chose for a coding task; throws `invalid_input` when it is
 * not an existing absolute folder and WorkspaceRefusedError when it is one Folio will not work in.
 */
export function checkWorkspaceFolder(chosen: string, dataDir: string, home = homedir()): string {
  if (!path.isAbsolute(chosen)) throw new FolioError('invalid_input', `The project folder must be an absolute path: ${chosen}`);
  let real: string;
  try {
    real = realpathSync(chosen);
    if (!statSync(real).isDirectory()) throw new Error('not a folder');
  } catch {
    throw new FolioError('invalid_input', `No such folder: ${chosen}`);
  }
  const why = workspaceRefusal(real, { home: realOrSelf(home), dataDir: realOrSelf(dataDir), platform: process.platform });
  if (why !== null) throw new WorkspaceRefusedError(real, why);
  return real;
}
