import { createTask, expect, test } from './support/fixtures';
import { scriptModel } from './support/fake-model';

test('a corrupt PDF shows a clear error in the files panel and the task goes on', async ({ page, folio }) => {
  // The model tries to read the broken file, then carries on without it.
  await scriptModel([{ toolCalls: [{ name: 'read', arguments: '{"path":"source/broken.pdf"}' }] }, { text: 'The PDF is damaged; I will work from your notes instead.' }]);
  await page.goto(folio.appUrl);
  await createTask(page, 'proposal');

  await page.getByTestId('file-input').setInputFiles({ name: 'broken.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4 garbage') });
  const item = page.locator('[data-testid="file-item"][data-path="source/broken.pdf"]');
  await expect(item).toHaveCount(1);
  await expect(item.getByTestId('source-status')).toBeVisible();

  const input = page.getByTestId('composer-input');
  await input.fill('Summarise my sources');
  await input.press('Enter');
  const chat = page.getByTestId('chat-view');
  await expect(chat.getByTestId('assistant-message').last()).toContainText('The PDF is damaged; I will work from your notes instead.');
  await expect(chat.getByTestId('run-footer').last()).toHaveAttribute('data-run-status', 'done');

  await expect(item.getByTestId('source-status')).toHaveAttribute('data-status', 'error');
  const message = item.getByTestId('source-error');
  // The extractor's own words (e.g. "corrupt or truncated PDF"), not a generic failure.
  await expect(message).toContainText(/pdf/i);

  // The task still works after the failure.
  await scriptModel([{ text: 'Still here.' }]);
  await input.fill('Are you still there?');
  await input.press('Enter');
  await expect(chat.getByTestId('assistant-message').last()).toContainText('Still here.');
});
