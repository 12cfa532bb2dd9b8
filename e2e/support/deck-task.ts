// A ppt task whose first run has rendered a deck: the set-up of the specs that start from a finished
// deck (its preview, its versions, the panel around it).
import { type Page } from '@playwright/test';
import { type FakeModelStep, scriptModel } from './fake-model';
import { createTask, expect } from './fixtures';
import { expectRunsDone, sendMessage, setApprovalMode } from './flows';
import { type FolioServer } from './folio-server';

/** The fake model's turns for a deck: write the spec to work/deck.json, render it as `name`, then reply. */
export function writeAndRenderDeck(spec: unknown, name: string, reply: string): FakeModelStep[] {
  return [
    { toolCalls: [{ name: 'write', arguments: JSON.stringify({ path: 'work/deck.json', content: JSON.stringify(spec, null, 2) }) }] },
    { toolCalls: [{ name: 'render_deck', arguments: JSON.stringify({ spec_path: 'work/deck.json', name }) }] },
    { text: reply },
  ];
}

/**
 * Opens the app, makes a ppt task that runs edits without asking, asks for a deck the fake model
 * writes from `spec` and renders as artifacts/<name>.pptx, waits for that run and opens the Results
 * tab with the deck listed. The viewport is the caller's. Returns the task's id.
 */
export async function taskWithRenderedDeck(page: Page, folio: FolioServer, spec: unknown, name: string): Promise<string> {
  await scriptModel(writeAndRenderDeck(spec, name, 'Your deck is ready.'));
  await page.goto(folio.appUrl);
  const taskId = await createTask(page, 'ppt');
  await setApprovalMode(page, folio, taskId, 'auto-edit');
  await sendMessage(page, 'Make a deck from my notes');
  await expectRunsDone(page, 1);
  await page.getByTestId('panel-tab-artifacts').click();
  await expect(page.locator(`[data-testid="artifact-item"][data-path="artifacts/${name}.pptx"]`)).toHaveCount(1);
  return taskId;
}
