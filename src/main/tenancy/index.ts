// Who is asking in service mode, and how the service is operated.
export type { Scope } from '../store/port';
export { LOCAL_SCOPE } from '../store/port';
export { createAuthenticator, isAdmin, ADMIN_CLAIM, UnauthorizedError, USER_HEADER, type Authenticator, type AuthenticatorOptions } from './auth';
export { ConfigError, loadServiceConfig, serviceQuotaDefaults, type JwtVerification, type ServiceConfig } from './config';
export { safeEqual } from './constant-time';
export { createRateLimiter, RateLimitedError, type RateLimiter, type RequestQuotaSource } from './rate-limit';
export { createJsonLogger, logRequest, requestIdFrom, REQUEST_ID_HEADER, scrubbedError, scrubLogFields, type LogFields, type Logger, type RequestLogEntry } from './request-log';
export { databaseAnswers } from './readiness';
export { isScopeId } from './scope-id';
export { createMemoryTenantRegistry, createPgTenantRegistry, type Queryable, type TenantRegistry } from './tenant-registry';
export { createPgTenantGate, TenantSuspendedError, TENANT_STATUSES, type TenantGate, type TenantStatus } from './tenant-status';
export { createSharedRateLimiter } from './shared-rate-limit';
