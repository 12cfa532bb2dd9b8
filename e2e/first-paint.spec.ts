// The first open's page inlines only the rules its drawn task list may use and links the whole
// sheet after the list (transport/http/first-paint-css.ts). The list must look the same on its first
// frame, before that sheet has loaded, as with it: photographed with the sheet's request refused and
// with the sheet loaded, both without the app's JavaScript (which would replace the list), at the
// two window sizes the screens are checked at (the narrow one has its own sidebar width).
import { type Browser } from '@playwright/test';
import type { TaskMode } from '../src/shared/contract';
import { expect, test } from './support/fixtures';
import { folioApi, type FolioServer } from './support/folio-server';

const SIZES = [
  { width: 1280, height: 800 },
  { width: 900, height: 700 },
];
const MODES: TaskMode[] = ['ppt', 'proposal', 'coding', 'general'];

async function firstFrame(browser: Browser, folio: FolioServer, size: { width: number; height: number }, withSheet: boolean): Promise<Buffer> {
  const context = await browser.newContext({ viewport: size, javaScriptEnabled: false, locale: 'en-US' });
  try {
    const page = await context.newPage();
    const sheets: string[] = [];
    await page.route('**/*.css', (route) => (withSheet ? route.continue() : route.abort()));
    page.on('requestfinished', (request) => {
      if (request.url().endsWith('.css')) sheets.push(request.url());
    });
    await page.goto(folio.appUrl, { waitUntil: 'load' });
    await expect(page.locator('.task-list .task-item').first()).toBeVisible();
    expect(sheets.length, withSheet ? 'the whole sheet loaded' : 'no sheet loaded').toBe(withSheet ? 1 : 0);
    return await page.screenshot();
  } finally {
    await context.close();
  }
}

test('the drawn task list looks the same before the whole stylesheet has loaded as with it', async ({ browser, folio }) => {
  for (const mode of MODES) await folioApi(folio, 'POST', '/v1/tasks', { mode, title: `First paint ${mode} — 首屏` });
  for (const size of SIZES) {
    const inlineOnly = await firstFrame(browser, folio, size, false);
    const whole = await firstFrame(browser, folio, size, true);
    expect(inlineOnly.equals(whole), `the list at ${size.width}×${size.height} with the inlined rules only differs from the list with the whole sheet`).toBe(true);
  }
});
