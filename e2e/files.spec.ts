import { createTask, expect, test } from './support/fixtures';

test('a file chosen with the file picker is uploaded and listed under sources', async ({ page, folio }) => {
  await page.goto(folio.appUrl);
  await createTask(page, 'ppt');

  await page.getByTestId('file-input').setInputFiles({
    name: 'field-notes.md',
    mimeType: 'text/markdown',
    buffer: Buffer.from('# Field notes\n\nSample size: 42\n'),
  });

  const sources = page.getByTestId('file-group-source');
  const item = sources.getByTestId('file-item').filter({ hasText: 'field-notes.md' });
  await expect(item).toHaveCount(1);
  await expect(item).toContainText('31 B');
  await expect(page.getByTestId('files-error')).toHaveCount(0);

  // Still there after a reload: it was stored by the server, not just shown.
  await page.reload();
  await expect(page.getByTestId('file-group-source').getByTestId('file-item').filter({ hasText: 'field-notes.md' })).toHaveCount(1);
});
