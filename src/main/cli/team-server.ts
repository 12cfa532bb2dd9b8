// The team service's HTTP server over a service core, as `folio serve --multi-tenant` starts it;
// one function so the integration tests run exactly what the command runs, in-process.
import { startHttpServer, type FolioHttpServer, type RunningHttpServer } from '../transport/http';
import { createAuthenticator, createRateLimiter, type Logger, type ServiceConfig } from '../tenancy';
import type { ServiceCore } from './service-core';
import { FolioError } from '../../shared/errors';
import { MODEL_KEY_HEADER, checkModelKeyHeader, modelKeyHeaderValues } from '../tenancy/byo-keys';

export async function startTeamHttpServer(config: ServiceConfig, service: ServiceCore, log: Logger): Promise<RunningHttpServer> {
  if (config.platformKey === null || config.jwt === null) throw new FolioError('invalid_input', 'multi-tenant mode needs a platform key and a JWT verification');
  const running = await startHttpServer(service.resolveCore, {
    host: config.host,
    port: config.port,
    tenancy: {
      authenticator: createAuthenticator({ platformKey: config.platformKey, jwt: config.jwt }),
      registry: service.registry,
      rateLimiter: service.rateLimiter ?? createRateLimiter({ defaultPerMinute: config.quotas.requests_per_minute, overrides: service.requestQuota }),
      ...(service.tenantGate ? { gate: service.tenantGate } : {}),
      checkHeaders: checkModelKeyHeader,
      // A key the request brought or its tenant stored never reaches a log line, even in a path, a request id or an error.
      logSecrets: (headers, scope) => [...modelKeyHeaderValues(headers[MODEL_KEY_HEADER]), ...(scope && service.tenantSecrets ? service.tenantSecrets(scope.tenant_id) : [])],
      ...(service.platformRoutes ? { platformRoutes: service.platformRoutes } : {}),
      publicHosts: config.publicHosts,
    },
    logger: log,
    ...(service.metrics ? { metrics: service.metrics, onRequestDone: (method: string, route: string, status: number, seconds: number) => service.metrics?.httpRequest(method, route, status, seconds) } : {}),
    ready: () => service.ready(),
    onInternalError: (where, error) => log.error({ msg: `http ${where} failed`, error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) }),
  });
  const server = running.server as FolioHttpServer;
  service.metrics?.bindSseClients(() => server.sseClients);
  return running;
}
