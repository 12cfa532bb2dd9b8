// The embedding profile through the service: stored without its key, the key in the key
// store and never in settings or the database, the Test button against the fake /embeddings, and
// the embedder library search gets.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI } from '../../../testing/fake-openai/server';
import { contract } from '../../shared/contract';
import { findResourcesDir } from '../config/app-paths';
import { makeDataDir, TEST_KEY } from '../service/core-test-kit';
import { openTestStorePort, testStoreContains } from '../store/test-store.test-support';
import { createCore, type Core } from '../service/create-core';
import { addLibraryFile, addProject } from '../library/testing';
import { searchLibrary } from '../library/search';
import { createLibraryBackfill, resolveEmbedder } from './embedding-settings';

const KEY = 'sk-embed-secret-9876';
let fake: FakeOpenAI;
const cores: Core[] = [];
beforeAll(async () => {
  fake = await startFakeOpenAI();
});
afterAll(async () => fake.close());
afterEach(async () => {
  for (const c of cores.splice(0)) await c.close().catch(() => undefined);
  fake.reset();
});

async function open(): Promise<Core> {
  const dataDir = makeDataDir(fake.url);
  const core = await createCore({ dataDir, resourcesDir: findResourcesDir(), env: { FAKE_API_KEY: TEST_KEY, PATH: process.env.PATH }, store: await openTestStorePort(dataDir) });
  cores.push(core);
  return core;
}

describe('embedding settings', () => {
  it('stores the profile, keeps the key in the key store, tests the endpoint and builds the embedder', async () => {
    const core = await open();
    expect((await core.handlers.getSettings({})).embedding).toBeUndefined();
    expect(await resolveEmbedder(core.ctx)).toBeNull();
    expect(await core.handlers.testEmbedding({})).toEqual({ ok: false, message: 'No embedding profile is configured.', dimensions: null });
    // A key can be stored only under the variable a configured profile reads.
    await expect(core.handlers.setApiKey({ env: 'FOLIO_EMBEDDING_API_KEY', key: KEY })).rejects.toThrow(/embedding profile/u);

    const set = await core.handlers.updateSettings({ embedding: { base_url: fake.url, model: 'fake-embed', dimensions: 64 } });
    expect(set.embedding).toEqual({ base_url: fake.url, model: 'fake-embed', dimensions: 64, api_key_env: 'FOLIO_EMBEDDING_API_KEY', has_key: false });
    await core.handlers.setApiKey({ env: 'FOLIO_EMBEDDING_API_KEY', key: KEY });
    const after = await core.handlers.getSettings({});
    expect(after.embedding?.has_key).toBe(true);
    expect(JSON.stringify(after)).not.toContain(KEY);
    expect(await testStoreContains(core.dataDir, KEY)).toBe(false);

    expect(await core.handlers.testEmbedding({})).toEqual({ ok: true, message: null, dimensions: 64 });
    expect(fake.requests.at(-1)).toMatchObject({ path: '/v1/embeddings', authLast4: '9876' });
    fake.scriptEmbeddings([{ fault: 'status', status: 500 }]);
    const failed = await core.handlers.testEmbedding({});
    expect(failed).toMatchObject({ ok: false, dimensions: null });
    expect(failed.message).toMatch(/500/u);

    // The form's profile is tried unsaved: a failing endpoint reports why and leaves the stored one.
    const unsaved = await core.handlers.testEmbedding({ embedding: { base_url: 'http://127.0.0.1:9/v1', model: 'other-embed' } });
    expect(unsaved).toMatchObject({ ok: false, dimensions: null });
    expect((await core.handlers.getSettings({})).embedding).toMatchObject({ base_url: fake.url, model: 'fake-embed' });
    // A typed key is used for that test only, and a working form's profile answers.
    expect(await core.handlers.testEmbedding({ embedding: { base_url: fake.url, model: 'fake-embed', dimensions: 64 }, key: 'sk-typed-1234' })).toEqual({ ok: true, message: null, dimensions: 64 });
    expect(fake.requests.at(-1)).toMatchObject({ path: '/v1/embeddings', authLast4: '1234' });
    expect(await testStoreContains(core.dataDir, 'sk-typed-1234')).toBe(false);

    expect((await resolveEmbedder(core.ctx))?.model).toBe('fake-embed@64');
    expect((await core.handlers.updateSettings({ embedding: null })).embedding).toBeUndefined();
    expect(await resolveEmbedder(core.ctx)).toBeNull();
  });

  it("the core's backfill embeds the library with the configured profile, and search goes hybrid", async () => {
    const core = await open();
    const store = core.ctx.store;
    const project = await addProject(store, 'papers');
    await addLibraryFile(store, project, 'rag.pdf', ['检索增强生成把检索结果交给生成模型。', 'Linkers resolve symbols at build time.']);
    await core.backfill.idle();
    expect(core.backfill.status().embedded).toBe(0);
    expect((await core.handlers.searchLibrary({ project_id: project, q: '检索增强' })).mode).toBe('text');

    // Setting a profile is enough: the core kicks its backfill, and the contract's search uses it.
    await core.handlers.updateSettings({ embedding: { base_url: fake.url, model: 'fake-embed' } });
    await core.backfill.idle();
    expect(core.backfill.status()).toMatchObject({ embedded: 2, error: null });
    const r = await core.handlers.searchLibrary({ project_id: project, q: '检索增强', limit: 5 });
    expect(r.mode).toBe('hybrid');
    expect(r.hits[0]).toMatchObject({ path: 'rag.pdf', page: 1, matched_by: 'both' });
    // The function the backfill is built from gives the same embedder as the core's settings.
    expect((await searchLibrary(store, { libraries: [project], query: '检索增强', limit: 5 }, await resolveEmbedder(core.ctx))).mode).toBe('hybrid');
    const again = createLibraryBackfill(core.ctx);
    again.kick();
    await again.idle();
    expect(again.status().embedded).toBe(0);
    again.stop();
  });

  it('refuses a profile that is not an http(s) URL, has no model, or carries a key', () => {
    const input = contract.updateSettings.input;
    expect(input.safeParse({ embedding: { base_url: 'file:///etc', model: 'm' } }).success).toBe(false);
    expect(input.safeParse({ embedding: { base_url: fake.url, model: ' ' } }).success).toBe(false);
    expect(input.safeParse({ embedding: { base_url: fake.url, model: 'm', api_key: 'x' } }).success).toBe(false);
  });
});
