// The popup menus share one behaviour (components/menu/use-menu.ts): opened from the keyboard they
// take the focus to an item, the arrows move between items, Escape closes and gives the focus back
// to the menu's button, and tabbing away or pressing outside closes them.
import { expect, test } from './support/fixtures';

test('the new-task, MCP and grants menus work from the keyboard and give the focus back', async ({ page, folio }) => {
  await page.goto(folio.appUrl);
  const newTask = page.getByTestId('new-task');
  const menu = page.getByTestId('new-task-menu');

  // Arrow down on the button opens the menu at its first mode; the arrows wrap, End jumps.
  await newTask.focus();
  await page.keyboard.press('ArrowDown');
  await expect(menu).toBeVisible();
  await expect(newTask).toHaveAttribute('aria-expanded', 'true');
  await expect(page.getByTestId('new-task-mode-ppt')).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(page.getByTestId('new-task-mode-proposal')).toBeFocused();
  await page.keyboard.press('End');
  await expect(page.getByTestId('new-task-mode-general')).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(page.getByTestId('new-task-mode-ppt')).toBeFocused();
  await page.keyboard.press('ArrowUp');
  await expect(page.getByTestId('new-task-mode-general')).toBeFocused();

  // Escape closes it and the focus is back on the button.
  await page.keyboard.press('Escape');
  await expect(menu).toHaveCount(0);
  await expect(newTask).toBeFocused();
  await expect(newTask).toHaveAttribute('aria-expanded', 'false');

  // Arrow up opens it at the last mode; tabbing away closes it.
  await page.keyboard.press('ArrowUp');
  await expect(page.getByTestId('new-task-mode-general')).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(menu).toHaveCount(0);

  // A press outside closes it.
  await newTask.click();
  await expect(menu).toBeVisible();
  await page.mouse.click(900, 500);
  await expect(menu).toHaveCount(0);

  // The new-task shortcut opens it with the first mode focused.
  await page.keyboard.press('Control+Shift+O');
  await expect(page.getByTestId('new-task-mode-ppt')).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(menu).toHaveCount(0);

  // Enter on a mode makes the task.
  await newTask.focus();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('End');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('mcp-menu')).toBeVisible();

  // The chat header's menus: opened from the keyboard, closed with Escape, the focus back on their buttons.
  for (const [button, popover] of [
    ['mcp-menu', 'mcp-menu-popover'],
    ['task-grants', 'task-grants-popover'],
  ] as const) {
    const trigger = page.getByTestId(button);
    await trigger.focus();
    await page.keyboard.press('Enter');
    await expect(page.getByTestId(popover)).toBeVisible();
    await expect(trigger).toHaveAttribute('aria-expanded', 'true');
    await page.keyboard.press('Escape');
    await expect(page.getByTestId(popover)).toHaveCount(0);
    await expect(trigger).toBeFocused();
  }
});
