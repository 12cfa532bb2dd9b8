// `folio`: a running Folio server for this worker, with the fake model as its default.
import { expect, type Page, test as base } from '@playwright/test';
import type { TaskMode } from '../../src/shared/contract';
import { resetModel } from './fake-model';
import { folioApi, type FolioServer, startFolio, stopFolio } from './folio-server';

export const test = base.extend<{ resetFakeModel: undefined }, { folio: FolioServer }>({
  folio: [
    async ({}, use) => {
      const dataDir = process.env.FOLIO_E2E_DATA_DIR;
      if (!dataDir) throw new Error('FOLIO_E2E_DATA_DIR is not set; is the e2e global setup running?');
      const server = await startFolio(dataDir);
      await folioApi(server, 'PATCH', '/v1/settings', { default_model: 'fake.chat', language: 'system' });
      await use(server);
      await stopFolio();
    },
    { scope: 'worker' },
  ],
  resetFakeModel: [
    async ({}, use) => {
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
