// The composer's unsent text is the person's work: it stays with its task through a reload and a
// switch to another task, and goes once sent.
import { createTask, expect, openTask, test } from './support/fixtures';
import { scriptModel } from './support/fake-model';

test('an unsent draft is kept per task across a reload, and cleared once sent', async ({ page, folio }) => {
  await page.goto(folio.appUrl);
  const input = page.getByTestId('composer-input');
  const first = await createTask(page, 'general');
  const kept = '请总结第三章的要点，\nthen list the open questions';
  await input.fill(kept);
  const second = await createTask(page, 'general');
  await expect(input).toHaveValue('');
  await input.fill('A second draft');

  await page.reload();
  await openTask(page, first);
  await expect(input).toHaveValue(kept);
  await openTask(page, second);
  await expect(input).toHaveValue('A second draft');

  await scriptModel([{ text: 'Noted.' }]);
  await input.press('Enter');
  await expect(page.getByTestId('chat-view').getByTestId('run-footer')).toHaveAttribute('data-run-status', 'done');
  await expect(input).toHaveValue('');

  await page.reload();
  await openTask(page, second);
  await expect(input).toHaveValue('');
  await openTask(page, first);
  await expect(input).toHaveValue(kept);
});
