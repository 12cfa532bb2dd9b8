// Test support for the core: a data folder with a profile pointing at the project's fake
// OpenAI-compatible server, a core with tight retry timings, and event collection.
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunEvent } from '../../shared/contract';
import { findResourcesDir } from '../config/app-paths';
import { createChatModel } from '../llm/openai-chat-model';
import { openTestStorePort } from '../store/test-store.test-support';
import { createCore, type Core, type CoreOptions } from './create-core';

export const TEST_KEY = 'sk-test-secret-0123456789';

export function fakeModelsYaml(url: string, extra: Record<string, string | number> = {}): string {
  const fields = {
    name: 'Fake',
    model: 'fake-model',
    role: 'chat',
    max_context: 32000,
    reliable_context: 20000,
    max_output: 4000,
    parallel_tools: 'true',
    thinking_mode: 'none',
    max_iterations: 8,
    temperature: 0.2,
    ...extra,
  };
  const lines = Object.entries(fields).map(([k, v]) => `    ${k}: ${v}`);
  return ['provider: fake', `api_base: ${JSON.stringify(url)}`, 'api_key_env: FAKE_API_KEY', 'profiles:', '  main:', ...lines, '    price: {input: 2, output: 8}', ''].join('\n');
}

export function makeDataDir(url: string, extra: Record<string, string | number> = {}): string {
  const dataDir = mkdtempSync(join(tmpdir(), 'folio-core-'));
  mkdirSync(join(dataDir, 'models'), { recursive: true });
  writeFileSync(join(dataDir, 'models', 'fake.yaml'), fakeModelsYaml(url, extra));
  return dataDir;
}

/** A core on the test store (openTestStorePort: SQLite unless FOLIO_TEST_STORE says otherwise). */
export async function makeCore(dataDir: string, env: NodeJS.ProcessEnv = { FAKE_API_KEY: TEST_KEY, PATH: process.env.PATH }, extra: Pick<CoreOptions, 'teamPolicy'> = {}): Promise<Core> {
  const core = await createCore({
    ...extra,
    dataDir,
    resourcesDir: findResourcesDir(),
    env,
    // Short backoffs keep the retry tests fast. The idle timeout stays long: the fake server has sent
    // its scripted step by the time a silence is noticed, so a retry after a pause of a loaded
    // machine would take the next step and shift the whole script. Stalls in tests are cancelled.
    createModel: (profile, key, outbound) => createChatModel(profile, key, { baseDelayMs: 5, idleTimeoutMs: 30_000, maxRetries: 2, outbound }),
    store: await openTestStorePort(dataDir),
  });
  await core.ctx.store.settings.set('default_model', 'fake.main');
  return core;
}

/** Collects a run's events (replayed and live) until run_finished. */
export function collect(core: Core, taskId: string, runId: string): Promise<RunEvent[]> {
  return new Promise((resolve, reject) => {
    const events: RunEvent[] = [];
    let done = false;
    let unsubscribe: (() => void) | undefined;
    void core.events
      .subscribe(taskId, runId, (e) => {
        events.push(e);
        if (e.type === 'run_finished' && !done) {
          done = true;
          queueMicrotask(() => unsubscribe?.());
          resolve(events);
        }
      })
      .then((stop) => {
        unsubscribe = stop;
        if (done) stop();
      }, reject);
  });
}

export function waitForEvent(core: Core, taskId: string, runId: string, type: RunEvent['type']): Promise<RunEvent> {
  return new Promise((resolve, reject) => {
    let found = false;
    let unsubscribe: (() => void) | undefined;
    void core.events
      .subscribe(taskId, runId, (e) => {
        if (e.type === type && !found) {
          found = true;
          queueMicrotask(() => unsubscribe?.());
          resolve(e);
        }
      })
      .then((stop) => {
        unsubscribe = stop;
        if (found) stop();
      }, reject);
  });
}

/** Polls `check` every 25 ms until it holds (a child process's progress seen in files or stdout). */
export async function waitFor(check: () => boolean, timeoutMs: number): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 25));
  }
}
