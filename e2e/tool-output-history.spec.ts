// A finished tool call's output shows a few lines in the conversation; the person expands it (the
// stored preview, then the full result on request) and collapses it again. What they opened stays
// open when the row scrolls out of the virtual list and back, the rows below make room for it, and
// the card they clicked does not move, even with the view at the bottom of the conversation.
import { join } from 'node:path';
import { type Locator } from '@playwright/test';
import { openStore } from '../src/main/store';
import { expect, openTask, test } from './support/fixtures';
import { folioApi } from './support/folio-server';
import { openRawOutput } from './support/tool-cards';

const TURNS = 12;
const LINES = 300;
const output = (turn: number) => Array.from({ length: LINES }, (_, i) => `turn ${turn} output line ${i + 1} 工具输出`).join('\n');

/** A finished run of TURNS turns: question, two tool calls and their long results, answer. */
function seedConversation(dataDir: string, taskId: string): void {
  const store = openStore(join(dataDir, 'folio.db'));
  try {
    const runId = `r_tools_${taskId}`;
    store.runs.create({ id: runId, task_id: taskId, model: 'fake.main' });
    store.transaction(() => {
      for (let turn = 1; turn <= TURNS; turn++) {
        const id = (part: string) => `m_${taskId}_${turn}_${part}`;
        const calls = [0, 1].map((k) => ({ id: `call_${turn}_${k}`, name: `read_${turn}_${k}`, arguments: JSON.stringify({ path: `notes/${turn}-${k}.txt` }) }));
        store.messages.append({ id: id('q'), task_id: taskId, run_id: runId, role: 'user', content: `Question ${turn}` });
        store.messages.append({ id: id('a'), task_id: taskId, run_id: runId, role: 'assistant', content: '', tool_calls: calls });
        for (const call of calls) {
          store.messages.append({ id: id(call.id), task_id: taskId, run_id: runId, role: 'tool', content: output(turn), tool_call_id: call.id, name: call.name });
        }
        store.messages.append({ id: id('z'), task_id: taskId, run_id: runId, role: 'assistant', content: `Answer ${turn}` });
      }
    });
    store.runs.finish(runId, 'done');
  } finally {
    store.close();
  }
}

// The e2e code is type-checked without the DOM library: the little of it used in the page, by shape.
interface Box {
  getBoundingClientRect(): { top: number; bottom: number };
}
interface RowsBox {
  querySelectorAll(selector: string): Iterable<Box>;
}

/** Each rendered row starts at or below the end of the one before it: no row overlaps another. */
function rowsOverlap(list: Locator): Promise<boolean> {
  return list.evaluate((el: RowsBox) => {
    let bottom = -Infinity;
    for (const row of el.querySelectorAll('.message-row')) {
      const box = row.getBoundingClientRect();
      if (box.top < bottom - 1) return true;
      bottom = box.bottom;
    }
    return false;
  });
}

const topOf = async (locator: Locator) => (await locator.boundingBox())?.y ?? Number.NaN;

test('a tool output shows a few lines until expanded, and stays as the person left it when its row scrolls away and back', async ({ page, folio }) => {
  const task = (await folioApi(folio, 'POST', '/v1/tasks', { mode: 'general', title: 'Tool outputs' })) as { id: string };
  seedConversation(folio.dataDir, task.id);
  await page.goto(folio.appUrl);
  await openTask(page, task.id);
  const list = page.getByTestId('message-list');
  await expect(list.getByText(`Answer ${TURNS}`)).toBeInViewport();

  // Collapsed: the first lines, and a real button naming the output's size.
  const card = list.locator(`[data-testid="tool-card"][data-tool-name="read_${TURNS}_1"]`);
  const result = card.getByTestId('tool-result');
  const expand = card.getByTestId('tool-expand');
  await card.scrollIntoViewIfNeeded();
  await openRawOutput(card);
  await expect(result).toHaveAttribute('data-collapsed', 'true');
  await expect(result).toContainText(`turn ${TURNS} output line 1 工具输出`);
  await expect(result).not.toContainText('output line 7 ');
  await expect(expand).toHaveAttribute('aria-expanded', 'false');
  await expect(expand).toContainText(/Show more \([\d.]+ KB\)/u);
  await expect(card.getByTestId('tool-show-full')).toHaveCount(0);

  // Expanded at the bottom of the conversation: the card stays where it was, the rows make room.
  await card.scrollIntoViewIfNeeded();
  const before = await topOf(card);
  await expand.click();
  await expect(expand).toHaveAttribute('aria-expanded', 'true');
  await expect(result).not.toHaveAttribute('data-collapsed');
  await expect(result).toContainText('output line 40 ');
  await expect(card.getByTestId('tool-show-full')).toBeVisible();
  await page.evaluate('new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))');
  expect(Math.abs((await topOf(card)) - before)).toBeLessThanOrEqual(1);
  expect(await rowsOverlap(list)).toBe(false);

  // The full result, fetched on request.
  await card.getByTestId('tool-show-full').click();
  await expect(result).toContainText(`output line ${LINES} `);

  // Scrolled out of the virtual list and back: still expanded, with the full result.
  await list.evaluate((el: { scrollTo(options: { top: number }): void }) => el.scrollTo({ top: 0 }));
  await expect(list.getByText('Question 1', { exact: true })).toBeInViewport();
  await expect(card).toHaveCount(0);
  await list.evaluate((el: { scrollTo(options: { top: number }): void; scrollHeight: number }) => el.scrollTo({ top: el.scrollHeight }));
  await expect(card).toHaveCount(1);
  await expect(expand).toHaveAttribute('aria-expanded', 'true');
  await expect(result).toContainText(`output line ${LINES} `);
  expect(await rowsOverlap(list)).toBe(false);

  // Collapsed again: the first lines only, and the other cards were never expanded.
  await card.scrollIntoViewIfNeeded();
  await expand.click();
  await expect(result).toHaveAttribute('data-collapsed', 'true');
  await expect(result).not.toContainText('output line 7 ');
  await expect(expand).toBeInViewport();
  await expect(list.locator(`[data-testid="tool-card"][data-tool-name="read_${TURNS}_0"]`).getByTestId('tool-result')).toHaveAttribute('data-collapsed', 'true');
  expect(await rowsOverlap(list)).toBe(false);
});

// Runs in the page: scrolls the list up in steps between frames (as wheel input would), and after
// each painted frame compares where the first row in view went with the step.
const SCROLL_UP_PROBE = `async ({ steps, stepPx }) => {
  const el = document.querySelector('[data-testid="message-list"]');
  const settled = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
  const firstInView = () => {
    const view = el.getBoundingClientRect();
    for (const row of el.querySelectorAll('.message-row')) {
      const box = row.getBoundingClientRect();
      if (box.bottom > view.top + 1 && box.top < view.bottom) return { key: row.dataset.key, top: box.top };
    }
    return null;
  };
  const jumps = [];
  for (let i = 0; i < steps && el.scrollTop > 0; i++) {
    await settled();
    const before = firstInView();
    const scrolled = Math.min(stepPx, el.scrollTop);
    el.scrollTop -= scrolled;
    await settled();
    await settled();
    // The list's own scrollTop may change more than that: it absorbs the estimate errors of the
    // rows measured above the view. What the reader sees is where the row went.
    const row = el.querySelector('.message-row[data-key="' + before.key + '"]');
    const moved = row ? row.getBoundingClientRect().top - before.top : null;
    if (moved === null || Math.abs(moved - scrolled) > 1) jumps.push({ step: i, scrolled, moved });
  }
  return jumps;
}`;

test('scrolling up through tool outputs moves the rows in view by just the scroll, while the rows above are measured', async ({ page, folio }) => {
  const task = (await folioApi(folio, 'POST', '/v1/tasks', { mode: 'general', title: 'Tool outputs scrolled' })) as { id: string };
  seedConversation(folio.dataDir, task.id);
  await page.goto(folio.appUrl);
  await openTask(page, task.id);
  const list = page.getByTestId('message-list');
  await expect(list.getByText(`Answer ${TURNS}`)).toBeInViewport();
  // Rows are estimated shorter than a tool card is: each one mounted above the view is measured
  // taller than its estimate, and the rows in view must not move by the difference.
  const jumps = await page.evaluate(`(${SCROLL_UP_PROBE})(${JSON.stringify({ steps: 200, stepPx: 150 })})`);
  expect(jumps).toEqual([]);
  await expect(list.getByText('Question 1', { exact: true })).toBeInViewport();
});
