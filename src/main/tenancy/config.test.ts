import { describe, expect, it } from 'vitest';
import { ConfigError, DEFAULT_PORT, loadServiceConfig } from './config';

const KEY = 'k'.repeat(32);
const SECRET = 's'.repeat(32);
const service = { FOLIO_MULTI_TENANT: '1', FOLIO_PLATFORM_KEY: KEY, FOLIO_JWT_SECRET: SECRET };

function configError(argv: string[], env: Record<string, string>): string {
  try {
    loadServiceConfig(argv, env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error('expected a ConfigError');
}

describe('service configuration', () => {
  it('keeps single-user web mode as it was when nothing is set', () => {
    const config = loadServiceConfig([], {});
    expect(config).toMatchObject({ multiTenant: false, databaseUrl: null, storageRoot: null, platformKey: null, jwt: null, host: '127.0.0.1', port: DEFAULT_PORT });
  });

  it('reads the environment, and a flag wins over its variable', () => {
    const env = { ...service, FOLIO_PORT: '5000', FOLIO_DATABASE_URL: 'postgres://env/db', FOLIO_STORAGE_ROOT: '/srv/env', FOLIO_REQUESTS_PER_MINUTE: '100' };
    const fromEnv = loadServiceConfig([], env);
    expect(fromEnv).toMatchObject({ multiTenant: true, port: 5000, databaseUrl: 'postgres://env/db', storageRoot: '/srv/env', host: '0.0.0.0' });
    expect(fromEnv.quotas.requests_per_minute).toBe(100);
    expect(fromEnv.jwt).toMatchObject({ kind: 'secret' });
    const flags = loadServiceConfig(['--port', '6000', '--database', 'postgresql://flag/db', '--storage-root', '/srv/flag', '--requests-per-minute', '7', '--jwt-secret', 'f'.repeat(40)], env);
    expect(flags).toMatchObject({ port: 6000, databaseUrl: 'postgresql://flag/db', storageRoot: '/srv/flag' });
    expect(flags.quotas.requests_per_minute).toBe(7);
    expect(flags.jwt?.kind === 'secret' && new TextDecoder().decode(flags.jwt.secret)).toBe('f'.repeat(40));
  });

  it('takes --multi-tenant as a flag or FOLIO_MULTI_TENANT, and public hosts from either', () => {
    const config = loadServiceConfig(['--multi-tenant', '--platform-key', KEY, '--jwks-url', 'https://platform.example/jwks.json', '--public-host', 'Folio.Example.com', '--public-host', 'folio.example.com:8443'], {});
    expect(config.multiTenant).toBe(true);
    expect(config.jwt).toMatchObject({ kind: 'jwks' });
    expect(config.publicHosts).toEqual(['folio.example.com', 'folio.example.com:8443']);
    expect(loadServiceConfig([], { ...service, FOLIO_PUBLIC_HOSTS: 'a.example, b.example' }).publicHosts).toEqual(['a.example', 'b.example']);
  });

  it('refuses contradictions with a message that names the setting', () => {
    expect(configError(['--multi-tenant'], { FOLIO_JWT_SECRET: SECRET })).toContain('platform key');
    expect(configError(['--multi-tenant', '--platform-key', KEY], {})).toContain('--jwt-secret');
    expect(configError([], { ...service, FOLIO_JWT_SECRET: 'short' })).toContain('at least 32 bytes');
    expect(configError([], { ...service, FOLIO_PLATFORM_KEY: 'short' })).toContain('--platform-key');
    expect(configError([], { ...service, FOLIO_JWKS_URL: 'https://p.example/jwks' })).toContain('not both');
    expect(configError([], { FOLIO_MULTI_TENANT: '1', FOLIO_PLATFORM_KEY: KEY, FOLIO_JWKS_URL: 'http://p.example/jwks' })).toContain('https');
    expect(configError([], { FOLIO_PLATFORM_KEY: KEY })).toContain('only applies with --multi-tenant');
    expect(configError(['--host', '0.0.0.0'], {})).toContain('127.0.0.1');
    expect(configError([], { ...service, FOLIO_DATABASE_URL: 'postgres://h/db' })).toContain('--storage-root');
    expect(configError([], { ...service, FOLIO_DATABASE_URL: 'mysql://h/db', FOLIO_STORAGE_ROOT: '/s' })).toContain('postgres://');
    expect(configError([], { FOLIO_DATABASE_URL: 'postgres://h/db', FOLIO_STORAGE_ROOT: '/s' })).toContain('--multi-tenant');
    expect(configError(['--port', '70000'], {})).toContain('--port');
    expect(configError([], { ...service, FOLIO_REQUESTS_PER_MINUTE: '0' })).toContain('REQUESTS_PER_MINUTE');
    expect(configError([], { ...service, FOLIO_WORKER_ID: '../w' })).toContain('--worker-id');
    expect(configError([], { ...service, FOLIO_PUBLIC_HOSTS: 'evil/host' })).toContain('--public-host');
    expect(configError(['--bogus'], {})).toContain('bogus');
    expect(configError(['--recover'], service)).toContain('--recover');
    expect(configError([], { FOLIO_MULTI_TENANT: 'maybe' })).toContain('FOLIO_MULTI_TENANT');
  });

  it('has one default request rate: --requests-per-minute and --quota-requests-per-minute name the same quota', () => {
    expect(loadServiceConfig([], service).quotas.requests_per_minute).toBe(600);
    expect(loadServiceConfig(['--quota-requests-per-minute', '50'], service).quotas.requests_per_minute).toBe(50);
    expect(loadServiceConfig([], { ...service, FOLIO_QUOTA_REQUESTS_PER_MINUTE: 'unlimited' }).quotas.requests_per_minute).toBeNull();
    expect(configError(['--requests-per-minute', '5', '--quota-requests-per-minute', '7'], service)).toContain('--quota-requests-per-minute');
    expect(configError([], { ...service, FOLIO_REQUESTS_PER_MINUTE: '5', FOLIO_QUOTA_REQUESTS_PER_MINUTE: '7' })).toContain('FOLIO_REQUESTS_PER_MINUTE');
  });

  it('never prints secrets: describe() redacts the key, the JWT secret and the database password', () => {
    const config = loadServiceConfig([], { ...service, FOLIO_DATABASE_URL: 'postgres://folio:hunter2-password@db:5432/folio?sslpassword=x', FOLIO_STORAGE_ROOT: '/srv/folio' });
    const text = JSON.stringify(config.describe());
    expect(text).not.toContain(KEY);
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain('hunter2');
    expect(text).toContain('db:5432');
    expect(text).toContain('[redacted]');
    // A key server behind basic auth: its password stays out of the start line too.
    const jwks = loadServiceConfig([], { FOLIO_MULTI_TENANT: '1', FOLIO_PLATFORM_KEY: KEY, FOLIO_JWKS_URL: 'https://keys:jwks-hunter3@platform.example/jwks.json' });
    expect(JSON.stringify(jwks.describe())).not.toContain('jwks-hunter3');
  });
});
