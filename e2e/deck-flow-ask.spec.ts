// The deck flow in the default mode ("Ask every time"), from task to rendered deck: the outline is
// approved once, and every time the run waits for the person its approval card is on screen and the
// composer says so. Approving the outline allows writing the spec under work/ and rendering, so
// those do not ask again; a command still does, also in a run started from the deck preview.
import { expectWaitingInView } from './support/approvals';
import { createTask, expect, test } from './support/fixtures';
import { scriptModel } from './support/fake-model';
import { expectRunsDone, sendMessage } from './support/flows';

const proposal = {
  slides: [
    { title: 'Urban heat islands', layout: 'title' },
    { title: 'Cities run 2.5 °C hotter', layout: 'bullets', points: ['12 stations', 'Worst on summer afternoons'] },
    { title: 'Thank you', layout: 'closing' },
  ],
};
const deck = {
  title: 'Urban heat islands',
  slides: [
    { layout: 'title' },
    { layout: 'bullets', title: 'Cities run 2.5 °C hotter', bullets: ['12 stations', 'Worst on summer afternoons'] },
    { layout: 'closing', title: 'Thank you' },
  ],
};

for (const size of [
  { width: 1280, height: 800 },
  { width: 900, height: 700 },
]) {
  test(`ask every time, ${size.width}×${size.height}: outline, one approval in view, rendered deck`, async ({ page, folio }) => {
    test.setTimeout(180_000);
    await page.setViewportSize(size);
    await scriptModel([{ toolCalls: [{ name: 'propose_outline', arguments: JSON.stringify(proposal) }] }]);
    await page.goto(folio.appUrl);
    await createTask(page, 'ppt');
    await expect(page.getByTestId('approval-mode-picker')).toHaveValue('ask');
    await sendMessage(page, 'A 3-slide deck on urban heat');
    const panel = page.getByTestId('outline-panel');
    await expect(panel).toHaveAttribute('data-status', 'proposed');
    await expect(page.getByTestId('chat-view')).toHaveAttribute('data-running', 'false');
    await expect(panel.getByTestId('outline-approve')).toBeInViewport();

    await scriptModel([
      { toolCalls: [{ name: 'shell', arguments: JSON.stringify({ command: 'ls source work' }) }] },
      { toolCalls: [{ name: 'write', arguments: JSON.stringify({ path: 'work/deck.json', content: JSON.stringify(deck) }) }] },
      { toolCalls: [{ name: 'render_deck', arguments: JSON.stringify({ spec_path: 'work/deck.json', name: 'heat' }) }] },
      { text: 'The deck is ready: artifacts/heat.pptx.' },
    ]);
    await panel.getByTestId('outline-approve').click();

    // The one question of this run: the command. The approved outline has folded away.
    await expectWaitingInView(page);
    await expect(panel.getByTestId('outline-toggle')).toHaveAttribute('aria-expanded', 'false');
    const chat = page.getByTestId('chat-view');
    await expect(chat.getByTestId('approval-card').getByTestId('approval-command')).toHaveText('ls source work');
    await page.screenshot({ path: `test-artifacts/e2e-deck-flow-ask-${size.width}.png` });
    await chat.getByTestId('approval-card').getByTestId('approval-allow-once').click();

    // Writing the spec and rendering it do not ask: the outline's approval covered them.
    await expectRunsDone(page, 2);
    await expect(chat.getByTestId('approval-card')).toHaveCount(0);
    await expect(chat.locator('[data-testid="tool-card"][data-tool-name="render_deck"]').getByTestId('tool-result')).toContainText('Rendered artifacts/heat.pptx');
    await expect(chat.getByTestId('assistant-message').last()).toContainText('The deck is ready');
    await expect(page.getByTestId('composer-waiting')).toHaveCount(0);

    // The grants are listed for the task and can be taken back.
    await page.getByTestId('task-grants').click();
    await expect(page.getByTestId('task-grant')).toHaveCount(3);
    await expect(page.locator('[data-testid="task-grant"][data-tool="write"]')).toContainText('files under work/');
    await page.keyboard.press('Escape');

    // A change asked from the deck preview (at 900 px a drawer over the chat): the run it starts
    // waits on a command, and that card is brought into view, not left behind the preview.
    const toggle = page.getByTestId('panel-toggle');
    if ((await toggle.getAttribute('aria-expanded')) === 'false') await toggle.click();
    await page.getByTestId('panel-tab-artifacts').click();
    await page.locator('[data-testid="artifact-item"][data-path="artifacts/heat.pptx"]').click();
    const preview = page.getByTestId('artifact-preview');
    await preview.getByTestId('slide-select').nth(1).check();
    const bar = preview.getByTestId('slide-change-bar');
    await scriptModel([
      { toolCalls: [{ name: 'shell', arguments: JSON.stringify({ command: 'ls work' }) }] },
      { text: 'Slide 2 stays as it is.' },
    ]);
    await bar.getByTestId('slide-change-input').fill('shorter title');
    await bar.getByTestId('slide-change-send').click();
    await expectWaitingInView(page);
    await expect(chat.getByTestId('approval-card').getByTestId('approval-command')).toHaveText('ls work');
    await chat.getByTestId('approval-card').getByTestId('approval-allow-once').click();
    await expectRunsDone(page, 3);
  });
}
