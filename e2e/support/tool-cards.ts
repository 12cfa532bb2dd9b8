// A finished tool call's output shows only its first lines in the conversation until the person
// expands it; a check on text further in expands the card first, as the person would.
import { expect, type Locator } from '@playwright/test';

/** Expands the card's output when it is collapsed (a short output has no toggle) and returns it. */
export async function expandedToolResult(card: Locator): Promise<Locator> {
  const result = card.getByTestId('tool-result');
  await expect(result).toBeVisible();
  const toggle = card.getByTestId('tool-expand');
  if ((await toggle.count()) > 0 && (await toggle.getAttribute('aria-expanded')) === 'false') await toggle.click();
  await expect(result).not.toHaveAttribute('data-collapsed');
  return result;
}
