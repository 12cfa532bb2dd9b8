// What makes a core one of the team service's: shared run leases and quotas, and the policies its
// handlers answer with. The desktop core has none of this.
import type { RunCluster, RunHooks } from '../runs/run-cluster';
import type { TeamQuotas } from '../quotas/team-quotas';
import type { StorePort } from '../store/port';
import type { OutboundAudit, OutboundSink } from '../net/outbound-audit';
import type { RunAssemblyDeps } from '../assembly/assemble-run';
import { estimateCost } from '../llm/openai-chat-model';
import type { HandlerPolicy } from './policies/policy';
import { storageQuotaPolicy } from './policies/storage-quota';
import { teamRulesPolicy } from './policies/team-rules';
import { tenantUsagePolicy } from './policies/tenant-usage';
import { createTaskStorage, type TaskStorageGate } from './task-storage';

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
   * Where the requests leaving the service (model, web_fetch, MCP, embeddings) are reported: this
   * worker's audit rows and metrics. Each request, run and background job hands it who to charge.
   */
  outbound?: OutboundSink;
  /** This worker's metrics of model calls. */
  metrics?: { modelCall(provider: string, promptTokens: number, completionTokens: number, seconds: number): void };
}

export function teamRunHooks(team: TeamCoreOptions, store: StorePort): RunHooks {
  return {
    cluster: team.cluster,
    beforeStart: () => team.quotas.guard.beforeRunStart(store.scope),
    onUsage: ({ taskId, runId }, usage) => team.quotas.ledger.record(store.scope, { kind: 'tokens', task_id: taskId, run_id: runId, ...usage }),
  };
}

/** The team core's storage charges for what tasks hold, the agent's files included (task-storage.ts). */
export function teamTaskStorage(team: TeamCoreOptions, store: StorePort, dataDir: string): TaskStorageGate & { reconcile(taskId: string): Promise<void> } {
  return createTaskStorage({ scope: store.scope, dataDir, ledger: team.quotas.ledger, limits: team.quotas.limits });
}

/** What a team core checks and counts around each model call: the quotas before, the metrics after. */
export function teamModelHooks(team: TeamCoreOptions, store: StorePort): Pick<RunAssemblyDeps, 'beforeModelCall' | 'afterModelCall'> {
  return {
    beforeModelCall: (profile) => team.quotas.guard.beforeModelCall(store.scope, { platform: profile.source === 'operator', ...(profile.price.currency ? { currency: profile.price.currency } : {}) }),
    afterModelCall: async (profile, usage, seconds, run) => {
      team.metrics?.modelCall(profile.provider, usage.promptTokens, usage.completionTokens, seconds);
      // The operator pays for its models: what the call cost is the tenant's use of its money budget.
      if (profile.source !== 'operator') return;
      const platformCost = estimateCost(profile, usage);
      if (platformCost <= 0) return;
      // Awaited, so the run's next call is checked against it; a failed write costs a count, not the call.
      await team.quotas.ledger
        .record(store.scope, { kind: 'tokens', task_id: run.taskId, run_id: run.runId, prompt_tokens: 0, completion_tokens: 0, cost: 0, platform_cost: platformCost })
        .catch((err: unknown) => console.warn(`[folio] platform cost not recorded: ${err instanceof Error ? err.message : String(err)}`));
    },
  };
}

/** Who the scope's work is charged to (its task and run when a run makes it; neither for a request or background work); null: nothing is counted. */
export function scopeAudit(team: TeamCoreOptions | undefined, store: StorePort, work: { taskId: string; runId: string } | null): OutboundAudit | null {
  if (!team?.outbound) return null;
  return { sink: team.outbound, owner: { tenant_id: store.scope.tenant_id, user_id: store.scope.user_id, task_id: work?.taskId ?? null, run_id: work?.runId ?? null } };
}

/**
 * The policies over a core's handlers, innermost first: the team's quotas and usage, then its rules
 * (last, so they also cover what the quotas answer). `teamRules` without `team`: `folio serve
 * --multi-tenant` without a database follows the rules but keeps no ledger.
 */
export function corePolicies(o: { store: StorePort; team?: TeamCoreOptions; teamRules: boolean; dataDir: string; resourcesDir: string }): HandlerPolicy[] {
  const policies: HandlerPolicy[] = [];
  if (o.team) policies.push(tenantUsagePolicy(o.store, o.team.quotas), storageQuotaPolicy(o.store, o.team.quotas, teamTaskStorage(o.team, o.store, o.dataDir)));
  if (o.team || o.teamRules) policies.push(teamRulesPolicy({ dataDir: o.dataDir, resourcesDir: o.resourcesDir, outerDirs: o.team?.hiddenPaths ?? [] }));
  return policies;
}
