// A keyboard user sees where the focus is: each main control reached with Tab (or the arrow keys in a
// menu) draws a ring it does not draw unfocused (an outline or a box-shadow, on the control or on the
// box around it, as the composer's), in a colour at least 3:1 against what surrounds it.
import { type Page } from '@playwright/test';
import { createTask, expect, test } from './support/fixtures';

interface Ring {
  /** Where the ring is drawn: 0 the control itself, 1 its parent, … */
  level: number;
  kind: 'outline' | 'box-shadow';
  css: string;
  /** The ring's colour against the background around it. */
  contrast: number;
}

/**
 * In the page (a string: the e2e build has no DOM types): `__ringStyles(el)` lists the outline and
 * box-shadow of `el` and its three nearest ancestors; `__ring(before, el)` finds the first of them that
 * focus changed and measures its colour against the first opaque background behind it.
 */
const RING_PROBE = `(() => {
  const parse = (css) => {
    let m = /rgba?\\(([\\d.]+),\\s*([\\d.]+),\\s*([\\d.]+)(?:,\\s*([\\d.]+))?\\)/.exec(css);
    if (m) return [+m[1], +m[2], +m[3], m[4] === undefined ? 1 : +m[4]];
    m = /color\\(srgb ([\\d.]+) ([\\d.]+) ([\\d.]+)(?: \\/ ([\\d.]+))?\\)/.exec(css);
    if (m) return [m[1] * 255, m[2] * 255, m[3] * 255, m[4] === undefined ? 1 : +m[4]];
    return null;
  };
  const over = (top, bottom) => [0, 1, 2].map((i) => top[i] * top[3] + bottom[i] * (1 - top[3]));
  const luminance = (rgb) => {
    const [r, g, b] = rgb.map((v) => { const c = v / 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const backgroundBehind = (el) => {
    const layers = [];
    for (let node = el; node; node = node.parentElement) {
      const bg = parse(getComputedStyle(node).backgroundColor);
      if (bg && bg[3] > 0) { layers.push(bg); if (bg[3] === 1) break; }
    }
    let color = [255, 255, 255];
    for (const layer of layers.reverse()) color = over(layer, color);
    return color;
  };
  const chain = (el) => { const list = []; for (let node = el, i = 0; node && i < 4; node = node.parentElement, i++) list.push(node); return list; };
  window.__ringStyles = (el) => chain(el).map((node) => {
    const s = getComputedStyle(node);
    return { outline: s.outlineStyle === 'none' || parseFloat(s.outlineWidth) === 0 ? 'none' : s.outlineWidth + ' ' + s.outlineStyle + ' ' + s.outlineColor, shadow: s.boxShadow };
  });
  window.__ring = (before, el) => {
    const now = window.__ringStyles(el);
    const nodes = chain(el);
    for (let level = 0; level < now.length; level++) {
      const kind = now[level].outline !== before[level]?.outline && now[level].outline !== 'none' ? 'outline' : now[level].shadow !== before[level]?.shadow && now[level].shadow !== 'none' ? 'box-shadow' : null;
      if (!kind) continue;
      const css = kind === 'outline' ? now[level].outline : now[level].shadow;
      const ring = parse(css);
      const bg = backgroundBehind(nodes[level].parentElement ?? nodes[level]);
      const [a, b] = [luminance(over(ring, bg)), luminance(bg)];
      return { level, kind, css, contrast: (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05) };
    }
    return null;
  };
})()`;

const byTestId = (testId: string) => `document.querySelector('[data-testid="${testId}"]')`;

/** The ring styles of a control (and the boxes around it) before it has the focus. */
async function unfocused(page: Page, testId: string): Promise<unknown> {
  return page.evaluate(`window.__ringStyles(${byTestId(testId)})`);
}

/** Presses Tab until the control has the focus (at most 60 times). */
async function tabTo(page: Page, testId: string): Promise<void> {
  for (let i = 0; i < 60; i++) {
    if ((await page.evaluate('document.activeElement?.getAttribute("data-testid")')) === testId) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${testId}`);
}

/** The ring the focused control draws that it did not draw unfocused; fails when there is none or it is faint. */
async function expectFocusRing(page: Page, testId: string, before: unknown): Promise<void> {
  expect(await page.evaluate(`document.activeElement?.getAttribute('data-testid')`)).toBe(testId);
  const ring = await page.evaluate<Ring | null>(`window.__ring(${JSON.stringify(before)}, document.activeElement)`);
  expect(ring, `${testId}: a focus ring`).not.toBeNull();
  expect(ring!.contrast, `${testId}: the ring (${ring!.kind} ${ring!.css}) against its background`).toBeGreaterThanOrEqual(3);
}

test('the main controls draw a visible focus ring when reached with the keyboard', async ({ page, folio }) => {
  await page.goto(folio.appUrl);
  await createTask(page, 'general');
  await page.evaluate(RING_PROBE);
  // The pointer rests where hovering draws nothing.
  await page.mouse.move(1, 1);

  // Buttons in the sidebar, from the top of the page: a click on the sidebar's corner, where nothing
  // can take the focus, moves the point Tab starts from there (a blur leaves it where the focus was,
  // and from the New-task menu Tab would walk the worker's whole task list first).
  await page.mouse.click(2, 2);
  const beforeToggle = await unfocused(page, 'sidebar-toggle');
  const beforeNew = await unfocused(page, 'new-task');
  await tabTo(page, 'sidebar-toggle');
  await expectFocusRing(page, 'sidebar-toggle', beforeToggle);
  await tabTo(page, 'new-task');
  await expectFocusRing(page, 'new-task', beforeNew);

  // The New-task menu's items, opened and walked with the keyboard.
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('new-task-menu')).toBeVisible();
  await expect(page.getByTestId('new-task-mode-ppt')).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(page.getByTestId('new-task-mode-proposal')).toBeFocused();
  // Unfocused, an item looks as the first one does now.
  await expectFocusRing(page, 'new-task-mode-proposal', await unfocused(page, 'new-task-mode-ppt'));
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('new-task-menu')).toHaveCount(0);

  // The composer (its box draws the ring) and its send button.
  await page.getByTestId('composer-input').fill('A question');
  await page.evaluate('document.activeElement?.blur()');
  const beforeComposer = await unfocused(page, 'composer-input');
  const beforeSend = await unfocused(page, 'composer-send');
  // From the header's last control, so Tab does not walk the worker's whole task list first.
  await page.getByTestId('panel-toggle').focus();
  await tabTo(page, 'composer-input');
  await expectFocusRing(page, 'composer-input', beforeComposer);
  await tabTo(page, 'composer-send');
  await expectFocusRing(page, 'composer-send', beforeSend);

  // A select in Settings.
  await page.getByTestId('nav-settings').click();
  await expect(page.getByTestId('settings-page')).toBeVisible();
  await page.mouse.move(1, 1);
  const beforeSelect = await unfocused(page, 'language-select');
  await page.getByTestId('nav-settings').focus();
  await page.keyboard.press('Shift+Tab');
  await tabTo(page, 'language-select');
  await expectFocusRing(page, 'language-select', beforeSelect);
});
