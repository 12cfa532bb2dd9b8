// The embedding client, the backfill and hybrid search against the fake OpenAI server's /embeddings
// (real HTTP; deterministic n-gram vectors; scripted 429/500/stall faults); the backfill and hybrid
// search on each store (SQLite, and PostgreSQL where it is installed).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI } from '../../../testing/fake-openai/server';
import { createEmbeddingBackfill } from './backfill';
import { createEmbedder, EmbeddingError, embeddingSpace, type EmbeddingProfile } from './embeddings';
import { cosine } from './rank';
import { searchLibrary } from './search';
import type { StorePort } from '../store/port';
import { freshStoreEach, portBackends } from '../store/port-backends.test-support';
import { addLibraryFile, addProject } from './testing';

let fake: FakeOpenAI;
beforeAll(async () => {
  fake = await startFakeOpenAI();
});
afterAll(async () => fake.close());
afterEach(() => fake.reset());

const profile = (over: Partial<EmbeddingProfile> = {}): EmbeddingProfile => ({ baseUrl: fake.url, model: 'fake-embed', apiKey: 'sk-test-1234', dimensions: null, ...over });

describe('createEmbedder', () => {
  it('embeds a batch in order, sends the key and dimensions, and related texts are closer', async () => {
    const embedder = createEmbedder(profile({ dimensions: 64 }), { outbound: null });
    expect(embedder.model).toBe('fake-embed@64');
    const [a, b, c] = await embedder.embed(['检索增强生成', '检索增强的生成方法', 'compiler optimisation flags']);
    expect(a).toHaveLength(64);
    expect(cosine(a, b)).toBeGreaterThan(cosine(a, c) + 0.3);
    const req = fake.requests.at(-1);
    expect(req?.path).toBe('/v1/embeddings');
    expect(req?.authLast4).toBe('1234');
    expect(req?.body).toMatchObject({ model: 'fake-embed', dimensions: 64, input: ['检索增强生成', '检索增强的生成方法', 'compiler optimisation flags'] });
  });

  it('turns 429, 500 and a stall into typed errors', async () => {
    const embedder = createEmbedder(profile(), { timeoutMs: 300, outbound: null });
    fake.scriptEmbeddings([{ fault: 'status', status: 429 }, { fault: 'status', status: 500 }, { fault: 'stall' }]);
    await expect(embedder.embed(['x'])).rejects.toMatchObject({ name: 'EmbeddingError', kind: 'rate_limited', status: 429 });
    await expect(embedder.embed(['x'])).rejects.toMatchObject({ kind: 'http', status: 500 });
    const stalled = await embedder.embed(['x']).catch((e: unknown) => e);
    expect(stalled).toBeInstanceOf(EmbeddingError);
    expect((stalled as EmbeddingError).kind).toBe('timeout');
    await expect(createEmbedder(profile({ baseUrl: 'http://127.0.0.1:9/v1' }), { outbound: null }).embed(['x'])).rejects.toMatchObject({ kind: 'network' });
  });

  it('names the vector space by model and dimensions', () => {
    expect(embeddingSpace({ model: 'm', dimensions: null })).toBe('m');
    expect(embeddingSpace({ model: 'm', dimensions: 256 })).toBe('m@256');
  });
});

describe.each(portBackends.map((b) => [b.name, b] as const))('embedding backfill and hybrid search on %s', (_name, backend) => {
  const skip = backend.skip() !== null;
  let port: StorePort;
  let project: string;
  const store = freshStoreEach(backend, async (opened) => {
    port = opened.port;
    project = await addProject(port, 'A');
    const pages = Array.from({ length: 70 }, (_, i) => `第 ${i} 页：关于编译器优化与链接的说明，page ${i} about linkers.`);
    pages[41] = '本章介绍检索增强的生成方法，以及召回与重排序。';
    pages[42] = '检索增强生成（RAG）把检索结果交给生成模型。';
    await addLibraryFile(port, project, 'book.pdf', pages);
    await addLibraryFile(port, project, 'blank.pdf', ['   ']);
  });
  // The model names are the test's own constants, so the SQL reads the same in both dialects.
  const embedded = async (model: string) => Number(await store().scalar(`SELECT count(*) FROM library_pages WHERE embedding IS NOT NULL AND embedding_model = '${model}'`));

  it.skipIf(skip)('embeds every page with text in batches, resumes where it stopped, and re-embeds for a new model', async () => {
    const embedder = createEmbedder(profile(), { outbound: null });
    const backfill = createEmbeddingBackfill(port, () => embedder, { batchSize: 16, retryMs: 60_000 });
    // The third batch fails: the first two stay stored and the retry is scheduled, not immediate.
    let calls = 0;
    const flaky = { model: embedder.model, embed: async (t: string[], s?: AbortSignal) => (++calls === 3 ? Promise.reject(new EmbeddingError('http', 'boom', 500)) : embedder.embed(t, s)) };
    const first = createEmbeddingBackfill(port, () => flaky, { batchSize: 16, retryMs: 60_000 });
    first.kick();
    await first.idle();
    expect(first.status().error).toBe('boom');
    expect(await embedded('fake-embed')).toBe(32);
    first.stop();

    const before = fake.requests.length;
    backfill.kick();
    await backfill.idle();
    expect(backfill.status()).toMatchObject({ error: null, embedded: 38 });
    expect(await embedded('fake-embed')).toBe(70);
    // 38 pages in batches of 16: three requests, none for the pages already done or the blank one.
    expect(fake.requests.length - before).toBe(3);

    const other = createEmbedder(profile({ dimensions: 32 }), { outbound: null });
    const second = createEmbeddingBackfill(port, () => other, { batchSize: 64 });
    second.kick();
    await second.idle();
    expect(await embedded('fake-embed@32')).toBe(70);
    expect(await embedded('fake-embed')).toBe(0);
  });

  it.skipIf(skip)('fuses text and semantic rankings (RRF), and answers with text alone when the endpoint fails', async () => {
    const embedder = createEmbedder(profile(), { timeoutMs: 300, outbound: null });
    const backfill = createEmbeddingBackfill(port, () => embedder);
    backfill.kick();
    await backfill.idle();

    // No page has the exact string; the text ranking finds nothing, the vectors find both RAG pages.
    const semantic = await searchLibrary(port, { libraries: [project], query: '检索增强生成方法', limit: 5 }, embedder);
    expect(semantic.mode).toBe('hybrid');
    expect(semantic.note).toBeNull();
    expect(semantic.hits.slice(0, 2).map((h) => h.page).sort()).toEqual([42, 43]);
    expect(semantic.hits[0]?.matched_by).toBe('semantic');

    const both = await searchLibrary(port, { libraries: [project], query: '检索增强生成', limit: 5 }, embedder);
    expect(both.hits[0]).toMatchObject({ page: 43, matched_by: 'both' });
    expect(both.hits[0]?.highlights.length).toBeGreaterThan(0);
    expect(both.hits[0].score).toBeGreaterThan(both.hits[1].score);

    for (const fault of [{ fault: 'status', status: 500 } as const, { fault: 'stall' } as const]) {
      fake.scriptEmbeddings([fault]);
      const fallback = await searchLibrary(port, { libraries: [project], query: '检索增强生成', limit: 5 }, embedder);
      expect(fallback.mode).toBe('text');
      expect(fallback.note).toMatch(/Semantic search failed/u);
      expect(fallback.hits.map((h) => [h.page, h.matched_by])).toEqual([[43, 'text']]);
    }
  });

  it.skipIf(skip)('says so when no page has a vector for the model yet', async () => {
    const r = await searchLibrary(port, { libraries: [project], query: '检索增强生成', limit: 5 }, createEmbedder(profile(), { outbound: null }));
    expect(r.mode).toBe('text');
    expect(r.note).toMatch(/No page has an embedding/u);
    expect(r.hits.map((h) => h.page)).toEqual([43]);
  });
});

describe('embedding errors', () => {
  it('never carry the key, even when the endpoint echoes it', async () => {
    const key = 'sk-echoed-secret-5555';
    fake.scriptEmbeddings([{ fault: 'status', status: 401, body: { error: { message: `Incorrect API key provided: ${key}` } } }]);
    const err = (await createEmbedder(profile({ apiKey: key }), { outbound: null }).embed(['x']).catch((e: unknown) => e)) as EmbeddingError;
    expect(err.kind).toBe('http');
    expect(err.message).toContain('Incorrect API key provided');
    expect(err.message).not.toContain(key);
  });
});
