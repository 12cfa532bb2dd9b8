// The right panel is one tree at every width: below 1100 px it is a drawer, above it a column, and
// crossing the width (or closing the drawer) keeps what the person was doing in it — the slides
// selected in a deck preview and the change they had half typed.
import { createTask, expect, test } from './support/fixtures';
import { scriptModel } from './support/fake-model';
import { expectRunsDone, sendMessage, setApprovalMode } from './support/flows';

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
  await scriptModel([
    { toolCalls: [{ name: 'write', arguments: JSON.stringify({ path: 'work/deck.json', content: JSON.stringify(deck, null, 2) }) }] },
    { toolCalls: [{ name: 'render_deck', arguments: JSON.stringify({ spec_path: 'work/deck.json', name: 'field-study' }) }] },
    { text: 'Your deck is ready.' },
  ]);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(folio.appUrl);
  const taskId = await createTask(page, 'ppt');
  await setApprovalMode(page, folio, taskId, 'auto-edit');
  await sendMessage(page, 'Make a deck from my notes');
  await expectRunsDone(page, 1);

  await page.getByTestId('panel-tab-artifacts').click();
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

  // Closing the drawer (its own close button: it covers the header's) and opening it again keeps them too.
  await page.getByTestId('panel-close').click();
  await expect(page.getByTestId('files-panel')).toBeHidden();
  await page.getByTestId('panel-toggle').click();
  await expectKept();

  // Wide again: the column shows them.
  await page.setViewportSize({ width: 1280, height: 800 });
  await expect(page.getByTestId('files-panel')).toBeVisible();
  await expectKept();
});
