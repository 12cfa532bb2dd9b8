import { type Page } from '@playwright/test';
import { createTask, expect, openTask, test } from './support/fixtures';
import { scriptModel } from './support/fake-model';
import { startFolio, stopFolio } from './support/folio-server';

const question = 'Please greet me';
const reply = 'Hello from the model';

async function expectConversation(page: Page, taskId: string): Promise<void> {
  await expect(page.locator(`[data-testid="task-item"][data-task-id="${taskId}"]`)).toBeVisible();
  await openTask(page, taskId);
  const chat = page.getByTestId('chat-view');
  await expect(chat.getByTestId('user-message')).toHaveText(question);
  await expect(chat.getByTestId('assistant-message')).toContainText(reply);
  await expect(chat.getByTestId('run-footer')).toHaveAttribute('data-run-status', 'done');
}

test('a conversation streams, then survives a page reload and a server restart', async ({ page, folio }) => {
  await scriptModel([{ text: reply }]);
  await page.goto(folio.appUrl);
  // The token must not linger in the address bar once the app has it.
  await expect(page).toHaveURL((url) => !url.search.includes('token='));

  const taskId = await createTask(page, 'general');
  const input = page.getByTestId('composer-input');
  await input.fill(question);
  await input.press('Enter');

  const chat = page.getByTestId('chat-view');
  await expect(chat.getByTestId('user-message')).toHaveText(question);
  await expect(chat.getByTestId('assistant-message')).toContainText(reply);
  // Finished: the live draft was replaced by the persisted messages and the run's footer.
  await expect(chat).toHaveAttribute('data-running', 'false');
  await expect(chat.getByTestId('run-footer')).toHaveAttribute('data-run-status', 'done');
  await expect(input).toBeEnabled();
  await expect(input).toHaveValue('');

  await page.reload();
  await expectConversation(page, taskId);

  await stopFolio();
  await startFolio(folio.dataDir, folio.port);
  await page.reload();
  await expectConversation(page, taskId);
});
