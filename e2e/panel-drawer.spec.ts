// The right panel is one tree at every width: below 1100 px it is a drawer, above it a column, and
// crossing the width (or closing the drawer) keeps what the person was doing in it — the slides
// selected in a deck preview and the change they had half typed. The drawer closes the ways a person
// expects: the header's toggle (not covered by it), Escape, a click outside, its own close button.
import { taskWithRenderedDeck } from './support/deck-task';
import { expect, test } from './support/fixtures';

const deck = {
  title: 'Field Study Results',
  slides: [
    { layout: 'title' },
    { layout: 'bullets', title: 'Sample size grew to 42', bullets: ['Twelve sites', 'Three seasons'] },
    { layout: 'bullets', title: 'Response rate rose every year', bullets: ['2022: 64%', '2023: 72%', '2024: 81%'] },
    { layout: 'closing' },
  ],
};

test('a slide selection and a half-typed change survive the drawer and both widths', async ({ page, folio }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await taskWithRenderedDeck(page, folio, deck, 'field-study');

  await page.locator('[data-testid="artifact-item"][data-path="artifacts/field-study.pptx"]').click();
  const preview = page.getByTestId('artifact-preview');
  await expect(preview.getByTestId('slide-thumb')).toHaveCount(4);
  await preview.getByTestId('slide-select').nth(2).check();
  const bar = preview.getByTestId('slide-change-bar');
  await bar.getByTestId('slide-change-input').fill('make this a chart');

  const expectKept = async () => {
    await expect(preview.getByTestId('slide-select').nth(2)).toBeChecked();
    await expect(bar).toContainText('Slide 3');
    await expect(bar.getByTestId('slide-change-input')).toHaveValue('make this a chart');
  };

  // Narrow: the panel becomes a closed drawer; opened, it holds the same selection and text.
  await page.setViewportSize({ width: 900, height: 700 });
  await expect(page.getByTestId('files-panel')).toBeHidden();
  await page.getByTestId('panel-toggle').click();
  await expect(page.getByTestId('files-panel')).toBeVisible();
  await expectKept();

  // The drawer sits below the header: the toggle that opened it is not covered and closes it.
  const toggle = page.getByTestId('panel-toggle');
  // A string: the e2e build has no DOM types.
  const toggleOnTop = () =>
    page.evaluate<boolean>(`(() => {
      const el = document.querySelector('[data-testid="panel-toggle"]');
      const box = el.getBoundingClientRect();
      const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
      return hit !== null && el.contains(hit);
    })()`);
  expect(await toggleOnTop()).toBe(true);
  await toggle.click();
  await expect(page.getByTestId('files-panel')).toBeHidden();
  await toggle.click();
  await expectKept();

  // Escape closes it and gives the focus back to the toggle.
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('files-panel')).toBeHidden();
  await expect(toggle).toBeFocused();

  // A click outside it (on the conversation, left of the drawer) closes it.
  await toggle.click();
  await expect(page.getByTestId('files-panel')).toBeVisible();
  await page.mouse.click(300, 400);
  await expect(page.getByTestId('files-panel')).toBeHidden();

  // Its own close button too, with the focus back on the toggle; opened again, nothing is lost.
  await toggle.click();
  await page.getByTestId('panel-close').click();
  await expect(page.getByTestId('files-panel')).toBeHidden();
  await expect(toggle).toBeFocused();
  await toggle.click();
  await expectKept();

  // Wide again: the column shows them.
  await page.setViewportSize({ width: 1280, height: 800 });
  await expect(page.getByTestId('files-panel')).toBeVisible();
  await expectKept();
});
