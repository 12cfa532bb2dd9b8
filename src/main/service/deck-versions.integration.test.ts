// One-slide changes and deck versions through the service, with the fake model driving the agent:
// a deck is rendered from a spec file (ids written back), a person asks for a change to slide s2
// with the slide context, the agent edits s2 and renders v2, the versions say s2 changed, and going
// back to v1 writes its spec back and renders v3 without touching v1 or v2.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI } from '../../../testing/fake-openai/server';
import { SOFFICE_ENV } from '../renderers/soffice';
import { taskDir } from '../workspace/layout';
import { findResourcesDir } from '../config/app-paths';
import { createChatModel } from '../llm/openai-chat-model';
import { collect, makeDataDir, TEST_KEY } from './core-test-kit';
import { openTestStorePort } from '../store/test-store.test-support';
import { createCore, type Core } from './create-core';

let fake: FakeOpenAI;
let core: Core | undefined;
const savedSoffice = process.env[SOFFICE_ENV];

beforeAll(async () => {
  fake = await startFakeOpenAI();
  // About versions, not LibreOffice: the rendered check is skipped (reports are estimates).
  process.env[SOFFICE_ENV] = '/nonexistent/soffice';
});
afterAll(async () => {
  await fake.close();
  if (savedSoffice === undefined) delete process.env[SOFFICE_ENV];
  else process.env[SOFFICE_ENV] = savedSoffice;
});
afterEach(async () => {
  await core?.close().catch(() => undefined);
  fake.reset();
});

const spec = {
  title: 'Field Study',
  slides: [
    { layout: 'title' },
    { layout: 'bullets', title: 'Findings', bullets: ['Sample size grew to 42', 'Response rate 81%'] },
    { layout: 'closing' },
  ],
};

function writeAndRender(content: unknown) {
  return [
    { toolCalls: [{ name: 'write', arguments: JSON.stringify({ path: 'work/deck.json', content: JSON.stringify(content, null, 2) }) }] },
    { toolCalls: [{ name: 'render_deck', arguments: JSON.stringify({ spec_path: 'work/deck.json', name: 'field-study' }) }] },
    { text: 'Done.' },
  ];
}

/** The text of the last user message the model was sent. */
function lastUserMessage(): string {
  const body = fake.requests[fake.requests.length - 1]?.body as { messages: { role: string; content: string }[] };
  return [...body.messages].reverse().find((m) => m.role === 'user')?.content ?? '';
}

describe('deck versions and one-slide changes', () => {
  it('renders, changes one slide from the preview context, lists the versions and goes back to the first', async () => {
    // A lenient stream watchdog: on a loaded machine a retry would take the next scripted reply.
    const dataDir = makeDataDir(fake.url);
    core = await createCore({
      dataDir,
      store: await openTestStorePort(dataDir),
      resourcesDir: findResourcesDir(),
      env: { FAKE_API_KEY: TEST_KEY, PATH: process.env.PATH },
      createModel: (profile, key, outbound) => createChatModel(profile, key, { baseDelayMs: 5, idleTimeoutMs: 10_000, maxRetries: 0, outbound }),
    });
    await core.ctx.store.settings.set('default_model', 'fake.main');
    const task = await core.handlers.createTask({ mode: 'ppt' });
    await core.handlers.updateTask({ task_id: task.id, approval_mode: 'auto-edit' });
    const root = taskDir(core.ctx.dataDir, task.id);

    fake.script(writeAndRender(spec));
    let run = await core.handlers.sendMessage({ task_id: task.id, content: 'Make the deck' });
    expect((await collect(core, task.id, run.run_id)).pop()).toMatchObject({ type: 'run_finished', reason: 'done' });
    // The spec file now carries the ids render_deck gave its slides.
    const written = JSON.parse(readFileSync(join(root, 'work/deck.json'), 'utf8')) as { slides: { id: string }[] };
    expect(written.slides.map((s) => s.id)).toEqual(['s1', 's2', 's3']);

    // A selected slide that is not in the deck is refused before any run starts.
    await expect(
      core.handlers.sendMessage({ task_id: task.id, content: 'shorter', context: { artifact_path: 'artifacts/field-study.pptx', spec_path: 'work/deck.json', slides: [{ id: 's9', number: 9 }] } }),
    ).rejects.toMatchObject({ code: 'invalid_input' });

    const edited = structuredClone(written) as typeof spec & { slides: { id: string }[] };
    edited.slides[1] = { id: 's2', layout: 'chart', title: 'Findings', chart: { type: 'column', categories: ['2023', '2024'], series: [{ name: 'Samples', values: [30, 42] }] } } as never;
    fake.script(writeAndRender(edited));
    run = await core.handlers.sendMessage({
      task_id: task.id,
      content: 'make this a chart',
      context: { artifact_path: 'artifacts/field-study.pptx', spec_path: 'work/deck.json', slides: [{ id: 's2', number: 2 }] },
    });
    expect((await collect(core, task.id, run.run_id)).pop()).toMatchObject({ type: 'run_finished', reason: 'done' });
    const asked = fake.requests.map((r) => JSON.stringify(r.body)).find((b) => b.includes('make this a chart')) ?? '';
    expect(asked).toContain('Change only slide s2 (slide 2) of work/deck.json (rendered as artifacts/field-study.pptx): make this a chart');
    expect(asked).toContain('keep every other slide and every slide id exactly as it is');
    // render_deck told the model what changed.
    const result = await core.handlers.listMessages({ task_id: task.id });
    const renderResult = result.messages.filter((m) => m.role === 'tool' && m.name === 'render_deck').pop();
    expect(renderResult?.content).toContain('Version 2 of this deck, compared with the previous version: changed s2 (slide 2); 2 slides unchanged.');
    expect(lastUserMessage()).toContain('make this a chart');

    let { versions } = await core.handlers.listDeckVersions({ task_id: task.id, path: 'artifacts/field-study-v2.pptx' });
    expect(versions.map((v) => [v.path, v.version, v.spec_path])).toEqual([
      ['artifacts/field-study.pptx', 1, 'work/deck.json'],
      ['artifacts/field-study-v2.pptx', 2, 'work/deck.json'],
    ]);
    expect(versions[1]?.slides.map((s) => [s.id, s.change])).toEqual([
      ['s1', 'unchanged'],
      ['s2', 'changed'],
      ['s3', 'unchanged'],
    ]);
    expect(versions[0]?.slides.every((s) => s.change === 'added')).toBe(true);

    const v1 = readFileSync(join(root, 'artifacts/field-study.pptx'));
    const v2 = readFileSync(join(root, 'artifacts/field-study-v2.pptx'));
    const restored = await core.handlers.restoreDeckVersion({ task_id: task.id, path: 'artifacts/field-study.pptx' });
    expect(restored).toEqual({ path: 'artifacts/field-study-v3.pptx', spec_path: 'work/deck.json' });
    // The spec file holds version 1's spec again (with its ids), so the agent's next edit starts there.
    const back = JSON.parse(readFileSync(join(root, 'work/deck.json'), 'utf8')) as { slides: { id: string; layout: string }[] };
    expect(back.slides.map((s) => [s.id, s.layout])).toEqual([
      ['s1', 'title'],
      ['s2', 'bullets'],
      ['s3', 'closing'],
    ]);
    // Nothing was overwritten.
    expect(readFileSync(join(root, 'artifacts/field-study.pptx')).equals(v1)).toBe(true);
    expect(readFileSync(join(root, 'artifacts/field-study-v2.pptx')).equals(v2)).toBe(true);

    ({ versions } = await core.handlers.listDeckVersions({ task_id: task.id, path: 'artifacts/field-study.pptx' }));
    expect(versions).toHaveLength(3);
    expect(versions[2]).toMatchObject({ path: 'artifacts/field-study-v3.pptx', restored_from: 'artifacts/field-study.pptx' });
    expect(versions[2]?.slides.map((s) => s.change)).toEqual(['unchanged', 'changed', 'unchanged']);
    const files = await core.handlers.listFiles({ task_id: task.id });
    expect(files.files.map((f) => f.path)).toContain('artifacts/field-study-v3.pptx');
  }, 60_000);
});
