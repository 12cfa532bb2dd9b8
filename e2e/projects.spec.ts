// Projects and a library: a project with standing instructions and a library file; the file
// is indexed, a search in the UI finds its page, and a task started in the project sends the
// instructions to the model.
import { readFileSync } from 'node:fs';
import { createTask, expect, test } from './support/fixtures';
import { recordedRequests, scriptModel } from './support/fake-model';
import { expectRunsDone, sendMessage, textPdf } from './support/flows';

const PROJECT = 'Qingteng grant 2027';
const INSTRUCTIONS = 'Our lab is the Qingteng Lab at Example University. Always cite sources as GB/T 7714.';
// Distinctive enough that only the fixture's second page holds it.
const PHRASE = '青藤实验室的检索增强生成评测';

/** The system messages of the last chat request Folio sent to the model, as text. */
async function lastSystemPrompt(): Promise<string> {
  const chats = (await recordedRequests()).filter((r) => r.method === 'POST' && r.path === '/v1/chat/completions');
  const body = chats.at(-1)?.body as { messages?: { role: string; content: unknown }[] } | undefined;
  if (!body?.messages) throw new Error('the fake model has received no chat request');
  return body.messages
    .filter((m) => m.role === 'system')
    .map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content)))
    .join('\n');
}

test('a project with instructions and a library: the file is indexed and found with its page, and its tasks get the instructions', async ({ page, folio }) => {
  const pdf = textPdf('qingteng-notes', ['Lab notes, page one: the group, its members and its instruments.', `第二页：${PHRASE}结果与讨论。`]);
  await page.goto(folio.appUrl);

  // Create the project from the sidebar; its page opens.
  await page.getByTestId('project-new').click();
  const name = page.getByTestId('project-new-name');
  await name.fill(PROJECT);
  await name.press('Enter');
  const projectPage = page.getByTestId('project-page');
  await expect(page.getByTestId('project-title')).toHaveText(PROJECT);
  const projectId = await projectPage.getAttribute('data-project-id');
  expect(projectId).toBeTruthy();

  // Standing instructions, saved explicitly.
  await page.getByTestId('project-instructions').fill(INSTRUCTIONS);
  await page.getByTestId('project-save').click();
  await expect(page.getByTestId('project-saved')).toBeVisible();

  // A library file (multipart upload in web mode), indexed with measured progress.
  await page.getByTestId('library-file-input').setInputFiles({ name: 'qingteng-notes.pdf', mimeType: 'application/pdf', buffer: readFileSync(pdf) });
  const file = page.getByTestId('library-file').filter({ hasText: 'qingteng-notes.pdf' });
  await expect(file).toHaveCount(1);
  await expect(file).toHaveAttribute('data-status', 'ok', { timeout: 60_000 });
  await expect(file.getByTestId('library-file-status')).toContainText('2 pages');
  await expect(page.getByTestId('library-progress')).toHaveAttribute('data-queued', '0');

  // Search in Chinese: the hit names the file and its page, with the match marked.
  await page.getByTestId('library-search-input').fill('检索增强');
  await page.getByTestId('library-search-submit').click();
  const hit = page.getByTestId('library-hit').first();
  await expect(hit).toContainText('qingteng-notes.pdf');
  await expect(hit).toHaveAttribute('data-page', '2');
  await expect(hit.getByTestId('library-hit-page')).toHaveText('p. 2');
  await expect(hit.locator('mark').first()).toContainText('检索');

  // Clicking the hit opens its file at the hit's page; Escape closes it.
  await hit.getByTestId('library-hit-open').click();
  const dialog = page.getByTestId('library-file-dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('heading')).toHaveText('qingteng-notes.pdf');
  await expect(dialog.locator('[data-testid="pdf-page"][aria-current="page"]')).toHaveAttribute('data-page', '2');
  await expect(dialog.locator('[data-testid="pdf-page"][data-page="2"] canvas')).toBeVisible();
  // One page at a time, in one column, with the way back to the earlier page (buttons and keys).
  await expect(dialog.getByTestId('pdf-page')).toHaveCount(1);
  await expect(dialog.getByTestId('pdf-page-of')).toHaveText('Page 2 of 2');
  // A string is evaluated as an expression in the page (a function written as a string is not called).
  const columns = await page.evaluate<string>(`getComputedStyle(document.querySelector('[data-testid="library-file-dialog"] .pdf-grid')).gridTemplateColumns`);
  expect(columns.split(' ')).toHaveLength(1);
  await expect(dialog.getByTestId('pdf-next')).toBeDisabled();
  await dialog.getByTestId('pdf-prev').click();
  await expect(dialog.locator('[data-testid="pdf-page"][data-page="1"] canvas')).toBeVisible();
  await expect(dialog.getByTestId('pdf-page-of')).toHaveText('Page 1 of 2');
  await expect(dialog.getByTestId('pdf-prev')).toBeDisabled();
  await page.keyboard.press('ArrowRight');
  await expect(dialog.locator('[data-testid="pdf-page"][data-page="2"] canvas')).toBeVisible();
  await page.keyboard.press('Home');
  await expect(dialog.getByTestId('pdf-page-of')).toHaveText('Page 1 of 2');
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);

  // The file's name in the library list opens it too, from its first page.
  await file.getByTestId('library-file-open').click();
  await expect(dialog.locator('[data-testid="pdf-page"][data-page="1"] canvas')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);

  // A task started while the project is selected belongs to it, and its run gets the instructions.
  await scriptModel([{ text: 'Noted: Qingteng Lab, GB/T 7714.' }]);
  const taskId = await createTask(page, 'proposal');
  await page.getByTestId('task-options').click();
  await expect(page.getByTestId('task-project-picker')).toHaveValue(projectId!);
  await page.keyboard.press('Escape');
  await sendMessage(page, 'Draft the opening paragraph of our proposal.');
  await expectRunsDone(page, 1);
  const prompt = await lastSystemPrompt();
  expect(prompt).toContain(INSTRUCTIONS);

  // The task's sources count what its agent reads: the project library's file, named in its prompt.
  expect(prompt).toContain('library/project/qingteng-notes.pdf');
  await page.getByTestId('panel-tab-files').click();
  await expect(page.getByTestId('file-count-source')).toHaveText('1');
  const shared = page.getByTestId('task-library');
  await expect(shared).toHaveCount(1);
  await expect(shared).toHaveAttribute('data-library', projectId!);
  await expect(shared).toContainText('Project library');
  await expect(shared).toContainText('1 file');
  await shared.getByTestId('task-library-open').click();
  await expect(page.getByTestId('project-title')).toHaveText(PROJECT);

  // In "All tasks" the task shows its project.
  await page.getByTestId('project-scope-all').click();
  const item = page.locator(`[data-testid="task-item"][data-task-id="${taskId}"]`);
  await expect(item.getByTestId('task-project')).toHaveText(PROJECT);
});
