// Two workers of the team service on one database: a task has one live run, whichever worker
// was asked to start another.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pgSkipReason } from '../../../testing/postgres/test-database';
import { findResourcesDir } from '../config/app-paths';
import { createJsonLogger, loadServiceConfig } from '../tenancy';
import type { RunningHttpServer } from '../transport/http';
import { createServiceCore, type ServiceCore } from './service-core';
import { startTeamHttpServer } from './team-server';
import { PLATFORM_KEY, userToken } from './team-server.test-support';
import { createTestDatabase } from '../../../testing/postgres/test-database';

const skip = pgSkipReason();
import { fakeProfileYaml, startFakeOpenAI } from '../../../testing/fake-openai/server';

describe.skipIf(skip !== null)('team service: one live run per task across workers', () => {
  it('refuses a second run of a task on another worker while the first waits for an approval', async () => {
    const db = await createTestDatabase();
    const root = mkdtempSync(join(tmpdir(), 'folio-two-'));
    const fake = await startFakeOpenAI();
    mkdirSync(join(root, 'tenants', 'acme', 'models'), { recursive: true });
    writeFileSync(join(root, 'tenants', 'acme', 'models', 'fake.yaml'), fakeProfileYaml(fake.url));
    const env = { FOLIO_PLATFORM_KEY: PLATFORM_KEY, FOLIO_JWT_SECRET: 'jwt-secret-0123456789abcdef-0123456789' };
    const servers: { service: ServiceCore; http: RunningHttpServer }[] = [];
    for (const id of ['wa', 'wb']) {
      const config = loadServiceConfig(['--multi-tenant', '--database', db.url, '--storage-root', root, '--host', '127.0.0.1', '--port', '0', '--worker-id', id, '--allow-network', '127.0.0.1'], env);
      const log = createJsonLogger(() => undefined);
      const service = await createServiceCore(config, { dataDir: root, resourcesDir: findResourcesDir() }, log);
      servers.push({ service, http: await startTeamHttpServer(config, service, log) });
    }
    const as = async (i: number, path: string, init: RequestInit & { json?: unknown } = {}) => {
      const headers = new Headers();
      headers.set('authorization', `Bearer ${PLATFORM_KEY}`);
      headers.set('x-folio-user', await userToken('acme', 'alice'));
      if (init.json !== undefined) headers.set('content-type', 'application/json');
      return fetch(`${servers[i].http.url}${path}`, { method: init.method, headers, body: init.json !== undefined ? JSON.stringify(init.json) : undefined });
    };
    const task = (await (await as(0, '/v1/tasks', { method: 'POST', json: { mode: 'general', model: 'fake.main' } })).json()) as { id: string };
    fake.script([{ toolCalls: [{ id: 'call_w', name: 'write', arguments: JSON.stringify({ path: 'work/a.md', content: 'a' }) }], usage: { prompt: 1, completion: 1 } }]);
    try {
      const first = await as(0, `/v1/tasks/${task.id}/messages`, { method: 'POST', json: { content: 'one' } });
      expect(first.status).toBe(200);
      // The first run is live on worker A, waiting for the person to approve its write.
      for (let i = 0; i < 200; i++) {
        const { approvals } = (await (await as(0, `/v1/tasks/${task.id}/approvals`)).json()) as { approvals: unknown[] };
        if (approvals.length > 0) break;
        await new Promise((r) => setTimeout(r, 25));
      }
      fake.script([{ text: 'second', usage: { prompt: 1, completion: 1 } }]);
      const second = await as(1, `/v1/tasks/${task.id}/messages`, { method: 'POST', json: { content: 'two' } });
      expect(second.status).toBe(409);
      expect(((await second.json()) as { error: { code: string; message: string } }).error).toMatchObject({ code: 'conflict', message: expect.stringContaining('another worker') as unknown });
      const sameWorker = await as(0, `/v1/tasks/${task.id}/messages`, { method: 'POST', json: { content: 'three' } });
      expect(sameWorker.status).toBe(409);
      const { runs } = (await (await as(1, `/v1/tasks/${task.id}/runs`)).json()) as { runs: { status: string }[] };
      expect(runs.map((r) => r.status)).toEqual(['running']);
      // The refused message was not stored: the conversation is the first run's.
      const { messages } = (await (await as(1, `/v1/tasks/${task.id}/messages`)).json()) as { messages: { role: string; content: string }[] };
      expect(messages.filter((m) => m.role === 'user').map((m) => m.content)).toEqual(['one']);
    } finally {
      for (const s of servers) {
        await s.http.close();
        await s.service.close();
      }
      await fake.close();
      await db.drop();
    }
  }, 60_000);
});
