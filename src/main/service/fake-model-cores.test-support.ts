// The lifecycle every core-level test file shares: one fake OpenAI-compatible server for the file,
// cores opened against it and closed after each test, the fake's script and request log reset.
import { afterAll, afterEach, beforeAll } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI } from '../../../testing/fake-openai/server';
import { makeCore, makeDataDir } from './core-test-kit';
import type { Core } from './create-core';

export interface FakeModelCores {
  /** A core on `dataDir` (default: a fresh data folder whose profile points at the fake), closed after the test. */
  open: (dataDir?: string, env?: NodeJS.ProcessEnv) => Promise<Core>;
  /** Closes `core` now (a test that restarts the app), so it is not closed again after the test. */
  closeNow: (core: Core) => Promise<void>;
}

/** Registers the hooks; `onFake` receives the server once it listens (before the first test). */
export function useFakeModelCores(onFake: (fake: FakeOpenAI) => void): FakeModelCores {
  let fake: FakeOpenAI | undefined;
  const cores: Core[] = [];
  beforeAll(async () => {
    fake = await startFakeOpenAI();
    onFake(fake);
  });
  afterAll(async () => {
    await fake?.close();
  });
  afterEach(async () => {
    for (const c of cores.splice(0)) await c.close().catch(() => undefined);
    fake?.reset();
  });
  const open = async (dataDir?: string, env?: NodeJS.ProcessEnv): Promise<Core> => {
    if (!fake) throw new Error('the fake model server is not started yet: open cores inside tests');
    const core = await makeCore(dataDir ?? makeDataDir(fake.url), env);
    cores.push(core);
    return core;
  };
  const closeNow = async (core: Core): Promise<void> => {
    cores.splice(cores.indexOf(core), 1);
    await core.close();
  };
  return { open, closeNow };
}
