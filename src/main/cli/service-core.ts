// The team service's core, as `folio serve --multi-tenant` needs it: a core per request scope, the
// tenant registry, the readiness check and the hooks of a graceful shutdown.
//
// INTEGRATOR: `createServiceCore` is the seam for the PostgreSQL core (the `port`, `pg`, `cluster`
// and `quotas` branches). With `config.databaseUrl` set it must return: `resolveCore(scope)` = the
// one core scoped to that tenant/user (StorePort on PostgreSQL, TaskStorage from
// `workspace/storage.ts` on `config.storageRoot`), `registry` = `createPgTenantRegistry(pool)`,
// `ready` = `databaseAnswers(pool)`, `requestQuota` = the quotas module's source (or
// `createPgRequestQuota(pool)`), `onDrain` = the cluster's run hand-back, `close` = pool + core.
// Until then PostgreSQL is refused here, and without a database each tenant gets its own SQLite
// core under `<storage root or data folder>/tenants/<tenant>/` (one worker only): isolated, but
// every user of a tenant sees the tenant's tasks.
import { join } from 'node:path';
import { FolioError } from '../../shared/errors';
import { createCore, type Core } from '../service/create-core';
import type { CoreResolver } from '../transport/http';
import { type Logger, type RequestQuotaSource, type ServiceConfig, type TenantRegistry, createMemoryTenantRegistry } from '../tenancy';

export interface ServiceCore {
  resolveCore: CoreResolver;
  registry: TenantRegistry;
  /** For /readyz: the database answers a cheap query. */
  ready(): Promise<boolean>;
  requestQuota?: RequestQuotaSource;
  /** Runs after in-flight requests are done on SIGTERM: hand live runs back to other workers. */
  onDrain?: () => Promise<void>;
  close(): Promise<void>;
}

export function createServiceCore(config: ServiceConfig, paths: { dataDir: string; resourcesDir: string }, log: Logger): ServiceCore {
  if (config.databaseUrl !== null) {
    throw new FolioError('unsupported', 'PostgreSQL (--database / FOLIO_DATABASE_URL) is not wired into folio serve in this build yet');
  }
  const root = config.storageRoot ?? paths.dataDir;
  const cores = new Map<string, Promise<Core>>();
  return {
    resolveCore(scope) {
      let core = cores.get(scope.tenant_id);
      if (!core) {
        core = createCore({ dataDir: join(root, 'tenants', scope.tenant_id), resourcesDir: paths.resourcesDir });
        cores.set(scope.tenant_id, core);
        log.info({ msg: 'tenant core opened', tenant: scope.tenant_id });
      }
      return core;
    },
    registry: createMemoryTenantRegistry(),
    ready: () => Promise.resolve(true),
    async close() {
      await Promise.all([...cores.values()].map(async (core) => (await core).close()));
    },
  };
}
