import { createTask, expect, test } from './support/fixtures';
import { scriptModel } from './support/fake-model';

test('a tool that needs approval shows its full arguments, runs after "Allow once", and its file appears', async ({ page, folio }) => {
  await scriptModel([{ toolCalls: [{ name: 'write', arguments: '{"path":"work/hello.txt","content":"hi"}' }] }, { text: 'Wrote the file.' }]);
  await page.goto(folio.appUrl);
  await createTask(page, 'general');
  // New tasks ask before every edit.
  await expect(page.getByTestId('approval-mode-picker')).toHaveValue('ask');

  const input = page.getByTestId('composer-input');
  await input.fill('Write hi into work/hello.txt');
  await input.press('Enter');

  const chat = page.getByTestId('chat-view');
  const toolCard = chat.locator('[data-testid="tool-card"][data-tool-name="write"]');
  await expect(toolCard).toBeVisible();
  await expect(toolCard).toContainText('work/hello.txt');

  const approval = chat.getByTestId('approval-card');
  await expect(approval).toHaveCount(1);
  await expect(approval).toContainText('Write a file');
  await expect(approval).toContainText('work/hello.txt');
  // The content to be written is visible, as text, before deciding.
  await expect(approval.getByTestId('approval-content')).toHaveText('hi');
  await expect(page.getByTestId('file-group-work').getByTestId('file-item')).toHaveCount(0);

  await approval.getByTestId('approval-allow-once').click();
  await expect(chat.getByTestId('approval-card')).toHaveCount(0);

  await expect(toolCard.getByTestId('tool-summary')).toHaveText('Saved work/hello.txt.');
  await expect(toolCard.getByTestId('tool-result')).not.toHaveClass(/error/);
  await expect(chat.getByTestId('assistant-message').last()).toContainText('Wrote the file.');
  await expect(chat.getByTestId('run-footer').last()).toHaveAttribute('data-run-status', 'done');

  const written = page.getByTestId('file-group-work').locator('[data-testid="file-item"][data-path="work/hello.txt"]');
  await expect(written).toHaveCount(1);
  await expect(written).toContainText('2 B');
});
