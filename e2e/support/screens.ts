// Looking at the UI in the tests: each key screen is compared with a reviewed baseline image at two
// window sizes, and checked with axe-core. Baselines live where playwright.config's
// snapshotPathTemplate says (e2e/__screenshots__); update them with `--update-snapshots`, then look at
// every changed PNG before committing it.
import AxeBuilder from '@axe-core/playwright';
import { type Locator, type Page } from '@playwright/test';
import { expect } from './fixtures';

export const SCREEN_SIZES = [
  { width: 1280, height: 800 },
  { width: 900, height: 700 },
] as const;

export type ScreenLanguage = 'en' | 'zh-CN';

export interface ScreenOptions {
  /** Parts whose content changes from run to run (times, ids, measured durations): painted over. */
  mask?: (page: Page) => Locator[];
  /** Waits until the screen is settled, after each resize (e.g. a layout that reflows). */
  ready?: (page: Page) => Promise<void>;
}

/**
 * Resolves once every conversation on screen shows its end, unchanged for two frames: after a resize
 * the rows reflow and are measured again over several frames, and the list follows its end as they
 * are. Rejects with the list's geometry if that has not happened within ~10 s of frames.
 */
const CHAT_AT_ITS_END = `new Promise((resolve, reject) => {
  let state = '';
  let still = 0;
  let frames = 0;
  const check = () => {
    const lists = [...document.querySelectorAll('[data-testid="message-list"]')];
    const now = lists.map((el) => el.scrollHeight + '/' + el.scrollTop + '/' + el.clientHeight).join(';');
    const atEnd = lists.every((el) => el.scrollHeight - el.scrollTop - el.clientHeight <= 1);
    still = atEnd && now === state ? still + 1 : 0;
    state = now;
    if (still >= 2) resolve(undefined);
    else if (++frames > 600) reject(new Error('the conversation did not settle at its end (scrollHeight/scrollTop/clientHeight: ' + now + ')'));
    else requestAnimationFrame(check);
  };
  requestAnimationFrame(check);
})`;

async function settle(page: Page): Promise<void> {
  // Strings: the e2e build has no DOM types. Fonts loaded, the chat at its end, then two frames (a
  // resize's layout and the paint after it).
  await page.evaluate('document.fonts.ready.then(() => undefined)');
  await page.evaluate(CHAT_AT_ITS_END);
  await page.evaluate('new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve(undefined))))');
}

/** axe-core's serious and critical findings on the page as it is, one line each. */
export async function seriousA11yViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.slice(0, 5).map((n) => `${v.id} (${v.impact}): ${n.target.join(' ')} — ${n.failureSummary?.split('\n').slice(1).join(' ') ?? ''}`));
}

/**
 * Compares the screen with its baselines `<name>-<lang>-<w>x<h>.png` at both sizes and runs axe at
 * each; the page is left at the first size.
 */
export async function checkScreen(page: Page, name: string, language: ScreenLanguage, options: ScreenOptions = {}): Promise<void> {
  for (const size of [...SCREEN_SIZES].reverse()) {
    await page.setViewportSize(size);
    await options.ready?.(page);
    // The pointer rests on the sidebar's brand, where hovering shows nothing. After each size's
    // `ready`: a control it clicked (the panel toggle at 900 px) would otherwise leave the pointer
    // where, once the window is wider, a slide lies, drawn hovered.
    await page.mouse.move(20, 20);
    await settle(page);
    await expect.soft(page, `${name} at ${size.width}×${size.height}`).toHaveScreenshot(`${name}-${language}-${size.width}x${size.height}.png`, {
      // What changes from run to run ([data-dynamic]: times, token counts, paths) is blanked by
      // screenshot.css rather than masked: a mask is drawn even where the element is scrolled out of view.
      mask: options.mask?.(page) ?? [],
      maskColor: '#c8c8d0',
    });
    // axe at each size: the narrow layout shows other things (the drawer, the wrapped navigation,
    // the sidebar's narrower width), and a contrast or a name can fail in one layout only.
    expect.soft(await seriousA11yViolations(page), `axe: serious or critical on ${name} (${language}, ${size.width}×${size.height})`).toEqual([]);
  }
}
