// Flow: figures from a source PDF. The scripted model calls extract_figures on a PDF whose images
// are known (two pictures with captions, a logo on every page, an icon, a drawn bar chart); the tool
// runs for real (pdfjs in the worker, poppler), and the saved PNGs are fetched back over /v1.
import { createTask, expect, test } from './support/fixtures';
import { scriptModel } from './support/fake-model';
import { expectRunsDone, hasCommand, sendMessage, setApprovalMode, toolMessagesOfLastRequest } from './support/flows';
import { paperWithFigures } from '../src/main/sources/figures/testing';

const PNG_SIGNATURE = '89504e470d0a1a0a';

test('figures of a source PDF are saved with their pages, sizes and captions, ready for a slide', async ({ page, folio }) => {
  test.skip(!hasCommand('pdfimages') || !hasCommand('pdftoppm'), 'poppler-utils (pdfimages, pdftoppm) is not installed: extract_figures cannot run');
  await scriptModel([
    { toolCalls: [{ name: 'extract_figures', arguments: JSON.stringify({ path: 'source/paper.pdf' }) }] },
    { text: 'Saved the figures of paper.pdf.' },
  ]);

  await page.goto(folio.appUrl);
  const taskId = await createTask(page, 'ppt');
  await setApprovalMode(page, folio, taskId, 'auto-edit');
  await page.getByTestId('file-input').setInputFiles({ name: 'paper.pdf', mimeType: 'application/pdf', buffer: Buffer.from(paperWithFigures()) });
  await expect(page.locator('[data-testid="file-item"][data-path="source/paper.pdf"]')).toHaveCount(1);

  await sendMessage(page, 'Put the figures of the paper on slides');
  await expectRunsDone(page, 1);
  const card = page.getByTestId('chat-view').locator('[data-testid="tool-card"][data-tool-name="extract_figures"]');
  await expect(card.getByTestId('tool-result')).not.toHaveClass(/error/);

  // What the model was told: each figure with its page, pixel size and caption, and how to cite it.
  const [result = ''] = await toolMessagesOfLastRequest();
  expect(result).toContain('work/figures/paper/p1-fig1.png: page 1, 200×120 px, embedded image');
  expect(result).toContain('Figure 1. Growth of sales in 2023');
  expect(result).toContain('work/figures/paper/p2-fig1.png: page 2, 320×160 px, embedded image');
  expect(result).toMatch(/p3-fig1\.png: page 3, \d+×\d+ px, drawn figure/u);
  expect(result).toContain('an image repeated on 3 pages');
  expect(result).toContain('来源：paper.pdf 第 N 页');

  // The files are real PNGs in the task, and the index lists them with their pages.
  for (const rel of ['work/figures/paper/p1-fig1.png', 'work/figures/paper/p2-fig1.png']) {
    const response = await fetch(`${folio.origin}/v1/tasks/${taskId}/files/${rel}`, { headers: { Authorization: `Bearer ${folio.token}` } });
    expect(response.ok, rel).toBe(true);
    expect(Buffer.from(await response.arrayBuffer()).subarray(0, 8).toString('hex'), rel).toBe(PNG_SIGNATURE);
  }
  const index = await fetch(`${folio.origin}/v1/tasks/${taskId}/files/work/figures/index.json`, { headers: { Authorization: `Bearer ${folio.token}` } });
  const figures = ((await index.json()) as { figures: { file: string; page: number; kind: string }[] }).figures;
  expect(figures.map((f) => [f.file, f.page, f.kind])).toEqual(
    expect.arrayContaining([
      ['work/figures/paper/p1-fig1.png', 1, 'embedded'],
      ['work/figures/paper/p2-fig1.png', 2, 'embedded'],
    ]),
  );
});
