// What makes a core one of the team service's: shared run leases and quotas, and the policies its
// handlers answer with. The desktop core has none of this.
import type { RunCluster, RunHooks } from '../runs/run-cluster';
import type { TeamQuotas } from '../quotas/team-quotas';
import type { StorePort } from '../store/port';
import type { RunAssemblyDeps } from '../assembly/assemble-run';
import type { HandlerPolicy } from './policies/policy';
import { storageQuotaPolicy } from './policies/storage-quota';
import { teamRulesPolicy } from './policies/team-rules';
import { tenantUsagePolicy } from './policies/tenant-usage';

/** Whose work a request leaving the service is: the scope, and the task and run when a run makes it. */
export interface WorkOwner {
  tenant_id: string;
  user_id: string;
  task_id: string | null;
  run_id: string | null;
}

/**
 * What a core of the team service shares with the other workers. Such a core never takes the data
 * folder's lock nor sweeps runs at start (other workers' runs are live): the cluster's leases decide
 * which runs died.
 */
export interface TeamCoreOptions {
  cluster: RunCluster;
  quotas: TeamQuotas;
  /** Folders no command may see besides the tenant's: the storage root holds every tenant. */
  hiddenPaths: string[];
  /**
   * Runs `fn` with the requests it makes leaving the service (model, web_fetch, MCP, embeddings)
   * charged to `owner` in this worker's audit rows and metrics.
   */
  chargeTo?: <T>(owner: WorkOwner, fn: () => T) => T;
  /** This worker's metrics of model calls. */
  metrics?: { modelCall(provider: string, promptTokens: number, completionTokens: number, seconds: number): void };
}

export function teamRunHooks(team: TeamCoreOptions, store: StorePort): RunHooks {
  return {
    cluster: team.cluster,
    beforeStart: () => team.quotas.guard.beforeRunStart(store.scope),
    // A run's requests are charged to its task and run, whichever request started it.
    around: ({ taskId, runId }, drive) => (team.chargeTo ? team.chargeTo({ tenant_id: store.scope.tenant_id, user_id: store.scope.user_id, task_id: taskId, run_id: runId }, drive) : drive()),
    onUsage: ({ taskId, runId }, usage) => team.quotas.ledger.record(store.scope, { kind: 'tokens', task_id: taskId, run_id: runId, ...usage }),
  };
}

/** What a team core checks and counts around each model call: the quotas before, the metrics after. */
export function teamModelHooks(team: TeamCoreOptions, store: StorePort): Pick<RunAssemblyDeps, 'beforeModelCall' | 'afterModelCall'> {
  return {
    beforeModelCall: () => team.quotas.guard.beforeModelCall(store.scope),
    afterModelCall: (profile, usage, seconds) => team.metrics?.modelCall(profile.provider, usage.promptTokens, usage.completionTokens, seconds),
  };
}

/** Runs background work of the scope (indexing, embedding) with its requests charged to the scope, no task. */
export function teamBackground(team: TeamCoreOptions, store: StorePort): <T>(fn: () => T) => T {
  const owner: WorkOwner = { tenant_id: store.scope.tenant_id, user_id: store.scope.user_id, task_id: null, run_id: null };
  return (fn) => (team.chargeTo ? team.chargeTo(owner, fn) : fn());
}

/**
 * The policies over a core's handlers, innermost first: the team's quotas and usage, then its rules
 * (last, so they also cover what the quotas answer). `teamRules` without `team`: `folio serve
 * --multi-tenant` without a database follows the rules but keeps no ledger.
 */
export function corePolicies(o: { store: StorePort; team?: TeamCoreOptions; teamRules: boolean; dataDir: string; resourcesDir: string }): HandlerPolicy[] {
  const policies: HandlerPolicy[] = [];
  if (o.team) policies.push(tenantUsagePolicy(o.store, o.team.quotas), storageQuotaPolicy(o.store, o.team.quotas));
  if (o.team || o.teamRules) policies.push(teamRulesPolicy({ dataDir: o.dataDir, resourcesDir: o.resourcesDir, outerDirs: o.team?.hiddenPaths ?? [] }));
  return policies;
}
