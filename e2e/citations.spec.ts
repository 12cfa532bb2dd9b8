// Citations in an answer are chips that open the cited source at its page in the right panel; a
// source's name in the files list opens it too.
import { createTask, expect, test } from './support/fixtures';
import { scriptModel } from './support/fake-model';
import { minimalPdf } from '../src/main/sources/testing';

test('a citation chip opens the cited PDF at its page, and a source name opens the source', async ({ page, folio }) => {
  await page.goto(folio.appUrl);
  await createTask(page, 'general');
  const pdf = Buffer.from(minimalPdf([['Urban heat, page one'], ['Nights are 2.5 degrees warmer'], ['Shade helps']]));
  const chooser = page.waitForEvent('filechooser');
  await page.getByTestId('file-pick').click();
  await (await chooser).setFiles([
    { name: 'heat.pdf', mimeType: 'application/pdf', buffer: pdf },
    { name: 'notes.md', mimeType: 'text/markdown', buffer: Buffer.from('# Notes\nShade cools streets.\n') },
  ]);
  await expect(page.getByTestId('file-group-source').getByTestId('file-item')).toHaveCount(2);

  await scriptModel([{ text: 'Cities run hotter at night (Source: heat.pdf, p. 2). A missing file stays text (Source: gone.pdf, p. 1).' }]);
  const input = page.getByTestId('composer-input');
  await input.fill('What do the sources say?');
  await input.press('Enter');
  const answer = page.getByTestId('assistant-message').last();
  const chip = answer.getByTestId('citation-chip');
  await expect(chip).toHaveCount(1);
  await expect(chip).toHaveText('Source: heat.pdf p. 2');
  await expect(answer).toContainText('(Source: gone.pdf, p. 1)');

  await chip.click();
  const view = page.getByTestId('source-view');
  await expect(view).toHaveAttribute('data-path', 'source/heat.pdf');
  await expect(view.locator('[data-testid="pdf-page"][aria-current="page"]')).toHaveAttribute('data-page', '2');
  // The pages sit inside the panel with a margin, not against its edges.
  const panelBox = (await page.getByTestId('files-panel').boundingBox())!;
  for (const shown of await view.getByTestId('pdf-page').all()) {
    const box = (await shown.boundingBox())!;
    expect(box.x - panelBox.x).toBeGreaterThanOrEqual(8);
    expect(panelBox.x + panelBox.width - (box.x + box.width)).toBeGreaterThanOrEqual(8);
  }

  await view.getByTestId('source-view-close').click();
  await expect(page.getByTestId('source-view')).toHaveCount(0);
  await page.getByTestId('panel-tab-files').click();
  await page.locator('[data-testid="file-item"][data-path="source/notes.md"]').getByTestId('file-open').click();
  await expect(page.getByTestId('source-view')).toHaveAttribute('data-path', 'source/notes.md');
  await expect(page.getByTestId('source-text')).toContainText('Shade cools streets.');
});
