// The team service's core, as `folio serve --multi-tenant` needs it: a core per request scope, the
// tenant registry, the readiness check and the hooks of a graceful shutdown.
//
// With a database (PostgreSQL) every worker of the service opens the same database and storage
// root: each (tenant, user) gets a core whose store is scoped to it, whose data folder is
// `<storage root>/tenants/<tenant>/` (so task files are under `…/tasks/<task>/`), and whose runs
// take a lease, write their events to the shared log and obey the cluster's control messages.
// Without a database each tenant gets its own SQLite core under `<storage root or data folder>/
// tenants/<tenant>/` (one worker only): isolated, but every user of a tenant sees its tasks.
import { resolve } from 'node:path';
import { tenantDataDir } from '../workspace/storage';
import { createCore, type Core } from '../service/create-core';
import type { CoreResolver, TenancyOptions } from '../transport/http';
import { type Logger, type RateLimiter, type RequestQuotaSource, type TenantGate, createPgTenantGate, createSharedRateLimiter, type ServiceConfig, type TenantRegistry, createMemoryTenantRegistry, createPgTenantRegistry, databaseAnswers } from '../tenancy';
import { openPgStore } from '../store/postgres';
import { closeDefaultExecutor, requireIsolation } from '../sandbox/select-executor';
import { hideFromEverySandbox } from '../sandbox/sandbox';
import { sweepScratch, useScratchRoot } from '../workspace/scratch';
import { operatorAllowsAddress, restrictOutbound } from '../net/outbound';
import { addressRefusal } from '../net/address-policy';
import type { Scope } from '../store/port';
import { startClusterWorker, type ClusterWorker } from '../cluster/worker';
import { loadRunCode } from '../service/run-warm-up';
import { leasedRunCounter } from '../cluster/leases';
import type { Decision, RunHost } from '../cluster/host';
import { createTeamQuotas } from '../quotas/team-quotas';
import { ScopeCores } from './scope-cores';
import { RETENTION_INTERVAL_MS, runRetention } from './retention';
import { auditRoute, auditWriter, requestOwner } from '../tenancy/audit-log';
import { broughtKeys } from '../tenancy/byo-keys';
import type { OutboundSink } from '../net/outbound-audit';
import { createServiceMetrics, type ServiceMetrics } from '../metrics/service-metrics';
import { createTenantKeyStore, tenantStoredKeys } from '../tenancy/tenant-keys';
import { migrateAllKeyFiles } from '../tenancy/key-encryption';
import { keyFilePath, offerOperatorModels } from '../models';

export interface ServiceCore {
  resolveCore: CoreResolver;
  registry: TenantRegistry;
  /** For /readyz: the database answers a cheap query. */
  ready(): Promise<boolean>;
  requestQuota?: RequestQuotaSource;
  /** With a database: the request rate every worker shares, and the tenants' status. */
  rateLimiter?: RateLimiter;
  tenantGate?: TenantGate;
  /** GET /metrics (with a database). */
  metrics?: ServiceMetrics;
  /** The platform's own routes (GET /v1/audit). */
  platformRoutes?: TenancyOptions['platformRoutes'];
  /** The keys a tenant stored, in plain text: what the service's log lines are scrubbed of. */
  tenantSecrets?: (tenantId: string) => string[];
  /** Runs after in-flight requests are done on SIGTERM: hand live runs back to other workers. */
  onDrain?: () => Promise<void>;
  close(): Promise<void>;
}

interface Paths {
  dataDir: string;
  resourcesDir: string;
}

/**
 * The environment a tenant's core reads API keys from: none. Tenants' settings name key variables
 * (search, embeddings) beside a URL of their choosing, and a key is sent to that URL, so a core
 * reading the worker's environment would hand any tenant FOLIO_JWT_SECRET, the platform key or the
 * database password. Keys come from the tenant's key store (`POST /v1/keys`) only.
 */
const NO_WORKER_ENV: NodeJS.ProcessEnv = Object.freeze({});

export async function createServiceCore(config: ServiceConfig, paths: Paths, log: Logger): Promise<ServiceCore> {
  // Tenants' commands and scripts run isolated, or the tools say why they cannot run; the addresses
  // they type reach only public hosts and what the operator allowed.
  requireIsolation();
  restrictOutbound({ allow: config.allowNetwork });
  offerOperatorModels(config.operatorModels);
  for (const note of config.operatorModels?.notes ?? []) log.warn({ msg: 'operator model profiles', note });
  sealStoredKeys(config, paths, log);
  // Renders stage in the storage root's scratch (each tenant's uploads in the tenant's own).
  const storage = resolve(config.storageRoot ?? paths.dataDir);
  sweepScratch(storage, 'shared');
  useScratchRoot(storage);
  // Every tenant's folder is under the storage root: a tenant's commands and conversions see only
  // their own task (bound back inside it), whichever store the service runs on.
  const showTenants = hideFromEverySandbox(storage);
  const service = await (
    config.databaseUrl !== null && config.storageRoot !== null
      ? createPostgresServiceCore(config, config.databaseUrl, config.storageRoot, paths, log)
      : Promise.resolve(createSqliteServiceCore(config, paths, log))
  ).catch((err: unknown) => {
    showTenants();
    throw err;
  });
  return {
    ...service,
    tenantSecrets: (tenantId) => tenantStoredKeys(tenantDataDir(storage, tenantId), tenantId, config.keyring),
    async close() {
      await service.close();
      showTenants();
    },
  };
}

/** Without a database: one SQLite core per tenant, under the storage root (or the data folder). */
function createSqliteServiceCore(config: ServiceConfig, paths: Paths, log: Logger): ServiceCore {
  const root = resolve(config.storageRoot ?? paths.dataDir);
  const cores = new Map<string, Promise<Core>>();
  return {
    async resolveCore(scope, request) {
      let core = cores.get(scope.tenant_id);
      if (!core) {
        const dataDir = tenantDataDir(root, scope.tenant_id);
        const opening = createCore({ dataDir, resourcesDir: paths.resourcesDir, env: NO_WORKER_ENV, keys: createTenantKeyStore(dataDir, scope.tenant_id, config.keyring), teamPolicy: true });
        // A core that failed to open (a busy or damaged database) is tried again at the next request.
        opening.catch(() => {
          if (cores.get(scope.tenant_id) === opening) cores.delete(scope.tenant_id);
        });
        core = opening;
        cores.set(scope.tenant_id, core);
        log.info({ msg: 'tenant core opened', tenant: scope.tenant_id });
      }
      // The request's own model keys, if it brought any; nothing leaves for an audit without a database.
      return (await core).forRequest({ brought: broughtKeys(request.headers), outbound: null });
    },
    registry: createMemoryTenantRegistry(),
    ready: () => Promise.resolve(true),
    async close() {
      await Promise.all([...cores.values()].map(async (core) => (await core.catch(() => null))?.close()));
      await closeDefaultExecutor();
    },
  };
}

/** Keys stored before encryption (or under a previous KEK) are sealed with the current KEK at start. */
function sealStoredKeys(config: ServiceConfig, paths: Paths, log: Logger): void {
  const root = resolve(config.storageRoot ?? paths.dataDir);
  if (config.keyring === null) return;
  const sealed = migrateAllKeyFiles(root, config.keyring, keyFilePath);
  if (sealed > 0) log.info({ msg: 'stored model keys sealed with the current key-encryption key', count: sealed });
}

async function createPostgresServiceCore(config: ServiceConfig, url: string, storageRoot: string, paths: Paths, log: Logger): Promise<ServiceCore> {
  const backend = await openPgStore(url);
  const onError = (err: Error) => log.error({ msg: 'cluster error', error: `${err.name}: ${err.message}` });
  const metrics = createServiceMetrics({
    runsByStatus: async () => (await backend.pool.query<{ status: string; count: number }>('SELECT status, count(*)::int AS count FROM runs GROUP BY status')).rows,
    queueDepth: async () => (await backend.pool.query<{ n: number }>("SELECT count(*)::int AS n FROM library_files WHERE status IN ('pending', 'indexing')")).rows[0].n,
  });
  let worker: ClusterWorker;
  try {
    // Before the worker can hold a lease: loading this during a run paused lease renewals.
    await loadRunCode();
    worker = await startClusterWorker({
      connectionString: url,
      workerId: config.workerId,
      leaseTtlMs: config.leaseTtlMs,
      onError,
      onSwept: (run) => {
        metrics.leaseTakeover();
        log.warn({ msg: 'run interrupted: its worker stopped answering', run: run.runId, tenant: run.tenantId });
      },
    });
  } catch (err) {
    await backend.close();
    throw err;
  }
  // Live runs are counted by lease, so a dead worker's runs stop counting when their lease expires.
  const quotas = createTeamQuotas({ db: backend.pool, defaults: config.quotas, liveRuns: leasedRunCounter(backend.pool) });
  const workerCluster = worker.runCluster();
  // Every event of this worker's runs passes here: tool calls and run ends are counted as they go.
  const cluster: typeof workerCluster = Object.assign(Object.create(workerCluster) as typeof workerCluster, {
    runEvent: (scope: Scope, event: Parameters<typeof workerCluster.runEvent>[1]) => {
      metrics.runEvent(event);
      workerCluster.runEvent(scope, event);
    },
  });
  const cores = new ScopeCores<Core>(config.coreIdleMs);
  const sweep = setInterval(() => {
    void cores.sweep().then(
      (closed) => closed > 0 && log.info({ msg: 'idle scope cores closed', count: closed }),
      (err: unknown) => log.error({ msg: 'closing idle scope cores failed', error: err instanceof Error ? err.message : String(err) }),
    );
  }, Math.min(60_000, config.coreIdleMs));
  sweep.unref();
  // Retention per plan: every worker offers, one at a time does the pass (retention.ts).
  const retention = setInterval(() => {
    void runRetention({ backend, storageRoot }).then(
      (done) => done && (done.archive.length > 0 || done.purge.length > 0) && log.info({ msg: 'retention pass', archived: done.archive.length, purged: done.purge.length, reactivated: done.reactivate.length }),
      (err: unknown) => log.error({ msg: 'retention pass failed', error: err instanceof Error ? err.message : String(err) }),
    );
  }, RETENTION_INTERVAL_MS);
  retention.unref();

  // Control messages and drain act on this process's runs, which live in the scopes' run managers.
  const host: RunHost = {
    cancel(taskId, runId) {
      for (const core of cores.opened) if (core.runs.activeRunFor(taskId) === runId) void core.runs.cancel(taskId, runId);
    },
    decide(taskId, callId, decision: Decision) {
      for (const core of cores.opened) if (core.runs.activeRunFor(taskId) !== undefined) return core.runs.decide(taskId, callId, decision);
      return false;
    },
    async shutdown() {
      await Promise.all([...cores.opened].map((core) => core.runs.shutdown()));
    },
  };
  worker.attach(host);

  const coreFor = (scope: Scope): Promise<Core> =>
    cores.get(`${scope.tenant_id}\u0000${scope.user_id}`, () => {
      log.info({ msg: 'scope core opened', tenant: scope.tenant_id, user: scope.user_id });
      const dataDir = tenantDataDir(storageRoot, scope.tenant_id);
      return createCore({
        dataDir,
        resourcesDir: paths.resourcesDir,
        env: NO_WORKER_ENV,
        keys: createTenantKeyStore(dataDir, scope.tenant_id, config.keyring),
        // The pool is the process's; a scope's core closing must not end it.
        store: { port: backend.scope(scope), close: () => Promise.resolve() },
        team: { cluster, quotas, hiddenPaths: [storageRoot], outbound, metrics },
        // web_fetch reaches public addresses and what the operator allowed (--allow-network), as every other typed address.
        webFetch: { isAllowedAddress: (address) => addressRefusal(address) === null || operatorAllowsAddress(address) },
      });
    });

  // Every request leaving the service is an audit row (of the work that caused it) and a metric.
  const audit = auditWriter(backend.pool, (err) => log.error({ msg: 'audit event not written', error: err instanceof Error ? err.message : String(err) }));
  const outbound: OutboundSink = (event, owner) => {
    audit(event, owner);
    metrics.outboundCall(event.kind, event.host, event.status, event.seconds);
  };
  const answers = databaseAnswers(backend.pool);
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    clearInterval(sweep);
    clearInterval(retention);
    await cores.closeAll();
    await closeDefaultExecutor();
    await worker.close();
    await backend.close();
  };
  return {
    // Each request sees its scope's core with its own model keys, its outbound requests charged to it.
    resolveCore: async (scope, request) =>
      (await coreFor(scope)).forRequest({ brought: broughtKeys(request.headers), outbound: { sink: outbound, owner: requestOwner({ scope, params: request.params }) } }),
    registry: createPgTenantRegistry(backend.pool),
    ready: async () => !worker.isDraining && (await answers()),
    requestQuota: { requestsPerMinute: quotas.guard.requestsPerMinute },
    rateLimiter: createSharedRateLimiter({ db: backend.pool, defaultPerMinute: config.quotas.requests_per_minute, overrides: { requestsPerMinute: quotas.guard.requestsPerMinute } }),
    tenantGate: createPgTenantGate(backend.pool),
    platformRoutes: auditRoute(backend.pool),
    metrics,
    // Hands the runs back: they end `interrupted` and their leases are freed, so Continue works on
    // any other worker at once.
    onDrain: () => worker.drain(),
    close,
  };
}
