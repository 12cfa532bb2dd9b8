import { buildTemplate, FIXTURE } from '../src/main/renderers/deck/templates/fixture.test-support';
import { expect, test } from './support/fixtures';

test('a template imported in Settings is listed with its warnings, previewed on its layouts and deleted', async ({ page, folio }) => {
  await page.goto(folio.appUrl);
  await page.getByTestId('nav-settings').click();
  const section = page.getByTestId('templates-section');
  await expect(section).toBeVisible();

  await page.getByTestId('template-file-input').setInputFiles({
    name: 'ACME Brand.potx',
    mimeType: 'application/vnd.openxmlformats-officedocument.presentationml.template',
    buffer: await buildTemplate({ potx: true }),
  });
  await expect(page.getByTestId('template-imported')).toContainText('acme-brand');
  const item = section.getByTestId('template-item').filter({ hasText: FIXTURE.name });
  await expect(item).toHaveCount(1);
  await expect(item).toContainText('"theme": "acme-brand"');
  await expect(item.getByTestId('template-warnings')).toContainText('section-header');

  await item.getByTestId('template-preview-toggle').click();
  const samples = item.getByTestId('template-sample');
  await expect(samples.first()).toBeVisible();
  expect(await samples.count()).toBeGreaterThan(4);
  await expect(item.getByTestId('template-preview')).toContainText('ACME Title');
  // The samples sit on what the template's layouts paint (its backgrounds, its logo), not on a blank slide.
  expect(await item.getByTestId('template-backdrop').count()).toBeGreaterThan(await samples.count());

  // A file that is not a template is refused with the reason, and nothing is added.
  await page.getByTestId('template-file-input').setInputFiles({ name: 'notes.pptx', mimeType: 'text/plain', buffer: Buffer.from('# notes') });
  await expect(page.getByTestId('templates-error')).toContainText('not a PowerPoint file');
  await expect(section.getByTestId('template-item')).toHaveCount(1);

  // Still there after a reload: the server stored it.
  await page.reload();
  await page.getByTestId('nav-settings').click();
  await expect(page.getByTestId('template-item').filter({ hasText: FIXTURE.name })).toHaveCount(1);
  await page.getByTestId('template-item').getByTestId('template-delete').click();
  await page.getByTestId('confirm-dialog').getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByTestId('template-item')).toHaveCount(0);
});
