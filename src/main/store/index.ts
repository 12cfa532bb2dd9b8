// Folio's persistence: one SQLite file per data folder, exposed as synchronous repositories.
import type Database from 'better-sqlite3';
import { type Usage } from '../../shared/contract/entities';
import { type ApprovalsRepo, createApprovalsRepo, createGrantsRepo, type GrantsRepo } from './approvals-repo';
import { createFilesRepo, type FilesRepo } from './files-repo';
import { createMessagesRepo, type MessagesRepo } from './messages-repo';
import { backupIfDue } from './backups';
import { startCheckpoints } from './checkpoints';
import { openDatabase } from './open-database';
import { createRunsRepo, type RunsRepo } from './runs-repo';
import { createSettingsRepo, type SettingsRepo } from './settings-repo';
import { createTasksRepo, type TasksRepo } from './tasks-repo';
import { createProjectsRepo, type ProjectsRepo } from './projects-repo';
import { createLibraryRepo, type LibraryRepo } from './library-repo';

export type { ApprovalsRepo, GrantsRepo } from './approvals-repo';
export type { FilesRepo } from './files-repo';
export type { MessagePage, MessagePatch, MessagesRepo, NewMessage } from './messages-repo';
export type { FinishedRunStatus, RunsRepo } from './runs-repo';
export type { SettingsRepo } from './settings-repo';
export type { NewTask, TaskPatch, TasksRepo } from './tasks-repo';
export type { NewProject, ProjectPatch, ProjectsRepo } from './projects-repo';
export type { IndexedResult, LibraryFileRow, LibraryRepo, NewLibraryFile, PageText } from './library-repo';
export { latestSchemaVersion } from './migrations';
export { DatabaseCorruptError, DatabaseLockedError, type CorruptionKind } from './open-database';
export { listBackups, restoreNewestBackup, type BackupInfo, type RestoreResult } from './backups';

export interface TaskUsage extends Usage {
  task_id: string;
  title: string;
}

export interface UsageReport {
  total: Usage;
  /** Tasks with any usage, most expensive first. */
  tasks: TaskUsage[];
}

export interface Store {
  tasks: TasksRepo;
  messages: MessagesRepo;
  runs: RunsRepo;
  files: FilesRepo;
  approvals: ApprovalsRepo;
  grants: GrantsRepo;
  settings: SettingsRepo;
  projects: ProjectsRepo;
  library: LibraryRepo;
  usage(): UsageReport;
  /** Runs fn in one transaction (a savepoint when nested). fn must be synchronous. */
  transaction<T>(fn: () => T): T;
  close(): void;
  /** The raw connection, for tests and diagnostics. */
  db: Database.Database;
  /** `PRAGMA integrity_check` output: 'ok' when the file is sound. */
  integrityCheck(): string;
  /** Writes the daily backup (online, while the store stays usable) when the newest is a day old. */
  backupIfDue(): Promise<string | null>;
}

export interface StoreOptions {
  /** Clock for created/updated timestamps (ms epoch); tests pin it. */
  now?: () => number;
}

/**
 * Opens (creating and migrating as needed) the database at dbPath. Throws FolioError `schema_too_new`,
 * without modifying the file, when it was written by a newer Folio, and DatabaseCorruptError when the
 * file is damaged (see restoreNewestBackup).
 */
export function openStore(dbPath: string, options: StoreOptions = {}): Store {
  const now = options.now ?? Date.now;
  const db = openDatabase(dbPath, undefined, { now });
  const checkpoints = startCheckpoints(db);

  const usageTotal = db.prepare<[], Usage>(`
    SELECT COALESCE(SUM(prompt_tokens), 0) AS prompt_tokens, COALESCE(SUM(completion_tokens), 0) AS completion_tokens,
      COALESCE(SUM(cost), 0.0) AS cost
    FROM tasks`);
  const usageByTask = db.prepare<[], TaskUsage>(`
    SELECT id AS task_id, title, prompt_tokens, completion_tokens, cost FROM tasks
    WHERE prompt_tokens > 0 OR completion_tokens > 0 OR cost > 0
    ORDER BY cost DESC, prompt_tokens + completion_tokens DESC, id`);
  const integrity = db.prepare<[], string>('PRAGMA integrity_check').pluck();

  return {
    tasks: createTasksRepo(db, now),
    messages: createMessagesRepo(db, now),
    runs: createRunsRepo(db, now),
    files: createFilesRepo(db),
    approvals: createApprovalsRepo(db),
    grants: createGrantsRepo(db),
    settings: createSettingsRepo(db),
    projects: createProjectsRepo(db, now),
    library: createLibraryRepo(db, now),
    usage() {
      const total = usageTotal.get() ?? { prompt_tokens: 0, completion_tokens: 0, cost: 0 };
      return { total, tasks: usageByTask.all() };
    },
    transaction<T>(fn: () => T): T {
      return db.transaction(fn)();
    },
    close() {
      checkpoints.stop();
      if (db.open) db.close();
    },
    db,
    integrityCheck() {
      return integrity.all().join('\n');
    },
    backupIfDue() {
      return backupIfDue(db, dbPath, now());
    },
  };
}
