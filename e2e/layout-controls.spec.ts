// The window's columns as a person arranges them: the sidebar and the right panel resized by dragging
// their edge or with the arrow keys, the sidebar folded to a rail, all kept across a reload; and a new
// task's panel opening on its files, not on an empty Results tab.
import { type Locator, type Page } from '@playwright/test';
import { createTask, expect, test } from './support/fixtures';

const WIDE = { width: 1280, height: 800 };

async function widthOf(locator: Locator): Promise<number> {
  return Math.round((await locator.boundingBox())!.width);
}

/** Drags a resize handle sideways by `dx` px with the mouse. */
async function drag(page: Page, handle: Locator, dx: number): Promise<void> {
  const box = (await handle.boundingBox())!;
  const x = box.x + box.width / 2;
  const y = box.y + box.height / 2;
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + dx / 2, y);
  await page.mouse.move(x + dx, y);
  await page.mouse.up();
}

test.use({ viewport: WIDE });

test('the sidebar and the panel are resized by dragging and with the arrow keys, and keep their widths after a reload', async ({ page, folio }) => {
  await page.goto(folio.appUrl);
  await createTask(page, 'general');
  const sidebar = page.getByTestId('sidebar');
  const panel = page.getByTestId('files-panel');
  const sidebarHandle = page.getByTestId('sidebar-resize');
  const panelHandle = page.getByTestId('panel-resize');

  // The sidebar's edge dragged 60 px to the right: the sidebar is 60 px wider, and says so.
  const sidebarBefore = await widthOf(sidebar);
  await drag(page, sidebarHandle, 60);
  await expect.poll(() => widthOf(sidebar)).toBe(sidebarBefore + 60);
  await expect(sidebarHandle).toHaveAttribute('aria-valuenow', String(sidebarBefore + 60));
  // Dragged far: it stops at its widest.
  await drag(page, sidebarHandle, 400);
  await expect.poll(() => widthOf(sidebar)).toBe(420);
  await sidebarHandle.focus();
  await page.keyboard.press('ArrowLeft');
  await expect.poll(() => widthOf(sidebar)).toBe(404);

  // The panel's edge is on its left: ArrowLeft widens it, 16 px a press, from the width on screen.
  const panelBefore = await widthOf(panel);
  await expect(panelHandle).toHaveAttribute('aria-valuenow', String(panelBefore));
  await panelHandle.focus();
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  await expect.poll(() => widthOf(panel)).toBe(panelBefore + 32);
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => widthOf(panel)).toBe(panelBefore + 16);
  await drag(page, panelHandle, -40);
  await expect.poll(() => widthOf(panel)).toBe(panelBefore + 56);

  await page.reload();
  await expect(page.getByTestId('chat-view')).toBeVisible();
  await expect.poll(() => widthOf(sidebar)).toBe(404);
  await expect.poll(() => widthOf(panel)).toBe(panelBefore + 56);
});

test('the panel handle on the Results tab starts from the width on screen', async ({ page, folio }) => {
  await page.goto(folio.appUrl);
  await createTask(page, 'general');
  await page.getByTestId('panel-tab-artifacts').click();
  const panel = page.getByTestId('files-panel');
  // The Results tab is wider by itself (a third of the window) until the person chooses a width.
  const before = await widthOf(panel);
  const handle = page.getByTestId('panel-resize');
  await expect(handle).toHaveAttribute('aria-valuenow', String(before));
  await handle.focus();
  await page.keyboard.press('ArrowLeft');
  await expect.poll(() => widthOf(panel)).toBe(before + 16);
});

test('the sidebar folds to a rail and back, and stays folded after a reload', async ({ page, folio }) => {
  await page.goto(folio.appUrl);
  await createTask(page, 'general');
  const sidebar = page.getByTestId('sidebar');
  const chat = page.getByTestId('chat-view');
  const chatWidth = await widthOf(chat);

  await page.getByTestId('sidebar-toggle').click();
  await expect(sidebar).toHaveAttribute('data-collapsed', 'true');
  await expect(page.getByTestId('task-list')).toHaveCount(0);
  await expect(page.getByTestId('sidebar-toggle')).toHaveAttribute('aria-expanded', 'false');
  // The room goes to the conversation; Settings stays one click away on the rail.
  expect(await widthOf(chat)).toBeGreaterThan(chatWidth + 150);
  await expect(page.getByTestId('nav-settings')).toBeVisible();

  await page.reload();
  await expect(chat).toBeVisible();
  await expect(sidebar).toHaveAttribute('data-collapsed', 'true');

  await page.getByTestId('sidebar-toggle').click();
  await expect(sidebar).not.toHaveAttribute('data-collapsed', 'true');
  await expect(page.getByTestId('task-list')).toBeVisible();
  await expect(page.getByTestId('sidebar-toggle')).toHaveAttribute('aria-expanded', 'true');
  await expect.poll(() => widthOf(chat)).toBe(chatWidth);
  await page.reload();
  await expect(page.getByTestId('task-list')).toBeVisible();
});

test('a new task opens its panel on the Files tab, even when the last task showed its Results', async ({ page, folio }) => {
  await page.goto(folio.appUrl);
  await createTask(page, 'general');
  const panel = page.getByTestId('files-panel');
  await expect(panel).toHaveAttribute('data-tab', 'files');
  await page.getByTestId('panel-tab-artifacts').click();
  await expect(panel).toHaveAttribute('data-tab', 'artifacts');

  await createTask(page, 'ppt');
  await expect(panel).toHaveAttribute('data-tab', 'files');
  await expect(page.getByTestId('panel-tab-files')).toHaveAttribute('aria-selected', 'true');
});
