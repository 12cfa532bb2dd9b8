// pickProfile never picks a profile that cannot work: no keys and no local server → a typed error
// naming the setting; a key → that profile; a local server that answers → the local profile.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { TaskMode } from '../../shared/contract';
import { createReachability } from '../llm/reachability';
import { createFileKeyStore } from '../models';
import type { StorePort } from '../store/port';
import { openTestStorePort } from '../store/test-store.test-support';
import { pickProfile, type ProfileContext } from './profiles';

const cleanups: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

/** A port nothing listens on: bound, read, released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A stand-in local server (like Ollama) that counts the requests it gets. */
async function localServer(): Promise<{ url: string; hits: () => number }> {
  let hits = 0;
  const server: Server = createServer((_req, res) => {
    hits += 1;
    res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"object":"list","data":[]}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise((resolve) => server.close(() => resolve(undefined))));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}/v1`, hits: () => hits };
}

async function setup(localBase: string, env: NodeJS.ProcessEnv = {}): Promise<{ ctx: ProfileContext; store: StorePort }> {
  const resourcesDir = mkdtempSync(join(tmpdir(), 'folio-choice-res-'));
  const dataDir = mkdtempSync(join(tmpdir(), 'folio-choice-data-'));
  mkdirSync(join(resourcesDir, 'config', 'models'), { recursive: true });
  const models = join(resourcesDir, 'config', 'models');
  writeFileSync(
    join(models, 'cloud.yaml'),
    ['provider: cloud', 'api_base: https://api.cloud.example/v1', 'api_key_env: CLOUD_API_KEY', 'profiles:', '  fast:', '    name: Cloud Fast', '    model: c-fast', '    max_context: 64000', '    max_output: 4000', ''].join('\n'),
  );
  writeFileSync(
    join(models, 'local.yaml'),
    ['provider: ollama', `api_base: ${localBase}`, 'api_key_env: null', 'profiles:', '  small:', '    name: Local Small', '    model: l-small', '    max_context: 32000', '    max_output: 4000', ''].join('\n'),
  );
  const opened = await openTestStorePort(dataDir);
  cleanups.push(() => opened.close());
  const ctx: ProfileContext = {
    store: opened.port,
    dataDir,
    resourcesDir,
    keys: createFileKeyStore(dataDir),
    env,
    reachability: createReachability({ timeoutMs: 1000 }),
  };
  return { ctx, store: opened.port };
}

function task(store: StorePort, mode: TaskMode = 'general', model: string | null = null) {
  return store.tasks.create({ id: `t${Math.random().toString(36).slice(2, 10)}`, mode, title: '', description: '', model });
}

describe('pickProfile', () => {
  it('no key and no local server: fails fast with NoUsableModelError naming the setting, the keys and the local server', async () => {
    const base = `http://127.0.0.1:${await closedPort()}/v1`;
    const { ctx, store } = await setup(base);
    const t = await task(store);
    const started = Date.now();
    const picking = pickProfile(ctx, t);
    await expect(picking).rejects.toMatchObject({ name: 'NoUsableModelError', code: 'missing_api_key' });
    await expect(picking).rejects.toThrow(`No model is set up: open Settings → Models and add a key for cloud (CLOUD_API_KEY), or start ollama at ${base}.`);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('a key (environment or key store) makes that profile the pick, without asking the local server', async () => {
    const local = await localServer();
    const { ctx, store } = await setup(local.url, { CLOUD_API_KEY: 'sk-env' });
    expect((await pickProfile(ctx, await task(store))).id).toBe('cloud.fast');
    expect(local.hits()).toBe(0);

    const stored = await setup(local.url);
    stored.ctx.keys.set('CLOUD_API_KEY', 'sk-stored');
    expect((await pickProfile(stored.ctx, await task(stored.store))).id).toBe('cloud.fast');
  });

  it('a local server that answers makes the key-less profile usable, and the answer is cached briefly', async () => {
    const local = await localServer();
    const { ctx, store } = await setup(local.url);
    expect((await pickProfile(ctx, await task(store))).id).toBe('local.small');
    expect((await pickProfile(ctx, await task(store))).id).toBe('local.small');
    expect(local.hits()).toBe(1);
  });

  it("a task's own model without a key fails naming that profile and its key variable; a dead chosen local server says so", async () => {
    const base = `http://127.0.0.1:${await closedPort()}/v1`;
    const { ctx, store } = await setup(base);
    await expect(pickProfile(ctx, await task(store, 'general', 'cloud.fast'))).rejects.toMatchObject({
      name: 'MissingApiKeyError',
      code: 'missing_api_key',
      message: expect.stringMatching(/^This task's model Cloud Fast \(cloud\.fast\) has no API key: open Settings → Models and add a key for CLOUD_API_KEY/) as unknown,
    });
    await expect(pickProfile(ctx, await task(store, 'general', 'local.small'))).rejects.toMatchObject({
      name: 'ProviderUnreachableError',
      code: 'provider_unreachable',
      message: expect.stringContaining(`runs on ${base}, which did not answer`) as unknown,
    });
  });

  it('an unusable Settings default is named rather than silently replaced', async () => {
    const local = await localServer();
    const { ctx, store } = await setup(local.url);
    await store.settings.set('default_model', 'cloud.fast');
    await expect(pickProfile(ctx, await task(store))).rejects.toThrow(/The default model Cloud Fast \(cloud\.fast\) has no API key.*Settings → General/);
  });
});

describe('reachability cache', () => {
  it('asks once for concurrent callers, trusts the answer for its time, then asks again', async () => {
    const local = await localServer();
    let now = 0;
    const reach = createReachability({ upTtlMs: 1000, now: () => now });
    expect(await Promise.all([reach.isReachable(local.url), reach.isReachable(local.url)])).toEqual([true, true]);
    expect(local.hits()).toBe(1);
    now = 999;
    await reach.isReachable(local.url);
    expect(local.hits()).toBe(1);
    now = 1000;
    await reach.isReachable(local.url);
    expect(local.hits()).toBe(2);
  });

  it('a server that accepts but never answers counts as down after the timeout', async () => {
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => {
      silent.closeAllConnections();
      return new Promise((resolve) => silent.close(() => resolve(undefined)));
    });
    const reach = createReachability({ timeoutMs: 200 });
    const started = Date.now();
    expect(await reach.isReachable(`http://127.0.0.1:${(silent.address() as { port: number }).port}/v1`)).toBe(false);
    expect(Date.now() - started).toBeLessThan(1500);
  });
});
