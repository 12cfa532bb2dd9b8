// After a deck, the window narrowed and widened again (the drawer opened or not in between), the
// Results tab is back beside the chat each time, in both languages. FOLIO_E2E_RESIZE_ROUNDS repeats
// the sequence (3 by default). The toggle's race with the media query (pressed before the page heard
// of the resize) is pinned in state/layout-store.test.ts: Playwright's click waits for frames, so the
// race does not happen here.
import { type Page } from '@playwright/test';
import { taskWithRenderedDeck } from './support/deck-task';
import { expect, test } from './support/fixtures';
import { folioApi, type FolioServer } from './support/folio-server';

const WIDE = { width: 1280, height: 800 };
const NARROW = { width: 900, height: 700 };
const ROUNDS = Number(process.env.FOLIO_E2E_RESIZE_ROUNDS ?? 3);

const deck = {
  title: 'Field Study Results',
  slides: [
    { layout: 'title' },
    { layout: 'bullets', title: 'Sample size grew to 42', bullets: ['Twelve sites', 'Three seasons'] },
    { layout: 'closing' },
  ],
};

async function finishedDeck(page: Page, folio: FolioServer): Promise<void> {
  await page.setViewportSize(WIDE);
  await taskWithRenderedDeck(page, folio, deck, 'field-study');
}

for (const language of ['en', 'zh-CN'] as const) {
  test.describe(`after a deck, narrowed and widened again (${language})`, () => {
    test.beforeEach(async ({ folio }) => {
      await folioApi(folio, 'PATCH', '/v1/settings', { language });
    });
    test.afterEach(async ({ folio }) => {
      await folioApi(folio, 'PATCH', '/v1/settings', { language: 'system' });
    });

    test('the Results tab is back beside the chat, resized alone', async ({ page, folio }) => {
      await finishedDeck(page, folio);
      for (let round = 0; round < ROUNDS; round++) {
        await page.setViewportSize(NARROW);
        await expect(page.getByTestId('files-panel'), `round ${round}: a closed drawer when narrow`).toBeHidden();
        await page.setViewportSize(WIDE);
        await expect(page.getByTestId('panel-tab-artifacts'), `round ${round}: the Results tab when wide`).toBeVisible({ timeout: 5_000 });
      }
    });

    test('the Results tab is back beside the chat after the drawer was opened at once when narrow', async ({ page, folio }) => {
      await finishedDeck(page, folio);
      const toggle = page.getByTestId('panel-toggle');
      for (let round = 0; round < ROUNDS; round++) {
        await page.setViewportSize(NARROW);
        // At once, as a person (or a walk) does: no wait of its own for the page to take in the new width.
        await toggle.click();
        await expect(page.getByTestId('files-panel'), `round ${round}: the drawer opened`).toBeVisible({ timeout: 5_000 });
        await expect(toggle).toHaveAttribute('aria-expanded', 'true');
        await page.setViewportSize(WIDE);
        await expect(page.getByTestId('panel-tab-artifacts'), `round ${round}: the Results tab when wide`).toBeVisible({ timeout: 5_000 });
        await expect(toggle).toHaveAttribute('aria-expanded', 'true');
      }
    });
  });
}
