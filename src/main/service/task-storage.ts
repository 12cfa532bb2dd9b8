// The team service's storage quota counts what the agent writes, not only uploads. A task is charged
// what its folder holds: after each call that may write there (a file tool, a command, a script) the
// folder is measured and the difference from what the task was charged so far is charged (or freed),
// whoever put the bytes there. So a file written and deleted between two measures costs nothing, a
// task folder emptied by a command frees its bytes, and the ledger follows the disk without
// per-tool bookkeeping. Extraction caches are Folio's own and are not charged.
import { lstatSync, readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { QuotaLimitsSource } from '../quotas/limits';
import { formatCount } from '../quotas/quota-guard';
import type { UsageLedger } from '../quotas/usage-ledger';
import { isCacheFile } from '../sources';
import type { Scope } from '../store/port';
import { taskDir } from '../workspace/layout';

/** What a run asks before and after a call that may write in the task folder; a message is the call's error. */
export interface TaskStorageGate {
  beforeWrite(taskId: string): Promise<string | null>;
  afterWrite(taskId: string): Promise<string | null>;
}

/** Bytes of every file in the task folder but the extraction caches (hidden files included: they take space too). */
export function taskFolderBytes(root: string, dir = root): number {
  let bytes = 0;
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const entry of entries) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) bytes += taskFolderBytes(root, full);
    else if (entry.isFile() && !isCacheFile(relative(root, full).split(sep).join('/'))) {
      try {
        bytes += lstatSync(full).size;
      } catch {
        // removed while we counted
      }
    }
  }
  return bytes;
}

export interface TaskStorageOptions {
  scope: Scope;
  dataDir: string;
  ledger: UsageLedger;
  limits: QuotaLimitsSource;
}

export function createTaskStorage({ scope, dataDir, ledger, limits }: TaskStorageOptions): TaskStorageGate & { reconcile(taskId: string): Promise<void> } {
  const tenant = scope.tenant_id;

  /** Charges the task the difference between its folder and its charges; a message when that passed the quota. */
  async function reconcile(taskId: string): Promise<string | null> {
    const delta = taskFolderBytes(taskDir(dataDir, taskId)) - (await ledger.taskStoredBytes(tenant, taskId));
    if (delta === 0) return null;
    if (delta < 0) {
      await ledger.record(scope, { kind: 'storage', task_id: taskId, bytes: delta });
      return null;
    }
    const limit = (await limits.limitsFor(tenant)).storage_bytes;
    const charged = await ledger.chargeStorage(scope, { task_id: taskId, bytes: delta }, limit);
    if (charged.charged) return null;
    // The bytes are on disk already: they are charged all the same, and the model is told.
    await ledger.record(scope, { kind: 'storage', task_id: taskId, bytes: delta });
    return (
      `Storage quota: the files this call wrote (${formatCount(delta)} bytes) bring tenant ${tenant} to ${formatCount(charged.stored + delta)} of ${formatCount(limit ?? 0)} bytes. ` +
      'They were kept, but nothing more can be written until files are deleted: tell the person, and do not retry.'
    );
  }

  return {
    // The tenant's level decides, whichever task asks.
    async beforeWrite() {
      const limit = (await limits.limitsFor(tenant)).storage_bytes;
      if (limit === null) return null;
      const stored = await ledger.storedBytes(tenant);
      if (stored < limit) return null;
      return `Storage quota: ${formatCount(stored)} of ${formatCount(limit)} bytes used (tenant ${tenant}), so this call was not run: it could write files. Tell the person to delete files (or ask the operator for more), and do not retry.`;
    },
    afterWrite: reconcile,
    async reconcile(taskId) {
      await reconcile(taskId);
    },
  };
}
