// The store as the service, runs and tools see it: every repository method returns a
// promise, so the same callers run on SQLite (the desktop default, answered synchronously inside)
// and on PostgreSQL (the team service). The repository interfaces in this folder stay the one
// statement of what each method does; this file only lifts them to async.
import type { ApprovalsRepo, FilesRepo, GrantsRepo, LibraryRepo, MessagesRepo, ProjectsRepo, RunsRepo, SettingsRepo, TasksRepo, UsageReport } from './index';

/** A repository with every method returning a promise of what the synchronous one returns. */
export type AsyncRepo<R> = {
  [K in keyof R]: R[K] extends (...args: infer A) => infer T ? (...args: A) => Promise<Awaited<T>> : R[K];
};

/** Who is asking, in service mode; the desktop has one tenant and one user, both `local`. */
export interface Scope {
  tenant_id: string;
  user_id: string;
}

export const LOCAL_SCOPE: Scope = { tenant_id: 'local', user_id: 'local' };

export interface StorePort {
  readonly dialect: 'sqlite' | 'postgres';
  readonly scope: Scope;
  tasks: AsyncRepo<TasksRepo>;
  messages: AsyncRepo<MessagesRepo>;
  runs: AsyncRepo<RunsRepo>;
  files: AsyncRepo<FilesRepo>;
  approvals: AsyncRepo<ApprovalsRepo>;
  grants: AsyncRepo<GrantsRepo>;
  settings: AsyncRepo<SettingsRepo>;
  projects: AsyncRepo<ProjectsRepo>;
  library: AsyncRepo<LibraryRepo>;
  usage(): Promise<UsageReport>;
  /**
   * Runs fn in one transaction and resolves with its result; `tx` is the store bound to that
   * transaction (use it, not the outer store, inside fn). A throw rolls everything back.
   */
  transaction<T>(fn: (tx: StorePort) => Promise<T>): Promise<T>;
  /**
   * Inside a transaction: waits for, then holds until it ends, a lock named `purpose` shared by every
   * worker on this scope's tenant (PostgreSQL: an advisory lock). SQLite runs one transaction at a
   * time anyway, so there it returns at once.
   */
  lockTenant(purpose: string): Promise<void>;
}

/** A port and how to close what it opened (the SQLite file, the PostgreSQL pool). */
export interface OpenedStorePort {
  port: StorePort;
  close(): Promise<void>;
}
