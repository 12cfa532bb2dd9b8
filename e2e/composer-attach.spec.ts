// Attaching from the composer: the files go into the task's folder at once, show as chips until
// sent, and the message names them. The button works from the keyboard like any other.
import { createTask, expect, test } from './support/fixtures';
import { recordedRequests, scriptModel } from './support/fake-model';

test('files attached in the composer are added to the task and named in the message', async ({ page, folio }) => {
  await page.goto(folio.appUrl);
  await createTask(page, 'general');
  const input = page.getByTestId('composer-input');
  await input.fill('Summarise the notes');

  // From the keyboard: Tab from the message box reaches the attach button, Enter opens the picker.
  await input.press('Tab');
  const attach = page.getByTestId('composer-attach');
  await expect(attach).toBeFocused();
  const chooser = page.waitForEvent('filechooser');
  await page.keyboard.press('Enter');
  await (await chooser).setFiles([
    { name: 'notes.md', mimeType: 'text/markdown', buffer: Buffer.from('# Notes\nThe pilot ran for six weeks.\n') },
    { name: '数据.csv', mimeType: 'text/csv', buffer: Buffer.from('week,count\n1,3\n') },
  ]);
  const chips = page.getByTestId('attachment-chip');
  await expect(chips).toHaveCount(2);
  await expect(chips.first()).toHaveAttribute('data-path', 'source/notes.md');
  await expect(page.getByTestId('file-group-source').locator('[data-testid="file-item"][data-path="source/notes.md"]')).toHaveCount(1);

  // Removed from the message, the file stays in the folder.
  await chips.nth(1).getByTestId('attachment-remove').click();
  await expect(chips).toHaveCount(1);
  await expect(page.getByTestId('file-group-source').getByTestId('file-item')).toHaveCount(2);

  await scriptModel([{ text: 'Six weeks.' }]);
  await input.press('Enter');
  const chat = page.getByTestId('chat-view');
  await expect(chat.getByTestId('user-message')).toContainText('Attached: source/notes.md');
  await expect(chat.getByTestId('run-footer')).toHaveAttribute('data-run-status', 'done');
  await expect(chips).toHaveCount(0);
  const last = (await recordedRequests()).at(-1) as { body: { messages: { role: string; content: unknown }[] } };
  const asked = last.body.messages.filter((m) => m.role === 'user').map((m) => JSON.stringify(m.content)).join('\n');
  expect(asked).toContain('Summarise the notes');
  expect(asked).toContain('Attached: source/notes.md');
});
