// Each Playwright worker owns what its tests run against: `fakeModel`, the scripted fake
// OpenAI-compatible server, and `folio`, a Folio server on a data folder of its own whose default
// model is that fake. Workers share nothing, so specs run side by side (playwright.config's workers).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, type Page, test as base } from '@playwright/test';
import type { TaskMode } from '../../src/shared/contract';
import { fakeProfileYaml, resetModel, startFakeModel, stopFakeModel } from './fake-model';
import { folioApi, type FolioServer, startFolio, stopFolio } from './folio-server';

export interface FakeModel {
  /** Base URL of the OpenAI-compatible API, e.g. http://127.0.0.1:41235/v1 */
  url: string;
}

export const test = base.extend<{ resetFakeModel: undefined }, { fakeModel: FakeModel; folio: FolioServer }>({
  fakeModel: [
    async ({}, use) => {
      const fake = await startFakeModel();
      // The scripting helpers (fake-model.ts) and specs that start a Folio of their own find this
      // worker's model here; each worker is its own process.
      process.env.FAKE_OPENAI_URL = fake.url;
      try {
        await use({ url: fake.url });
      } finally {
        delete process.env.FAKE_OPENAI_URL;
        await stopFakeModel(fake.started);
      }
    },
    { scope: 'worker' },
  ],
  folio: [
    async ({ fakeModel }, use, workerInfo) => {
      const dataDir = mkdtempSync(join(tmpdir(), `folio-e2e-w${workerInfo.parallelIndex}-`));
      mkdirSync(join(dataDir, 'models'), { recursive: true });
      writeFileSync(join(dataDir, 'models', 'fake.yaml'), fakeProfileYaml(fakeModel.url));
      try {
        const server = await startFolio(dataDir);
        await folioApi(server, 'PATCH', '/v1/settings', { default_model: 'fake.chat', language: 'system' });
        await use(server);
      } finally {
        await stopFolio();
        if (!process.env.FOLIO_E2E_KEEP_DATA) rmSync(dataDir, { recursive: true, force: true });
      }
    },
    { scope: 'worker' },
  ],
  resetFakeModel: [
    async ({ fakeModel: _ }, use) => {
      await resetModel();
      await use(undefined);
    },
    { auto: true },
  ],
});

export { expect };

/** Creates a task through the UI and returns its id once it is open. */
export async function createTask(page: Page, mode: TaskMode): Promise<string> {
  const before = new Set<string | null>();
  for (const item of await page.getByTestId('task-item').all()) before.add(await item.getAttribute('data-task-id'));
  await page.getByTestId('new-task').click();
  await page.getByTestId(`new-task-mode-${mode}`).click();
  // The task is selected once the server has made it and the list is reloaded: until then the task
  // that was open stays selected, so wait for a selected id the list did not have before.
  const selected = page.locator('[data-testid="task-item"][aria-current="true"]');
  let id: string | null = null;
  await expect
    .poll(async () => {
      id = (await selected.count()) === 1 ? await selected.getAttribute('data-task-id') : null;
      return id !== null && !before.has(id);
    }, { message: 'creating a task selects a new task' })
    .toBe(true);
  await expect(page.getByTestId('chat-view')).toHaveAttribute('data-task-id', id!);
  return id!;
}

export async function openTask(page: Page, taskId: string): Promise<void> {
  await page.locator(`[data-testid="task-item"][data-task-id="${taskId}"] .task-main`).click();
  await expect(page.getByTestId('chat-view')).toHaveAttribute('data-task-id', taskId);
}
