// Flow, outline first: the agent proposes a deck outline and stops; the person rewrites a
// title, swaps two rows with the keyboard (dnd-kit's sortable keyboard sensor) and approves; the
// model's next request carries the approved outline, and the rendered deck follows the edited order.
import { createTask, expect, test } from './support/fixtures';
import { recordedRequests, scriptModel } from './support/fake-model';
import { expectRunsDone, sendMessage, setApprovalMode } from './support/flows';

const NOTES = ['# Heat island field notes', '', 'Page 1: cities are 2.5 °C hotter than the countryside in summer.', 'Page 2: +10% green cover lowers surface heat by 0.8 °C.'].join('\n');

const proposal = {
  slides: [
    { title: 'Urban heat islands', layout: 'title' },
    { title: 'Cities run 2.5 °C hotter', layout: 'stat', points: ['12 stations', 'Worst on summer afternoons'], sources: [{ file: 'source/notes.md' }] },
    { title: 'Green space cools the most', layout: 'bullets', points: ['+10% cover: -0.8 °C', 'Water helps less'], sources: [{ file: 'source/notes.md' }] },
    { title: 'Thank you', layout: 'closing' },
  ],
};

// What the person makes of it: row 3 retitled, then moved above row 2.
const EDITED_TITLE = 'Parks beat fountains';
const editedOrder = ['Urban heat islands', EDITED_TITLE, 'Cities run 2.5 °C hotter', 'Thank you'];

// The spec the (scripted) model writes from the approved outline: the same rows, in the same order.
const deck = {
  title: 'Urban heat islands',
  slides: [
    { layout: 'title' },
    { layout: 'bullets', title: EDITED_TITLE, bullets: ['+10% cover: -0.8 °C', 'Water helps less'], notes: 'Source: notes.md' },
    { layout: 'stat', title: 'Cities run 2.5 °C hotter', stats: [{ value: '2.5 °C', label: 'hotter than the countryside' }], notes: 'Source: notes.md' },
    { layout: 'closing', title: 'Thank you' },
  ],
};

interface ChatBody {
  /** Folio sends every message's content as a string. */
  messages: { role: string; content: string }[];
}

test('an outline is proposed, edited, reordered with the keyboard and approved; the deck follows it', async ({ page, folio }) => {
  // Two runs and a render checked by LibreOffice: more than the default budget on a busy machine.
  test.setTimeout(180_000);
  await scriptModel([{ toolCalls: [{ name: 'propose_outline', arguments: JSON.stringify(proposal) }] }]);

  await page.goto(folio.appUrl);
  const taskId = await createTask(page, 'ppt');
  await page.getByTestId('file-input').setInputFiles({ name: 'notes.md', mimeType: 'text/markdown', buffer: Buffer.from(NOTES) });
  await expect(page.locator('[data-testid="file-item"][data-path="source/notes.md"]')).toHaveCount(1);

  // Default "ask" mode: proposing an outline asks nothing, and the run ends waiting for the person.
  await sendMessage(page, 'Make a 4-slide deck from my notes');
  await expectRunsDone(page, 1);
  const chat = page.getByTestId('chat-view');
  await expect(chat.getByTestId('approval-card')).toHaveCount(0);

  const panel = page.getByTestId('outline-panel');
  await expect(panel).toHaveAttribute('data-status', 'proposed');
  const rows = panel.getByTestId('outline-row');
  await expect(rows).toHaveCount(4);
  const titles = panel.getByTestId('outline-title');
  await expect(titles.nth(1)).toHaveValue('Cities run 2.5 °C hotter');
  expect((await recordedRequests()).filter((r) => r.path === '/v1/chat/completions')).toHaveLength(1);

  // Edit row 3's title, then move it up one place with the keyboard: Space, ArrowUp, Space.
  await titles.nth(2).fill(EDITED_TITLE);
  const handle = rows.nth(2).getByTestId('outline-row-handle');
  await handle.focus();
  // Each key waits for dnd-kit to have acted on the previous one (a loaded machine drops a move made
  // before the pick-up has been measured): picked up, then over its new place, then dropped.
  await page.keyboard.press('Space');
  await expect(handle).toHaveAttribute('aria-pressed', 'true');
  await page.keyboard.press('ArrowUp');
  await expect(page.getByText('Over position 2.', { exact: true })).toBeAttached();
  await page.keyboard.press('Space');
  await expect(handle).not.toHaveAttribute('aria-pressed', 'true');
  for (const [index, title] of editedOrder.entries()) await expect(titles.nth(index)).toHaveValue(title);
  await expect(rows.nth(1)).toHaveAttribute('data-row-id', 's3');
  await panel.screenshot({ path: 'test-artifacts/e2e-deck-outline-editing.png' });

  // The render is an edit: let it run without an approval card, then approve the outline.
  await setApprovalMode(page, folio, taskId, 'auto-edit');
  await scriptModel([
    { toolCalls: [{ name: 'render_deck', arguments: JSON.stringify({ spec: deck, name: 'heat' }) }] },
    { text: 'The deck follows your outline: artifacts/heat.pptx.' },
  ]);
  await page.getByTestId('outline-approve').click();
  await expectRunsDone(page, 2);
  await expect(panel).toHaveAttribute('data-status', 'approved');
  // Approved, the outline folds away (the chat shows the run); opened again, it reads as approved.
  await expect(panel.getByTestId('outline-toggle')).toHaveAttribute('aria-expanded', 'false');
  await panel.getByTestId('outline-toggle').click();
  await expect(panel.getByTestId('outline-title-text')).toHaveText(editedOrder);
  await expect(panel.getByTestId('outline-edit-again')).toBeVisible();
  await expect(chat.getByTestId('user-message').last()).toContainText('Outline approved (4 slides)');

  // The model's first request after approval carried the approved outline, in the edited order.
  const chats = (await recordedRequests()).filter((r) => r.path === '/v1/chat/completions');
  const afterApproval = chats[1]?.body as ChatBody | undefined;
  const system = afterApproval?.messages.find((m) => m.role === 'system')?.content ?? '';
  expect(system).toContain('## Approved deck outline');
  const lines = ['[s1] title: Urban heat islands', `[s3] bullets: ${EDITED_TITLE}`, '[s2] stat: Cities run 2.5 °C hotter', '[s4] closing: Thank you'];
  const at = lines.map((line) => system.indexOf(line));
  expect(at.every((i) => i >= 0), `outline lines in the system prompt:\n${system.slice(system.indexOf('## Approved'))}`).toBe(true);
  expect([...at].sort((a, b) => a - b)).toEqual(at);
  expect(afterApproval?.messages.at(-1)?.content).toContain('Outline approved (4 slides)');

  // The rendered deck's slides follow the edited outline.
  const renderCard = chat.locator('[data-testid="tool-card"][data-tool-name="render_deck"]');
  await expect(renderCard.getByTestId('tool-result')).toContainText('Rendered artifacts/heat.pptx');
  await page.getByTestId('panel-tab-artifacts').click();
  await page.locator('[data-testid="artifact-item"][data-path="artifacts/heat.pptx"]').click();
  const thumbs = page.getByTestId('artifact-preview').getByTestId('slide-thumb');
  await expect(thumbs).toHaveCount(4);
  for (const [index, title] of editedOrder.entries()) await expect(thumbs.nth(index).getByTestId('slide-title')).toHaveText(title);
  await page.getByTestId('outline-panel').screenshot({ path: 'test-artifacts/e2e-deck-outline.png' });
});

test('a 30-slide outline scrolls inside its panel: the conversation keeps its room and Approve stays in reach', async ({ page, folio }) => {
  const slides = Array.from({ length: 30 }, (_, i) => ({ title: `Finding ${i + 1} changes the plan`, layout: 'bullets', points: ['First point', 'Second point'] }));
  await scriptModel([{ toolCalls: [{ name: 'propose_outline', arguments: JSON.stringify({ slides }) }] }]);
  await page.goto(folio.appUrl);
  await createTask(page, 'ppt');
  await sendMessage(page, 'Thirty slides, please');
  await expectRunsDone(page, 1);

  const panel = page.getByTestId('outline-panel');
  await expect(panel.getByTestId('outline-row')).toHaveCount(30);
  const chatBox = await page.getByTestId('chat-view').boundingBox();
  const panelBox = await panel.boundingBox();
  expect(chatBox && panelBox && panelBox.height <= chatBox.height * 0.6 + 1).toBe(true);
  await expect(page.getByTestId('message-list')).toBeVisible();
  await expect(page.getByTestId('composer-input')).toBeInViewport();

  // The last row scrolls into view inside the panel, and the header's Approve button stays visible.
  const last = panel.getByTestId('outline-row').last();
  await last.getByTestId('outline-title').scrollIntoViewIfNeeded();
  await expect(last.getByTestId('outline-title')).toBeInViewport();
  await expect(last.getByTestId('outline-title')).toHaveValue('Finding 30 changes the plan');
  await expect(panel.getByTestId('outline-approve')).toBeInViewport();
  await expect(panel.getByTestId('outline-approve')).toBeEnabled();
});
