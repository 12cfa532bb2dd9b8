// A task's reasoning setting end to end: PATCHed over HTTP /v1, carried by the run into the request
// the fake provider receives, and, for a profile that cannot reason, dropped with one visible note.
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunEvent, Task } from '../../shared/contract';
import { startFakeOpenAI, type FakeOpenAI } from '../../../testing/fake-openai/server';
import { startHttpServer, type RunningHttpServer } from '../transport/http';
import { collect, fakeModelsYaml, makeCore, makeDataDir } from './core-test-kit';
import type { Core } from './create-core';

const TOKEN = 'test-token-reasoning-0123456789';
let fake: FakeOpenAI;
let dataDir: string;
let core: Core;
let srv: RunningHttpServer;

beforeAll(async () => {
  fake = await startFakeOpenAI();
  // fake.main declares DeepSeek V4's capabilities; plain.main is a model that cannot reason.
  dataDir = makeDataDir(fake.url, {
    thinking_mode: 'toggle',
    reasoning_effort_levels: '[low, high, max]',
    reasoning_effort: 'high',
    reasoning_effort_for: '{max: max}',
  });
  writeFileSync(join(dataDir, 'models', 'plain.yaml'), fakeModelsYaml(fake.url));
  core = await makeCore(dataDir);
  srv = await startHttpServer(core, { token: TOKEN });
});
afterAll(async () => {
  await srv.close();
  await core.close();
  await fake.close();
  rmSync(dataDir, { recursive: true, force: true });
});
beforeEach(() => fake.reset());

async function api<T>(method: string, path: string, body?: unknown): Promise<{ status: number; json: T }> {
  const res = await fetch(`${srv.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, json: (await res.json()) as T };
}

/** Sends one message over HTTP and returns the run's events and the chat request the provider got. */
async function turn(taskId: string): Promise<{ events: RunEvent[]; body: Record<string, unknown> }> {
  fake.script([{ text: 'ok' }]);
  const sent = await api<{ run_id: string }>('POST', `/v1/tasks/${taskId}/messages`, { content: 'Summarise this.' });
  expect(sent.status).toBe(200);
  const events = await collect(core, taskId, sent.json.run_id);
  expect(events.at(-1)).toMatchObject({ type: 'run_finished', reason: 'done' });
  return { events, body: fake.requests.at(-1)?.body as Record<string, unknown> };
}

function reasoningFields(body: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(body).filter(([k]) => ['thinking', 'enable_thinking', 'reasoning_effort'].includes(k)));
}

describe('task reasoning over HTTP /v1', () => {
  it('PATCH sets it, each run sends what the profile declares, and a profile that cannot reason says so once', async () => {
    const created = await api<Task>('POST', '/v1/tasks', { mode: 'proposal' });
    expect(created.json.reasoning).toBeNull();
    const id = created.json.id;

    const models = await api<{ profiles: { id: string; reasoning_modes: string[] }[] }>('GET', '/v1/models');
    const modes = Object.fromEntries(models.json.profiles.map((p) => [p.id, p.reasoning_modes]));
    expect(modes['fake.main']).toEqual(['none', 'thinking', 'max']);
    expect(modes['plain.main']).toEqual([]);

    expect((await api('PATCH', `/v1/tasks/${id}`, { reasoning: 'ultra' })).status).toBe(400);
    const patched = await api<Task>('PATCH', `/v1/tasks/${id}`, { reasoning: 'max' });
    expect(patched.json.reasoning).toBe('max');
    expect((await api<Task>('GET', `/v1/tasks/${id}`)).json.reasoning).toBe('max');

    const max = await turn(id);
    expect(reasoningFields(max.body)).toEqual({ thinking: { type: 'enabled' }, reasoning_effort: 'max' });
    expect(max.events.some((e) => e.type === 'reasoning_ignored')).toBe(false);

    await api('PATCH', `/v1/tasks/${id}`, { reasoning: 'none' });
    expect(reasoningFields((await turn(id)).body)).toEqual({ thinking: { type: 'disabled' } });

    await api('PATCH', `/v1/tasks/${id}`, { reasoning: 'thinking' });
    expect(reasoningFields((await turn(id)).body)).toEqual({ thinking: { type: 'enabled' }, reasoning_effort: 'high' });

    await api('PATCH', `/v1/tasks/${id}`, { reasoning: null });
    expect(reasoningFields((await turn(id)).body)).toEqual({ reasoning_effort: 'high' });

    // The same task on a profile that cannot reason: nothing is sent, and the run says so once.
    await api('PATCH', `/v1/tasks/${id}`, { model: 'plain.main', reasoning: 'max' });
    const plain = await turn(id);
    expect(plain.body.model).toBe('fake-model');
    expect(reasoningFields(plain.body)).toEqual({});
    const notes = plain.events.filter((e) => e.type === 'reasoning_ignored');
    expect(notes).toEqual([expect.objectContaining({ profile: 'plain.main', requested: 'max', applied: 'none' })]);
  });

  it('createTask accepts a reasoning setting', async () => {
    const created = await api<Task>('POST', '/v1/tasks', { mode: 'general', reasoning: 'thinking' });
    expect(created.status).toBe(201);
    expect(created.json.reasoning).toBe('thinking');
  });
});
