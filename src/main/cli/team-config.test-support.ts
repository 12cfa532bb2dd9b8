// The team service's configuration as tests start it: `--multi-tenant` on a storage root, on a free
// loopback port, with the platform key and the JWT secret the tests sign their requests with.
import { loadServiceConfig, type ServiceConfig } from '../tenancy';

export const PLATFORM_KEY = 'platform-key-0123456789abcdef-0123456789';
export const JWT_SECRET = 'jwt-secret-0123456789abcdef-0123456789';

/** The config `folio serve --multi-tenant --storage-root <root> …flags` reads with the tests' secrets (and `env`). */
export function teamServiceConfig(storageRoot: string, flags: readonly string[] = [], env: NodeJS.ProcessEnv = {}): ServiceConfig {
  return loadServiceConfig(['--multi-tenant', '--storage-root', storageRoot, '--host', '127.0.0.1', '--port', '0', ...flags], {
    FOLIO_PLATFORM_KEY: PLATFORM_KEY,
    FOLIO_JWT_SECRET: JWT_SECRET,
    ...env,
  });
}
