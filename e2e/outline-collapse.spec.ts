// The outline panel as the person left it: approved, it folds away so the chat shows the run, and it
// stays folded when the task is opened again and after a reload; opened by the person, it stays open.
import { createTask, expect, openTask, test } from './support/fixtures';
import { scriptModel } from './support/fake-model';
import { expectRunsDone, sendMessage } from './support/flows';

const outline = {
  slides: [
    { title: 'Urban heat islands', layout: 'title' },
    { title: 'Cities run 2.5 °C hotter', layout: 'bullets', points: ['12 stations'] },
    { title: 'Thank you', layout: 'closing' },
  ],
};

test('an approved outline stays folded when its task is reopened and after a reload; opened again, it stays open', async ({ page, folio }) => {
  await scriptModel([{ toolCalls: [{ name: 'propose_outline', arguments: JSON.stringify(outline) }] }]);
  await page.goto(folio.appUrl);
  const deckTask = await createTask(page, 'ppt');
  await sendMessage(page, 'Three slides on urban heat islands');
  await expectRunsDone(page, 1);
  const panel = page.getByTestId('outline-panel');
  const toggle = panel.getByTestId('outline-toggle');
  await expect(panel).toHaveAttribute('data-status', 'proposed');
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');

  await scriptModel([{ text: 'I will write the deck from this outline.' }]);
  await panel.getByTestId('outline-approve').click();
  await expectRunsDone(page, 2);
  await expect(panel).toHaveAttribute('data-status', 'approved');
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await expect(panel.getByTestId('outline-row')).toHaveCount(0);

  // Another task, then back: still folded.
  const other = await createTask(page, 'general');
  expect(other).not.toBe(deckTask);
  await openTask(page, deckTask);
  await expect(panel).toHaveAttribute('data-status', 'approved');
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await page.reload();
  await expect(page.getByTestId('chat-view')).toHaveAttribute('data-task-id', deckTask);
  await expect(panel).toHaveAttribute('data-status', 'approved');
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');

  // The person opens it: that choice is the one kept, across a reopen and a reload.
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  await openTask(page, other);
  await openTask(page, deckTask);
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  await page.reload();
  await expect(page.getByTestId('chat-view')).toHaveAttribute('data-task-id', deckTask);
  await expect(panel).toHaveAttribute('data-status', 'approved');
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
});
