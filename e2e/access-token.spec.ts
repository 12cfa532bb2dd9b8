// A page that holds a token the server no longer accepts (the server was restarted with a new token,
// and the person opens the address the old one printed, or reloads a page opened from it): one page
// that says so and how to get back in, not the app's screens under a stack of "not authorised" toasts.
import { type Page } from '@playwright/test';
import { expect, test } from './support/fixtures';

async function expectRefusedPage(page: Page): Promise<void> {
  const noToken = page.getByTestId('no-token');
  await expect(noToken).toBeVisible();
  await expect(noToken).toHaveAttribute('data-reason', 'refused');
  await expect(noToken.getByRole('heading', { level: 1 })).toHaveText('This access token is no longer accepted');
  await expect(noToken).toContainText('folio serve');
  await expect(page.getByTestId('sidebar')).toHaveCount(0);
  await expect(page.getByTestId('notice')).toHaveCount(0);
}

test('a stale token gets the refused-token page, with no toasts and no app behind it, after a reload too', async ({ page, folio }) => {
  // The address the server printed before its restart: its token is not this server's.
  const stale = 'token-of-the-server-before-its-restart';
  expect(stale).not.toBe(folio.token);
  await page.goto(`${folio.origin}/?token=${stale}`);
  await expectRefusedPage(page);
  // The token is out of the address (nothing to bookmark with it); the page keeps it for a reload.
  expect(new URL(page.url()).searchParams.has('token')).toBe(false);
  await page.reload();
  await expectRefusedPage(page);

  // The same tab opened from the current address works again.
  await page.goto(folio.appUrl);
  await expect(page.getByTestId('sidebar')).toBeVisible();
  await expect(page.getByTestId('no-token')).toHaveCount(0);
});
