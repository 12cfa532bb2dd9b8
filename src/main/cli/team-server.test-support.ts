// The real team service in-process for integration tests: a fresh PostgreSQL database, a temporary
// storage root, the config from flags, the service core and the HTTP server exactly as
// `folio serve --multi-tenant` builds them, and user tokens signed for (tenant, user) pairs.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SignJWT } from 'jose';
import pg from 'pg';
import { expect } from 'vitest';
import type { Run } from '../../shared/contract/entities';
import { findResourcesDir } from '../config/app-paths';
import { createPgQuotaTable, type QuotaPatch } from '../quotas/limits';
import { createJsonLogger } from '../tenancy';
import type { RunningHttpServer } from '../transport/http';
import { createServiceCore, type ServiceCore } from './service-core';
import { startTeamHttpServer } from './team-server';
import { createTestDatabase } from '../../../testing/postgres/test-database';
import { fakeProfileYaml, startFakeOpenAI, type FakeOpenAI } from '../../../testing/fake-openai/server';

import { JWT_SECRET, PLATFORM_KEY, teamServiceConfig } from './team-config.test-support';

export { PLATFORM_KEY };
/** The workers' key-encryption key in these tests (32 bytes, base64). */
export const TEST_KEK = Buffer.alloc(32, 7).toString('base64');

export interface TeamServer {
  url: string;
  /** The service's PostgreSQL database, for a test that arranges rows the API would not. */
  databaseUrl: string;
  storageRoot: string;
  fake: FakeOpenAI;
  /** The service's JSON log lines. */
  lines: string[];
  /** A tenant's own quota row; set it before the tenant's first request (limits are cached). */
  setQuotas(tenantId: string, patch: QuotaPatch): Promise<void>;
  /** A request as (tenant, user); `json` becomes the body. */
  as: (tenant: string, user: string, path: string, init?: RequestInit & { json?: unknown }) => Promise<Response>;
  /** Another worker on the same database and storage root (closed with this one). */
  addWorker: () => Promise<Pick<TeamServer, 'url' | 'as'>>;
  close(): Promise<void>;
}

type Requester = TeamServer['as'];

function requester(url: string): Requester {
  return async (tenant, user, path, init = {}) => {
    const { json, ...rest } = init;
    const headers = new Headers(rest.headers);
    headers.set('authorization', `Bearer ${PLATFORM_KEY}`);
    headers.set('x-folio-user', await userToken(tenant, user));
    if (json !== undefined) headers.set('content-type', 'application/json');
    return fetch(`${url}${path}`, { ...rest, headers, body: json !== undefined ? JSON.stringify(json) : rest.body });
  };
}

/** The response's JSON, after checking its status (the message names the URL and the body). */
export async function expectJson<T>(res: Response, status: number): Promise<T> {
  const text = await res.text();
  expect(res.status, `${res.url}: ${text}`).toBe(status);
  return JSON.parse(text) as T;
}

/** Polls the task's runs until `runId` is no longer running. */
export async function waitForRunEnd(as: Requester, tenant: string, user: string, taskId: string, runId: string): Promise<Run> {
  for (let i = 0; i < 400; i++) {
    const { runs } = await expectJson<{ runs: Run[] }>(await as(tenant, user, `/v1/tasks/${taskId}/runs`), 200);
    const run = runs.find((r) => r.id === runId);
    if (run && run.status !== 'running') return run;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`run ${runId} did not end`);
}

export function userToken(tenant: string, user: string): Promise<string> {
  return new SignJWT({ tenant_id: tenant }).setProtectedHeader({ alg: 'HS256' }).setSubject(user).setExpirationTime('10m').sign(new TextEncoder().encode(JWT_SECRET));
}

/** Starts the service; every tenant in `tenants` gets the fake model as `fake.main`. */
export async function startTeamServer(tenants: string[], extraFlags: string[] = [], env: Record<string, string> = {}, beforeStart?: (storageRoot: string, fake: FakeOpenAI) => void): Promise<TeamServer> {
  const db = await createTestDatabase();
  const storageRoot = mkdtempSync(join(tmpdir(), 'folio-team-'));
  const fake = await startFakeOpenAI();
  for (const tenant of tenants) {
    mkdirSync(join(storageRoot, 'tenants', tenant, 'models'), { recursive: true });
    writeFileSync(join(storageRoot, 'tenants', tenant, 'models', 'fake.yaml'), fakeProfileYaml(fake.url));
  }
  beforeStart?.(storageRoot, fake);
  const config = teamServiceConfig(storageRoot, ['--database', db.url, '--requests-per-minute', '100000', '--allow-network', '127.0.0.1', ...extraFlags], {
    FOLIO_KEY_ENCRYPTION_KEY: TEST_KEK,
    ...env,
  });
  const lines: string[] = [];
  const log = createJsonLogger((line) => lines.push(line));
  let service: ServiceCore | undefined;
  let server: RunningHttpServer | undefined;
  const others: { service: ServiceCore; server: RunningHttpServer }[] = [];
  const quotaPool = new pg.Pool({ connectionString: db.url, max: 1 });
  const close = async () => {
    for (const o of others) {
      await o.server.close();
      await o.service.close();
    }
    await server?.close();
    await service?.close();
    await quotaPool.end();
    await fake.close();
    await db.drop();
    rmSync(storageRoot, { recursive: true, force: true });
  };
  try {
    service = await createServiceCore(config, { dataDir: storageRoot, resourcesDir: findResourcesDir() }, log);
    server = await startTeamHttpServer(config, service, log);
  } catch (err) {
    await close();
    throw err;
  }
  const url = server.url;
  const quotas = createPgQuotaTable(quotaPool);
  return {
    url,
    databaseUrl: db.url,
    storageRoot,
    fake,
    lines,
    setQuotas: (tenantId, patch) => quotas.set(tenantId, patch),
    as: requester(url),
    async addWorker() {
      const second = { ...config, workerId: `${config.workerId}-${others.length + 2}` };
      const otherService = await createServiceCore(second, { dataDir: storageRoot, resourcesDir: findResourcesDir() }, log);
      const otherServer = await startTeamHttpServer(second, otherService, log);
      others.push({ service: otherService, server: otherServer });
      return { url: otherServer.url, as: requester(otherServer.url) };
    },
    close,
  };
}
