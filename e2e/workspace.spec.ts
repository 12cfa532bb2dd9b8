import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTask, expect, test } from './support/fixtures';

test('a coding task gets its project folder after a confirmation, and a bad folder is refused with the reason', async ({ page, folio }) => {
  const project = mkdtempSync(join(tmpdir(), 'folio-e2e-project-'));
  try {
    await page.goto(folio.appUrl);
    await createTask(page, 'coding');
    const header = page.getByTestId('workspace-folder');
    await expect(header.getByTestId('workspace-path')).toContainText('None chosen');

    await header.getByTestId('workspace-choose').click();
    const dialog = page.getByTestId('workspace-dialog');
    // A relative path can't even go to the confirmation step.
    await dialog.getByTestId('workspace-input').fill('projects/app');
    await expect(dialog.getByTestId('workspace-next')).toBeDisabled();

    await dialog.getByTestId('workspace-input').fill(join(project, 'missing'));
    await dialog.getByTestId('workspace-next').click();
    await expect(dialog).toContainText("Folio's tools will read, edit and run commands in this folder");
    await dialog.getByTestId('workspace-confirm').click();
    await expect(dialog.getByTestId('workspace-error')).toContainText('No such folder');

    await dialog.getByTestId('workspace-input').fill(project);
    await dialog.getByTestId('workspace-next').click();
    await dialog.getByTestId('workspace-confirm').click();
    await expect(dialog).toHaveCount(0);
    await expect(header.getByTestId('workspace-path')).toHaveText(project);

    await page.reload();
    await expect(page.getByTestId('workspace-folder').getByTestId('workspace-path')).toHaveText(project);
  } finally {
    rmSync(project, { recursive: true, force: true });
  }
});
