// A finished tool call shows a summary; its output is behind a toggle, and shows only its first
// lines until the person expands it. A check on its text opens and expands it first, as a person would.
import { expect, type Locator } from '@playwright/test';

/** Expands the card's output when it is collapsed (a short output has no toggle) and returns it. */
export async function expandedToolResult(card: Locator): Promise<Locator> {
  const result = card.getByTestId('tool-result');
  await openRawOutput(card);
  await expect(result).toBeVisible();
  const toggle = card.getByTestId('tool-expand');
  if ((await toggle.count()) > 0 && (await toggle.getAttribute('aria-expanded')) === 'false') await toggle.click();
  await expect(result).not.toHaveAttribute('data-collapsed');
  return result;
}

/** Shows the output the model read behind the card's summary. */
export async function openRawOutput(card: Locator): Promise<void> {
  const toggle = card.getByTestId('tool-raw-toggle');
  if ((await toggle.getAttribute('aria-expanded')) === 'false') await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
}
