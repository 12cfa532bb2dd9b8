import { expect, test } from './support/fixtures';
import { folioApi } from './support/folio-server';

test.afterEach(async ({ folio }) => {
  // Language is a server-side setting; put it back for the other specs.
  await folioApi(folio, 'PATCH', '/v1/settings', { language: 'system' });
});

test('switching the language to Chinese relabels the UI at once and sticks after a reload', async ({ page, folio }) => {
  await page.goto(folio.appUrl);
  await expect(page.getByTestId('new-task')).toHaveText('New task');

  await page.getByTestId('nav-settings').click();
  await expect(page.getByTestId('settings-page')).toBeVisible();
  await page.getByTestId('language-select').selectOption('zh-CN');

  await expect(page.getByTestId('nav-settings')).toHaveText('设置');
  await expect(page.getByTestId('new-task')).toHaveText('新建任务');
  await expect(page.getByTestId('task-filter-active')).toHaveText('进行中');
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');

  await page.reload();
  await expect(page.getByTestId('new-task')).toHaveText('新建任务');

  await page.getByTestId('nav-settings').click();
  await page.getByTestId('language-select').selectOption('en');
  await expect(page.getByTestId('new-task')).toHaveText('New task');
});
