// Where tasks' files live: "files live under `<storage_root>/tenants/<tenant>/tasks/<task>/`"
// in the service, and under `<data>/tasks/<task>/` on the desktop, behind one interface so a second
// implementation (S3-compatible) can follow. Only the local disk exists today; a shared mount makes
// it work for many workers. Ids become folder names, so each is checked before any path is built.
import { lstat, mkdir, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Id } from '../../shared/contract/entities';
import { PathEscapeError } from '../../shared/errors';
import { TASK_SUBFOLDERS, taskDir as desktopTaskDir } from './layout';

/** The part of a request's scope storage needs (the store's `Scope` fits). */
export interface StorageScope {
  tenant_id: string;
}

export interface TaskStorage {
  /** The task's folder; nothing is created. */
  taskDir(scope: StorageScope, taskId: string): string;
  /** Creates the folder and its `source/`, `work/`, `artifacts/`; returns the folder. */
  ensureTaskDir(scope: StorageScope, taskId: string): Promise<string>;
  removeTaskDir(scope: StorageScope, taskId: string): Promise<void>;
  /** Bytes of every file the tenant has (links are counted as links, never followed). */
  usedBytes(scope: StorageScope): Promise<number>;
}

export const DESKTOP_TENANT = 'local';

/** One path segment that cannot leave its parent: no separators, no dots, nothing empty. */
function segment(kind: 'tenant' | 'task', value: string): string {
  if (!Id.safeParse(value).success) throw new PathEscapeError(`Invalid ${kind} id for a folder name`);
  return value;
}

/**
 * A tenant's folder in the service, `<root>/tenants/<tenant>/`: its data folder (profiles, keys,
 * skills), under which the desktop's layout (`layout.ts`) puts tasks at `tasks/<task>/`.
 */
export function tenantDataDir(root: string, tenantId: string): string {
  if (!root.startsWith('/')) throw new Error('The storage root must be an absolute path');
  return join(root, 'tenants', segment('tenant', tenantId));
}

/** `<root>/tenants/<tenant>/tasks/<task>/`: the service's layout, one tree per tenant. */
export function createLocalDiskStorage(root: string): TaskStorage {
  if (!root.startsWith('/')) throw new Error('The storage root must be an absolute path');
  const tenantDir = (scope: StorageScope) => tenantDataDir(root, scope.tenant_id);
  const taskDir = (scope: StorageScope, taskId: string) => desktopTaskDir(tenantDir(scope), segment('task', taskId));
  return {
    taskDir,
    ensureTaskDir: (scope, taskId) => ensureWithSubfolders(taskDir(scope, taskId)),
    removeTaskDir: (scope, taskId) => rm(taskDir(scope, taskId), { recursive: true, force: true }),
    usedBytes: (scope) => treeBytes(tenantDir(scope)),
  };
}

/** The desktop's layout as it is today (`layout.ts`): one tenant, `local`, at `<data>/tasks/<task>/`. */
export function createDesktopStorage(dataDir: string): TaskStorage {
  const local = (scope: StorageScope) => {
    if (scope.tenant_id !== DESKTOP_TENANT) throw new PathEscapeError('The desktop has only the local tenant');
  };
  const taskDir = (scope: StorageScope, taskId: string) => {
    local(scope);
    return desktopTaskDir(dataDir, segment('task', taskId));
  };
  return {
    taskDir,
    ensureTaskDir: (scope, taskId) => ensureWithSubfolders(taskDir(scope, taskId)),
    removeTaskDir: (scope, taskId) => rm(taskDir(scope, taskId), { recursive: true, force: true }),
    usedBytes: (scope) => {
      local(scope);
      return treeBytes(join(dataDir, 'tasks'));
    },
  };
}

async function ensureWithSubfolders(dir: string): Promise<string> {
  for (const sub of Object.values(TASK_SUBFOLDERS)) await mkdir(join(dir, sub), { recursive: true });
  return dir;
}

async function treeBytes(dir: string): Promise<number> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw err;
  }
  let total = 0;
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) total += await treeBytes(path);
    else total += (await lstat(path).catch(() => ({ size: 0 }))).size;
  }
  return total;
}
