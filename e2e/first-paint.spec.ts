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

// Strings: the e2e build has no DOM types.
/** The distinct fonts (family, size, weight, style) the page draws text in, and the first title's. */
const FONTS_DRAWN = `(() => {
  const fontOf = (el) => { const s = getComputedStyle(el); return [s.fontFamily, s.fontSize, s.fontWeight, s.fontStyle].join(' / '); };
  const fonts = new Set();
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    // White space between tags draws nothing; a no-break space is drawn in its element's font.
    if (/^[ \\t\\n\\r\\f]*$/.test(node.textContent)) continue;
    fonts.add(fontOf(node.parentElement));
  }
  return { fonts: [...fonts], title: fontOf(document.querySelector('.task-title')) };
})()`;
/** Each row's height in the sidebar's list. */
const ROW_HEIGHTS = `[...document.querySelectorAll('.task-list .task-item')].map((el) => el.getBoundingClientRect().height)`;

test('the drawn list draws its text in as few fonts as it can, in rows as high as the app\'s', async ({ browser, folio }) => {
  for (const mode of MODES) await folioApi(folio, 'POST', '/v1/tasks', { mode, title: `First paint ${mode} — 首屏` });
  await folioApi(folio, 'POST', '/v1/tasks', { mode: 'general', title: '' });
  const context = await browser.newContext({ viewport: SIZES[0], locale: 'en-US' });
  try {
    const page = await context.newPage();
    // The list as the first frame shows it: the served page without the app's JavaScript.
    await page.route('**/*.js', (route) => route.abort());
    await page.goto(folio.appUrl, { waitUntil: 'load' });
    await expect(page.locator('.first-paint .task-list .task-item').first()).toBeVisible();
    // Each font a frame draws text in is a look-up in the browser process before that frame (tens of
    // milliseconds each on this machine, bench/README.md): the titles' font and the brand's only.
    const { fonts, title } = await page.evaluate<{ fonts: string[]; title: string }>(FONTS_DRAWN);
    expect(fonts, 'the fonts the drawn list draws text in').toContain(title);
    expect(fonts.length, `the fonts the drawn list draws text in: ${fonts.join('; ')}`).toBeLessThanOrEqual(2);
    const drawn = await page.evaluate<number[]>(ROW_HEIGHTS);

    // The app's own rows, which replace them, are as high (the drawn meta line holds no text).
    await page.unroute('**/*.js');
    await page.goto(folio.appUrl);
    await expect(page.getByTestId('task-item')).toHaveCount(drawn.length);
    await page.evaluate('document.fonts.ready.then(() => undefined)');
    expect(await page.evaluate<number[]>(ROW_HEIGHTS)).toEqual(drawn);
  } finally {
    await context.close();
  }
});
