// A task with thousands of messages opens at its tail; scrolling to the top pages earlier history
// in, keeping the message that was in view where it was, until the first message is reachable.
import { join } from 'node:path';
import { type Locator } from '@playwright/test';
import { openStore } from '../src/main/store';
import { expect, openTask, test } from './support/fixtures';
import { folioApi } from './support/folio-server';

const COUNT = 2_400;
const label = (n: number) => `History message ${String(n).padStart(4, '0')} of ${COUNT}`;

/** Writes the conversation straight into the server's database, as thousands of runs would have. */
function seedConversation(dataDir: string, taskId: string): void {
  const store = openStore(join(dataDir, 'folio.db'));
  try {
    store.transaction(() => {
      for (let n = 1; n <= COUNT; n++) {
        const long = n % 10 === 0 ? `\n\n${'长对话的历史记录 paged history. '.repeat(30)}` : '';
        store.messages.append({ id: `m_hist_${taskId}_${n}`, task_id: taskId, run_id: null, role: n % 2 === 1 ? 'user' : 'assistant', content: `${label(n)}${long}` });
      }
    });
  } finally {
    store.close();
  }
}

// The e2e code is type-checked without the DOM library: the little of it used in the page, by shape.
interface Rect {
  top: number;
  bottom: number;
}
interface ScrollBox {
  scrollTop: number;
  scrollTo(options: { top: number }): void;
  getBoundingClientRect(): Rect;
  querySelectorAll(selector: string): Iterable<{ getBoundingClientRect(): Rect; textContent: string | null }>;
}
const scrollToTop = (list: Locator) => list.evaluate((el: ScrollBox) => el.scrollTo({ top: 0 }));

/** The label of the first message row at least partly in the list's viewport. */
async function firstVisibleLabel(list: Locator): Promise<string | null> {
  return list.evaluate((el: ScrollBox) => {
    const view = el.getBoundingClientRect();
    for (const row of el.querySelectorAll('.message-row')) {
      const box = row.getBoundingClientRect();
      if (box.bottom > view.top + 1 && box.top < view.bottom) return /History message \d{4}/.exec(row.textContent ?? '')?.[0] ?? null;
    }
    return null;
  });
}

test('a 2,400-message task opens at its tail and pages earlier messages in when scrolled to the top', async ({ page, folio }) => {
  const task = (await folioApi(folio, 'POST', '/v1/tasks', { mode: 'general', title: 'Long history' })) as { id: string };
  seedConversation(folio.dataDir, task.id);

  await page.goto(folio.appUrl);
  await openTask(page, task.id);
  const list = page.getByTestId('message-list');
  await expect(list.getByText(label(COUNT))).toBeInViewport();
  await expect(list.getByText(label(1))).toHaveCount(0);

  // One page up. The request for it is held until the message at the top has been noted.
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/v1\/tasks\/[^/]+\/messages\?.*before_seq=/, async (route) => {
    await held;
    await route.continue();
  });
  await scrollToTop(list);
  await expect(list.locator('.load-older .muted')).toHaveCount(1); // the older page was asked for
  await page.evaluate('new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))');
  const anchor = await firstVisibleLabel(list);
  expect(anchor).toMatch(/^History message \d{4}$/);
  release();
  await expect(list.locator('.load-older .muted')).toHaveCount(0);
  // The anchor is still the first message in view: the list did not jump to the newly loaded first row.
  await expect.poll(() => firstVisibleLabel(list)).toBe(anchor);
  await expect.poll(() => list.evaluate((el: ScrollBox) => el.scrollTop)).toBeGreaterThan(1_000);
  await page.unroute(/\/v1\/tasks\/[^/]+\/messages\?.*before_seq=/);

  // Keep going up until the first message shows; each page is at most 100 messages.
  for (let pages = 0; pages < Math.ceil(COUNT / 100) + 2; pages++) {
    if ((await list.getByText(label(1)).count()) > 0) break;
    await scrollToTop(list);
    await expect(list.locator('.load-older .muted')).toHaveCount(0);
  }
  await scrollToTop(list);
  await expect(list.getByText(label(1))).toBeInViewport();
  await expect(list.locator('.load-older')).toHaveCount(0);
});
