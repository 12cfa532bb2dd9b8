// What a run that waits for the person must look like: the approval card it waits on in view, its
// answers on top where they are drawn (not under a drawer), and the composer saying so.
import { type Page } from '@playwright/test';
import { expect } from './fixtures';

/** What the page's own button offers (the e2e project has no DOM types). */
interface Hittable {
  getBoundingClientRect(): { left: number; top: number; width: number; height: number };
  ownerDocument: { elementFromPoint(x: number, y: number): unknown };
  contains(other: unknown): boolean;
}

/** The run waits for the person: the card it waits on is in view, nothing covers it, and the composer says so. */
export async function expectWaitingInView(page: Page): Promise<void> {
  const card = page.getByTestId('chat-view').getByTestId('approval-card');
  await expect(card).toHaveCount(1);
  await expect(card).toBeInViewport();
  // In view is not enough: a drawer over the chat (the preview at 900 px) hides the card's right
  // side, Deny included, just the same. Every answer must be on top where it is drawn.
  for (const answer of [card.getByTestId('approval-allow-once'), card.getByTestId('approval-deny')]) {
    await expect(answer).toBeInViewport();
    await expect
      .poll(() =>
        answer.evaluate((button: Hittable) => {
          const box = button.getBoundingClientRect();
          return button.contains(button.ownerDocument.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2));
        }),
      )
      .toBe(true);
  }
  await expect(page.getByTestId('composer-waiting')).toHaveText('Waiting for your approval');
}

/**
 * Counts, from the page's first script on, every approval card the page ever shows (by call id), so a
 * question asked and answered between two checks is counted too. Read it with `approvalsShown`.
 */
export async function countApprovalsShown(page: Page): Promise<void> {
  await page.addInitScript({
    content: `window.__folioApprovalsShown = new Set();
new MutationObserver(() => {
  for (const card of document.querySelectorAll('[data-testid="approval-card"]')) window.__folioApprovalsShown.add(card.getAttribute('data-call-id'));
}).observe(document, { subtree: true, childList: true });`,
  });
}

export async function approvalsShown(page: Page): Promise<number> {
  return Number(await page.evaluate('window.__folioApprovalsShown.size'));
}
