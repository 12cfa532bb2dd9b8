// The built page opens with a clean console: no error or warning on the first open (token in the
// address, the task list drawn by the server) nor on a reload, in the app's first screen or a task.
// A CSP fallback note ("script-src was not explicitly set") shows here and nowhere else.
import { type ConsoleMessage, type Page } from '@playwright/test';
import { createTask, expect, test } from './support/fixtures';

function collectConsole(page: Page): string[] {
  const seen: string[] = [];
  const keep = (message: ConsoleMessage) => {
    if (message.type() === 'error' || message.type() === 'warning') seen.push(`${message.type()}: ${message.text()} (${message.location().url})`);
  };
  page.on('console', keep);
  page.on('pageerror', (error) => seen.push(`uncaught: ${error.message}`));
  return seen;
}

/** Waits until the lazy chunks the screen needs have loaded and run (two frames after the network is idle). */
async function settled(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle');
  await page.evaluate('new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve(undefined))))');
}

test('the first open, a task and a reload leave the console clean', async ({ page, folio }) => {
  const seen = collectConsole(page);
  await page.goto(folio.appUrl);
  await expect(page.getByTestId('new-task')).toBeVisible();
  await settled(page);
  expect(seen, 'the first open').toEqual([]);

  await createTask(page, 'general');
  await settled(page);
  expect(seen, 'a task opened').toEqual([]);

  await page.reload();
  await expect(page.getByTestId('chat-view')).toBeVisible();
  await settled(page);
  expect(seen, 'after a reload').toEqual([]);
});
