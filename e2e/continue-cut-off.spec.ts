// An answer cut off by a server stop is kept as incomplete; after a restart and a reload, Continue
// asks the model again and the answer is completed (before, the run "finished" with no request).
import { createTask, expect, openTask, test } from './support/fixtures';
import { recordedRequests, scriptModel } from './support/fake-model';
import { startFolio, stopFolio } from './support/folio-server';
import { sendMessage } from './support/flows';

const LONG = 'Every acknowledged word is kept. '.repeat(60);
const REST = 'And this sentence finishes the answer.';

const chatRequests = async () => (await recordedRequests()).filter((r) => r.method === 'POST' && r.path === '/v1/chat/completions');

test('kill mid-stream, restart, reload, Continue: a model request is made and the answer completes', async ({ page, folio }) => {
  await scriptModel([{ text: LONG, chunkDelayMs: 40 }]);
  await page.goto(folio.appUrl);
  const taskId = await createTask(page, 'general');
  await sendMessage(page, 'Write me a long answer');
  const chat = page.getByTestId('chat-view');
  await expect(chat.getByTestId('assistant-message')).toContainText('Every acknowledged word is kept.');

  await stopFolio();
  await startFolio(folio.dataDir, folio.port);
  await page.reload();
  await openTask(page, taskId);
  await expect(chat.getByTestId('cut-off-note')).toBeVisible();
  await expect(chat.getByTestId('interrupted-banner')).toBeVisible();

  const before = (await chatRequests()).length;
  await scriptModel([{ text: REST }]);
  await chat.getByTestId('continue-task').click();
  await expect(chat.getByTestId('assistant-message').last()).toContainText(REST);
  await expect(chat.getByTestId('run-footer').last()).toHaveAttribute('data-run-status', 'done');
  await expect(chat.getByTestId('interrupted-banner')).toHaveCount(0);
  const requests = await chatRequests();
  expect(requests.length).toBe(before + 1);
  const sent = (requests.at(-1)!.body as { messages: { role: string; content: string }[] }).messages;
  // The fragment went to the model with a request to finish it.
  expect(sent.at(-2)).toMatchObject({ role: 'assistant' });
  expect(sent.at(-2)!.content.length).toBeLessThan(LONG.length);
  expect(sent.at(-1)).toMatchObject({ role: 'user' });
});
