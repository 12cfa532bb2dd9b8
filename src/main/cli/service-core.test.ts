// The multi-tenant service on SQLite (one data folder per tenant under the storage root).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findResourcesDir } from '../config/app-paths';
import { createJsonLogger, loadServiceConfig } from '../tenancy';
import { tenantDataDir } from '../workspace/storage';
import { createServiceCore, type ServiceCore } from './service-core';

let root: string | undefined;
let service: ServiceCore | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
  if (root) rmSync(root, { recursive: true, force: true });
});

describe('tenant cores on SQLite', () => {
  it('open again at the next request after one failed to open', async () => {
    root = mkdtempSync(join(tmpdir(), 'folio-service-core-'));
    const config = loadServiceConfig(['--multi-tenant', '--storage-root', root, '--host', '127.0.0.1', '--port', '0'], {
      FOLIO_PLATFORM_KEY: 'platform-key-0123456789abcdef-0123456789',
      FOLIO_JWT_SECRET: 'jwt-secret-0123456789abcdef-0123456789',
    });
    service = await createServiceCore(config, { dataDir: root, resourcesDir: findResourcesDir() }, createJsonLogger(() => undefined));
    const scope = { tenant_id: 'acme', user_id: 'alice' };
    // A file where the tenant's folder should be: the core cannot open.
    const folder = tenantDataDir(root, 'acme');
    mkdirSync(join(folder, '..'), { recursive: true });
    writeFileSync(folder, 'not a folder');
    await expect(service.resolveCore(scope)).rejects.toThrow();
    rmSync(folder);
    const core = await service.resolveCore(scope);
    expect((await core.handlers.createTask({ mode: 'general', title: 'after the repair' })).title).toBe('after the repair');
  });
});
