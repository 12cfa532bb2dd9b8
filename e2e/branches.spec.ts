// Regenerate an answer, edit an earlier message, and switch between the branches both leave.
import { type Locator, type Page } from '@playwright/test';
import { createTask, expect, test } from './support/fixtures';
import { recordedRequests, scriptModel } from './support/fake-model';

/** The conversation of the model's last request, without the system prompt. */
async function lastModelConversation(): Promise<string[]> {
  const requests = await recordedRequests();
  const chat = requests.filter((r) => r.path.endsWith('/chat/completions')).at(-1);
  const body = chat?.body as { messages: { role: string; content: string | null }[] };
  return body.messages.filter((m) => m.role !== 'system').map((m) => `${m.role}:${m.content ?? ''}`);
}

async function idle(page: Page): Promise<Locator> {
  const chat = page.getByTestId('chat-view');
  await expect(chat).toHaveAttribute('data-running', 'false');
  await expect(chat.locator('[data-live="true"]')).toHaveCount(0);
  return chat;
}

test('regenerate an answer, edit the first message, and switch between the branches', async ({ page, folio }) => {
  await scriptModel([{ text: 'Cats sleep a lot.' }, { text: 'Cats purr.' }, { text: 'Dogs bark.' }]);
  await page.goto(folio.appUrl);
  await createTask(page, 'general');
  const input = page.getByTestId('composer-input');
  await input.fill('Tell me about cats');
  await input.press('Enter');

  let chat = await idle(page);
  const user = chat.getByTestId('user-message');
  const reply = chat.getByTestId('assistant-message');
  await expect(reply).toContainText('Cats sleep a lot.');
  await expect(chat.getByTestId('branch-switcher')).toHaveCount(0);

  // Regenerate: a second answer to the same message; the first is kept as branch 1 of 2.
  await chat.getByTestId('regenerate').click();
  chat = await idle(page);
  await expect(reply).toContainText('Cats purr.');
  await expect(reply.getByTestId('branch-position')).toHaveText('2 / 2');
  expect(await lastModelConversation()).toEqual(['user:Tell me about cats']);

  await reply.getByTestId('branch-prev').click();
  await expect(reply).toContainText('Cats sleep a lot.');
  await expect(reply.getByTestId('branch-position')).toHaveText('1 / 2');
  await reply.getByTestId('branch-next').click();
  await expect(reply).toContainText('Cats purr.');

  // Edit the first message: Cancel leaves it alone, Save & send starts a new branch from the edit.
  await user.hover();
  await user.getByTestId('edit-message').click();
  await page.getByTestId('message-editor-input').fill('Tell me about hamsters');
  await page.getByTestId('message-editor-cancel').click();
  await expect(page.getByTestId('message-editor')).toHaveCount(0);
  await expect(user.locator('.msg-bubble')).toHaveText('Tell me about cats');

  await user.hover();
  await user.getByTestId('edit-message').click();
  const editor = page.getByTestId('message-editor-input');
  await expect(editor).toHaveValue('Tell me about cats');
  await editor.fill('Tell me about dogs');
  await page.getByTestId('message-editor-save').click();
  chat = await idle(page);
  await expect(user.locator('.msg-bubble')).toHaveText('Tell me about dogs');
  await expect(reply).toContainText('Dogs bark.');
  await expect(reply.getByTestId('branch-switcher')).toHaveCount(0);
  await expect(user.getByTestId('branch-position')).toHaveText('2 / 2');
  // The model was sent the edited text only: not the original, not the answers to it.
  expect(await lastModelConversation()).toEqual(['user:Tell me about dogs']);

  // Back to the original message: its branch comes back where it was left (the regenerated answer).
  await user.getByTestId('branch-prev').click();
  await expect(user.locator('.msg-bubble')).toHaveText('Tell me about cats');
  await expect(reply).toContainText('Cats purr.');
  await expect(reply.getByTestId('branch-position')).toHaveText('2 / 2');
  await expect(user.getByTestId('branch-position')).toHaveText('1 / 2');

  // The active branch is stored, not just shown.
  await page.reload();
  chat = await idle(page);
  await expect(chat.getByTestId('user-message').locator('.msg-bubble')).toHaveText('Tell me about cats');
  await expect(chat.getByTestId('assistant-message')).toContainText('Cats purr.');
});
