// Model keys in the team service: a key the platform sends with a request is used for that
// request's run and is found nowhere afterwards (no table, no file, no log line, no error); keys a
// tenant stores are sealed under the workers' key-encryption key (unreadable without it, bound to
// the tenant, re-sealed on rotation), and a plain keys.json from before is sealed at start.
import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Run, Task } from '../../shared/contract/entities';
import { pgSkipReason } from '../../../testing/postgres/test-database';
import { fakeProfileYaml } from '../../../testing/fake-openai/server';
import { keyFilePath } from '../models';
import { tenantDataDir } from '../workspace/storage';
import { migrateKeyFile, parseKek, tenantKeyCodec } from '../tenancy/key-encryption';
import { MODEL_KEY_HEADER } from '../tenancy/byo-keys';
import { MCP_REDACTED } from '../../shared/contract/mcp';
import { expectJson, startTeamServer, TEST_KEK, type TeamServer, waitForRunEnd } from './team-server.test-support';
import { filesHolding, tablesHolding } from './team-traces.test-support';

const skip = pgSkipReason();
if (skip !== null) console.warn(`team key tests skipped: ${skip}`);

const keyedProfile = (url: string, env: string) => fakeProfileYaml(url).replace('provider: fake', 'provider: keyed').replace('api_key_env: null', `api_key_env: ${env}`);
const LEGACY_KEY = `sk-legacy-${randomUUID()}`;

describe.skipIf(skip !== null)('team service: model keys', () => {
  let s: TeamServer;
  let db: pg.Client;

  beforeAll(async () => {
    s = await startTeamServer(['acme', 'globex', 'initech'], [], {}, (root) => {
      // A tenant's plain key file from before encryption, as the previous version wrote it.
      mkdirSync(tenantDataDir(root, 'initech'), { recursive: true });
      writeFileSync(keyFilePath(tenantDataDir(root, 'initech')), JSON.stringify({ INITECH_KEY: LEGACY_KEY }), { mode: 0o600 });
    });
    for (const [tenant, env] of [['acme', 'ACME_KEY'], ['globex', 'GLOBEX_KEY'], ['initech', 'INITECH_KEY']]) {
      writeFileSync(join(tenantDataDir(s.storageRoot, tenant), 'models', 'keyed.yaml'), keyedProfile(s.fake.url, env));
    }
    db = new pg.Client({ connectionString: s.databaseUrl });
    await db.connect();
  }, 60_000);
  afterAll(async () => {
    await db?.end();
    await s?.close();
  });

  async function runOnce(tenant: string, user: string, headers: Record<string, string>): Promise<Run> {
    const task = await expectJson<Task>(await s.as(tenant, user, '/v1/tasks', { method: 'POST', json: { mode: 'general', model: 'keyed.main', title: 'keys' } }), 201);
    const { run_id: runId } = await expectJson<{ run_id: string }>(await s.as(tenant, user, `/v1/tasks/${task.id}/messages`, { method: 'POST', json: { content: 'Hi' }, headers }), 200);
    return waitForRunEnd(s.as, tenant, user, task.id, runId);
  }

  it("uses a key sent with the request for that request's run, and keeps it nowhere", async () => {
    const key = `sk-byo-${randomUUID()}`;
    s.fake.script([{ text: 'Hello with your key.', usage: { prompt: 5, completion: 4 } }]);
    const run = await runOnce('acme', 'alice', { [MODEL_KEY_HEADER]: `ACME_KEY=${key}` });
    expect(run.status).toBe('done');
    expect(s.fake.requests.at(-1)!.authLast4).toBe(key.slice(-4));
    // A provider that echoes the key in its refusal: the run fails, saying so, without the key.
    s.fake.script([{ fault: 'status', status: 401, body: { error: { message: `Incorrect API key provided: ${key}` } } }]);
    const refused = await runOnce('acme', 'alice', { [MODEL_KEY_HEADER]: `ACME_KEY=${key}` });
    expect(refused.status).toBe('failed');

    expect(await tablesHolding(db, key)).toEqual([]);
    expect(await tablesHolding(db, key.slice(7))).toEqual([]);
    expect(filesHolding(s.storageRoot, key.slice(7))).toEqual([]);
    expect(s.lines.join('\n')).not.toContain(key.slice(7));
    // Without the header nothing remembered it: the next message is refused for want of a key.
    const task = await expectJson<Task>(await s.as('acme', 'alice', '/v1/tasks', { method: 'POST', json: { mode: 'general', model: 'keyed.main', title: 'no key' } }), 201);
    const missing = await s.as('acme', 'alice', `/v1/tasks/${task.id}/messages`, { method: 'POST', json: { content: 'Hi' } });
    expect(((await missing.json()) as { error: { code: string } }).error.code).toBe('missing_api_key');
  }, 60_000);

  it('refuses a malformed key header with a 400 that does not repeat it', async () => {
    const res = await s.as('acme', 'alice', '/v1/tasks', { headers: { [MODEL_KEY_HEADER]: 'sk-no-variable-secret', 'x-request-id': 'req-malformed-key' } });
    expect(res.status).toBe(400);
    expect(await res.text()).not.toContain('sk-no-variable-secret');
    // Its log line names the route and the tenant, like any other request's, and not the key.
    const line = s.lines.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.request_id === 'req-malformed-key');
    expect(line).toMatchObject({ route: '/v1/tasks', tenant: 'acme', user: 'alice', status: 400, error: 'invalid_input' });
    expect(s.lines.join('\n')).not.toContain('no-variable-secret');
  });

  it('seals a stored key: the file holds no plain text, only the KEK opens it, and only for its tenant', async () => {
    const key = `sk-stored-${randomUUID()}`;
    await expectJson(await s.as('globex', 'gina', '/v1/keys', { method: 'POST', json: { env: 'GLOBEX_KEY', key } }), 200);
    const file = keyFilePath(tenantDataDir(s.storageRoot, 'globex'));
    const stored = (JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>).GLOBEX_KEY;
    expect(readFileSync(file, 'utf8')).not.toContain(key.slice(10));
    expect(filesHolding(s.storageRoot, key.slice(10))).toEqual([]);
    expect(await tablesHolding(db, key.slice(10))).toEqual([]);
    const ring = { current: parseKek('test', TEST_KEK), previous: [] };
    expect(tenantKeyCodec(ring, 'globex').decode(stored)).toBe(key);
    const otherKek = { current: parseKek('test', Buffer.alloc(32, 9).toString('base64')), previous: [] };
    expect(() => tenantKeyCodec(otherKek, 'globex').decode(stored)).toThrow(/key-encryption key this worker does not have/);
    expect(() => tenantKeyCodec(ring, 'acme').decode(stored)).toThrow();
    // The run uses it.
    s.fake.script([{ text: 'Hello with the stored key.', usage: { prompt: 5, completion: 4 } }]);
    expect((await runOnce('globex', 'gina', {})).status).toBe('done');
    expect(s.fake.requests.at(-1)!.authLast4).toBe(key.slice(-4));

    // Rotation: the new KEK seals, the old one is still read until every value is re-sealed.
    const rotated = { current: otherKek.current, previous: [ring.current] };
    expect(migrateKeyFile(file, rotated, 'globex')).toBe(1);
    const resealed = (JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>).GLOBEX_KEY;
    expect(resealed.split(':')[1]).toBe(otherKek.current.id);
    expect(tenantKeyCodec(otherKek, 'globex').decode(resealed)).toBe(key);
    expect(migrateKeyFile(file, rotated, 'globex')).toBe(0);
  }, 60_000);

  it("keeps a tenant's stored and brought keys out of the log: a logged path, request id and the error it causes", async () => {
    const stored = `sk-kept-${randomUUID()}`;
    const brought = `sk-sent-${randomUUID()}`;
    await expectJson(await s.as('acme', 'alice', '/v1/keys', { method: 'POST', json: { env: 'ACME_KEY', key: stored } }), 200);
    const byo = { [MODEL_KEY_HEADER]: `ACME_KEY=${brought}` };
    expect((await s.as('acme', 'alice', `/v1/${stored}/${brought}`, { headers: { ...byo, 'x-request-id': brought } })).status).toBe(404);
    expect((await s.as('acme', 'alice', `/v1/tasks/${stored}`, { headers: { ...byo, 'x-request-id': stored } })).status).toBe(404);
    expect((await s.as('acme', 'alice', `/v1/tasks/${brought}/messages`, { method: 'POST', json: { content: 'Hi' }, headers: { [MODEL_KEY_HEADER]: brought } })).status).toBe(400);
    // The provider echoes the key in its refusal: the run fails, and the error is logged nowhere with it.
    s.fake.script([{ fault: 'status', status: 401, body: { error: { message: `Incorrect API key provided: ${brought}; stored ${stored}` } } }]);
    expect((await runOnce('acme', 'alice', byo)).status).toBe('failed');
    const lines = s.lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.filter((l) => l.msg === 'request' && l.tenant === 'acme' && l.status === 404).map((l) => [l.route, l.request_id, l.task_id ?? null])).toEqual(
      expect.arrayContaining([
        [`/v1/${MCP_REDACTED}/${MCP_REDACTED}`, MCP_REDACTED, null],
        ['/v1/tasks/:task_id', MCP_REDACTED, MCP_REDACTED],
      ]),
    );
    for (const key of [stored, brought]) expect(s.lines.join('\n')).not.toContain(key.slice(8));
  }, 60_000);

  it('sealed the plain keys.json it found at start, and its key still works', async () => {
    const text = readFileSync(keyFilePath(tenantDataDir(s.storageRoot, 'initech')), 'utf8');
    expect(text).not.toContain(LEGACY_KEY);
    expect(text).toContain('folio-kek1:');
    s.fake.script([{ text: 'Hello with the old key.', usage: { prompt: 5, completion: 4 } }]);
    expect((await runOnce('initech', 'peter', {})).status).toBe('done');
    expect(s.fake.requests.at(-1)!.authLast4).toBe(LEGACY_KEY.slice(-4));
  }, 60_000);
});

describe.skipIf(skip !== null)('team service without a key-encryption key', () => {
  let s: TeamServer;
  beforeAll(async () => {
    s = await startTeamServer(['acme'], [], { FOLIO_KEY_ENCRYPTION_KEY: '' });
    writeFileSync(join(tenantDataDir(s.storageRoot, 'acme'), 'models', 'keyed.yaml'), keyedProfile(s.fake.url, 'ACME_KEY'));
  }, 60_000);
  afterAll(async () => s?.close());

  it('refuses to store a key (415, saying how to send it instead) and writes no file', async () => {
    const res = await s.as('acme', 'alice', '/v1/keys', { method: 'POST', json: { env: 'ACME_KEY', key: 'sk-never-plain-0123' } });
    expect(res.status).toBe(415);
    expect(((await res.json()) as { error: { message: string } }).error.message).toContain('X-Folio-Model-Key');
    expect(filesHolding(s.storageRoot, 'sk-never-plain-0123')).toEqual([]);
  });
});
