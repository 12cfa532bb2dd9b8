import { readFileSync } from 'node:fs';
import { createTask, expect, test } from './support/fixtures';
import { scriptModel } from './support/fake-model';
import { folioApi } from './support/folio-server';

const deck = {
  title: 'Field Study Results',
  subtitle: 'Spring survey, 2024',
  theme: 'academic',
  slides: [
    { layout: 'title' },
    { layout: 'bullets', title: 'Key findings', bullets: ['Sample size grew to 42', { text: 'Response rate 81%', sub: ['up from 64%'] }], notes: 'Mention the rain days.' },
    { layout: 'chart', title: 'Samples per year', chart: { type: 'column', categories: ['2022', '2023', '2024'], series: [{ name: 'Samples', values: [18, 30, 42] }] } },
  ],
};

test('a deck rendered by the agent is listed, previewed slide by slide and downloadable', async ({ page, folio }) => {
  await scriptModel([{ toolCalls: [{ name: 'render_deck', arguments: JSON.stringify({ spec: deck, name: 'field-study' }) }] }, { text: 'Your deck is ready.' }]);
  await page.goto(folio.appUrl);
  const taskId = await createTask(page, 'ppt');
  // render_deck is an edit: let edits run without asking.
  await page.getByTestId('approval-mode-picker').selectOption('auto-edit');
  await expect.poll(async () => ((await folioApi(folio, 'GET', `/v1/tasks/${taskId}`)) as { approval_mode: string }).approval_mode).toBe('auto-edit');

  const input = page.getByTestId('composer-input');
  await input.fill('Make a deck from my notes');
  await input.press('Enter');
  const chat = page.getByTestId('chat-view');
  const toolCard = chat.locator('[data-testid="tool-card"][data-tool-name="render_deck"]');
  // Rendering includes the LibreOffice read-back of every slide: slow on a loaded 2-core machine.
  await expect(toolCard.getByTestId('tool-result')).toContainText('Rendered artifacts/field-study.pptx', { timeout: 60_000 });
  await expect(chat.getByTestId('assistant-message').last()).toContainText('Your deck is ready.');

  await page.getByTestId('panel-tab-artifacts').click();
  const item = page.locator('[data-testid="artifact-item"][data-path="artifacts/field-study.pptx"]');
  await expect(item).toHaveCount(1);
  await item.click();

  const preview = page.getByTestId('artifact-preview');
  const thumbs = preview.getByTestId('slide-thumb');
  await expect(thumbs).toHaveCount(3);
  await expect(thumbs.nth(0).getByTestId('slide-title')).toHaveText('Field Study Results');
  await expect(thumbs.nth(1).getByTestId('slide-title')).toHaveText('Key findings');
  await expect(thumbs.nth(2).getByTestId('slide-title')).toHaveText('Samples per year');
  await expect(thumbs.nth(2).locator('svg rect')).toHaveCount(3);

  // Enlarged, with the speaker notes under it.
  await thumbs.nth(1).click();
  const lightbox = page.getByTestId('slide-lightbox');
  await expect(lightbox.getByTestId('slide-title')).toHaveText('Key findings');
  await expect(lightbox.getByTestId('slide-notes')).toContainText('Mention the rain days.');
  await page.keyboard.press('Escape');
  await expect(lightbox).toHaveCount(0);

  // In the browser, "Open" saves the file.
  const downloadPromise = page.waitForEvent('download');
  await page.getByTestId('artifact-open').click();
  const download = await downloadPromise;
  expect(download.suggestedFilename()).toBe('field-study.pptx');
  const path = await download.path();
  expect(readFileSync(path).subarray(0, 2).toString('latin1')).toBe('PK');

  // PDF export needs LibreOffice on the machine that runs Folio.
  const capabilities = (await folioApi(folio, 'GET', '/v1/capabilities')) as { soffice: boolean };
  const exportButton = page.getByTestId('artifact-export-pdf');
  if (!capabilities.soffice) {
    await expect(exportButton).toBeDisabled();
    await expect(page.getByTestId('artifact-export-hint')).toContainText('Install LibreOffice');
    return;
  }
  await exportButton.click();
  const pdfItem = page.locator('[data-testid="artifact-item"][data-path="artifacts/field-study.pdf"]');
  await expect(pdfItem).toHaveCount(1, { timeout: 120_000 });
  await expect(pdfItem).toHaveAttribute('aria-selected', 'true');
  // Real pages drawn by pdf.js: one canvas per slide, with pixels in it.
  const pages = page.getByTestId('pdf-page');
  await expect(pages).toHaveCount(3, { timeout: 30_000 });
  const canvas = pages.first().locator('canvas');
  await expect(canvas).toBeVisible();
  await expect(canvas).not.toHaveJSProperty('width', 0);
  await expect(canvas).not.toHaveJSProperty('height', 0);
  await expect(page.getByTestId('pdf-error')).toHaveCount(0);
});
