// Long conversations in the browser: a task of 10,000 messages (history.bench.ts's conversation:
// user, assistant with two tool calls, two 2-6 kB tool results, answer; CJK + English) opened in the
// BUILT app in Debian's Chromium against `folio serve`, then scrolled up from its tail in fixed steps,
// one step per frame, so earlier pages are fetched and prepended on the way. Counted while scrolling:
// long tasks (PerformanceObserver 'longtask': main-thread tasks over 50 ms) and the time between
// frames (requestAnimationFrame). Needs `npm run build` first.
//
// Baseline: the same 10,000 messages' texts as plain DOM rows in a static page with the app's CSS,
// every row rendered up front (no paging, no React, no virtual list), scrolled the same way: what
// the browser itself costs on this machine for that scroll.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from '@playwright/test';
import { newId } from '../src/main/runs/run-manager';
import { openStore } from '../src/main/store';
import { folioApi, startFolio, stopFolio } from '../e2e/support/folio-server';
import { fakeProfileYaml } from '../e2e/support/fake-model';
import { repoRoot } from '../e2e/support/processes';
import { messageAt } from './history.bench';
import { CHROMIUM_EXECUTABLE, TIMING_CHROMIUM_ARGS } from '../e2e/support/chromium-args';
import { median } from './stats';
import { type Bench, type BenchRow } from './types';

const RENDERER_DIR = join(process.env.FOLIO_RESOURCES_DIR ?? repoRoot, 'out/renderer');
const MESSAGES = 10_000;
/** Scroll steps (one per frame) and their size: ~10 s of fast wheel scrolling up through many pages. */
const STEPS = 600;
const STEP_PX = 400;

/** Chromium's CPU slowdown (CDP `Emulation.setCPUThrottlingRate`) for both pages, e.g. 4 to see on a quiet machine what a slower or busier one would. */
const CPU_THROTTLE = Number(process.env.FOLIO_SCROLL_CPU_THROTTLE ?? '1');
/** When set, the app's scroll is also recorded as a V8 CPU profile, `<dir>/scroll-app.cpuprofile` (open it in Chromium's DevTools). */
const PROFILE_DIR = process.env.FOLIO_SCROLL_PROFILE;

interface ScrollResult {
  longTasks: number[];
  frames: number[];
  /** Message rows in the DOM at the end (the app's virtual list mounts only those near the viewport). */
  rows: number;
  /** Main-thread time during the scroll, ms (CDP `Performance.getMetrics` deltas): less noisy than frame counts when the machine is quiet. */
  busy: { task: number; script: number; layout: number; style: number };
}

// Runs in the page: STEPS frames, each moving the scroller up by STEP_PX, with the observers on.
const SCROLL_RUN = `async ({ selector, steps, stepPx }) => {
  const el = selector ? document.querySelector(selector) : document.scrollingElement;
  const longTasks = [];
  const observer = new PerformanceObserver((list) => { for (const e of list.getEntries()) longTasks.push(e.duration); });
  observer.observe({ type: 'longtask' });
  const frames = [];
  const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
  let last = await frame();
  for (let i = 0; i < steps; i += 1) {
    el.scrollTop = Math.max(0, el.scrollTop - stepPx);
    const now = await frame();
    frames.push(now - last);
    last = now;
  }
  await new Promise((resolve) => setTimeout(resolve, 200));
  observer.disconnect();
  return { longTasks, frames, rows: el.querySelectorAll('.message-row').length };
}`;

const BUSY_METRICS = { task: 'TaskDuration', script: 'ScriptDuration', layout: 'LayoutDuration', style: 'RecalcStyleDuration' } as const;

async function scrollRun(page: Page, selector: string | null, profileTo?: string): Promise<ScrollResult> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  if (profileTo) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await cdp.send('Profiler.start');
  }
  const read = async () => {
    const { metrics } = await cdp.send('Performance.getMetrics');
    const byName = new Map(metrics.map((m) => [m.name, m.value]));
    return Object.fromEntries(Object.entries(BUSY_METRICS).map(([key, name]) => [key, (byName.get(name) ?? 0) * 1000])) as ScrollResult['busy'];
  };
  const before = await read();
  const run = await page.evaluate<Omit<ScrollResult, 'busy'>>(`(${SCROLL_RUN})(${JSON.stringify({ selector, steps: STEPS, stepPx: STEP_PX })})`);
  const after = await read();
  if (profileTo) {
    const { profile } = await cdp.send('Profiler.stop');
    mkdirSync(profileTo, { recursive: true });
    writeFileSync(join(profileTo, 'scroll-app.cpuprofile'), JSON.stringify(profile));
  }
  const busy = Object.fromEntries(Object.keys(BUSY_METRICS).map((key) => [key, after[key as keyof ScrollResult['busy']] - before[key as keyof ScrollResult['busy']]])) as ScrollResult['busy'];
  return { ...run, busy };
}

async function throttle(page: Page): Promise<void> {
  if (CPU_THROTTLE === 1) return;
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_THROTTLE });
}

const busyNote = (b: ScrollResult['busy']) => `${b.task.toFixed(0)} ms (script ${b.script.toFixed(0)}, layout ${b.layout.toFixed(0)}, style ${b.style.toFixed(0)})`;

function seed(dataDir: string, taskId: string): void {
  const store = openStore(join(dataDir, 'folio.db'));
  try {
    const runId = newId('r');
    store.runs.create({ id: runId, task_id: taskId, model: 'fake.main' });
    store.transaction(() => {
      for (let i = 0; i < MESSAGES; i++) store.messages.append(messageAt(i, taskId, runId));
    });
    // Finished, as a past conversation is: the app shows a running run's draft instead of its
    // persisted assistant and tool messages, so a run left running would leave only the user's rows.
    store.runs.finish(runId, 'done');
  } finally {
    store.close();
  }
}

async function scrollApp(browser: Browser, appUrl: string, taskId: string): Promise<ScrollResult & { pages: number }> {
  const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 800 } });
  try {
    const page = await context.newPage();
    let pages = 0;
    page.on('request', (request) => {
      if (/\/messages\?.*before_seq=/.test(request.url())) pages += 1;
    });
    await page.goto(appUrl);
    await page.locator(`[data-testid="task-item"][data-task-id="${taskId}"] .task-main`).click();
    const list = page.getByTestId('message-list');
    await list.locator('.message-row').first().waitFor();
    await settle(page);
    await throttle(page);
    const run = await withinTime(scrollRun(page, '[data-testid="message-list"]', PROFILE_DIR), SCROLL_TIMEOUT_MS, () => pageState(page));
    return { ...run, pages };
  } finally {
    await context.close();
  }
}

/** The scroll takes 10-40 s; a run that has not finished by then is reported instead of waited for. */
const SCROLL_TIMEOUT_MS = 180_000;

async function withinTime<T>(work: Promise<T>, ms: number, describe: () => Promise<string>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  // Once late, the page is closed under it: its rejection then is expected.
  work.catch(() => undefined);
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), ms)));
  try {
    const first = await Promise.race([work, late]);
    if (first === 'late') throw new Error(`the scroll had not finished after ${ms / 1000} s: ${await describe()}`);
    return first;
  } finally {
    clearTimeout(timer);
  }
}

/** What the page looked like when the scroll did not finish, and whether it still draws frames. */
async function pageState(page: Page): Promise<string> {
  const probe = page.evaluate(`new Promise((resolve) => {
    const el = document.querySelector('[data-testid="message-list"]');
    const state = { visibility: document.visibilityState, scrollTop: el && el.scrollTop, scrollHeight: el && el.scrollHeight, rows: el && el.querySelectorAll('.message-row').length, frame: false };
    requestAnimationFrame(() => resolve(JSON.stringify({ ...state, frame: true })));
    setTimeout(() => resolve(JSON.stringify(state)), 2000);
  })`);
  return Promise.race([probe.then(String), new Promise<string>((resolve) => setTimeout(() => resolve('the page did not answer'), 5000))]);
}

/** Two frames and a pause: the opening's own work is not the scroll's. */
async function settle(page: Page): Promise<void> {
  await page.waitForTimeout(500);
  await page.evaluate('new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))');
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function staticConversation(css: string): Promise<Server> {
  const rows: string[] = [];
  for (let i = 0; i < MESSAGES; i++) {
    const m = messageAt(i, 't', 'r');
    const text = m.content || ('tool_calls' in m && m.tool_calls ? m.tool_calls.map((c) => `${c.name} ${c.arguments}`).join('\n') : '');
    rows.push(`<div class="message-row message-${m.role}"><div class="message-body"><p>${escapeHtml(text)}</p></div></div>`);
  }
  const html = `<!doctype html><html lang="en"><head><meta charset="UTF-8"><title>Folio</title><link rel="stylesheet" href="/app.css"></head><body><main>${rows.join('')}</main></body></html>`;
  const server = createServer((req, res) => {
    if (req.url === '/app.css') res.writeHead(200, { 'Content-Type': 'text/css' }).end(css);
    else res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(html);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

async function scrollStatic(browser: Browser, url: string): Promise<ScrollResult> {
  const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 800 } });
  try {
    const page = await context.newPage();
    await page.goto(url);
    await page.evaluate('document.scrollingElement.scrollTop = document.scrollingElement.scrollHeight');
    await settle(page);
    await throttle(page);
    return await scrollRun(page, null);
  } finally {
    await context.close();
  }
}

const max = (values: number[]) => values.reduce((a, b) => Math.max(a, b), 0);
const p95 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * 0.95))] ?? 0;

async function run(): Promise<BenchRow[]> {
  const htmlPath = join(RENDERER_DIR, 'index.html');
  if (!existsSync(htmlPath)) throw new Error(`${htmlPath} is missing: run \`npm run build\` first`);
  const cssPath = readFileSync(htmlPath, 'utf8').match(/<link rel="stylesheet"[^>]*href="\.\/([^"]+)"/)?.[1];
  const css = cssPath ? readFileSync(join(RENDERER_DIR, cssPath), 'utf8') : '';
  const dataDir = mkdtempSync(join(tmpdir(), 'folio-bench-scroll-'));
  const browser = await chromium.launch({ executablePath: CHROMIUM_EXECUTABLE, args: TIMING_CHROMIUM_ARGS });
  const staticServer = await staticConversation(css);
  try {
    // A usable model (never called), so the app opens the task rather than the first-run setup.
    mkdirSync(join(dataDir, 'models'));
    writeFileSync(join(dataDir, 'models', 'fake.yaml'), fakeProfileYaml('http://127.0.0.1:9/v1'));
    const server = await startFolio(dataDir);
    const task = (await folioApi(server, 'POST', '/v1/tasks', { mode: 'general', title: 'Scroll bench' })) as { id: string };
    seed(dataDir, task.id);
    const app = await scrollApp(browser, server.appUrl, task.id);
    const floor = await scrollStatic(browser, `http://127.0.0.1:${(staticServer.address() as AddressInfo).port}/`);
    const over50 = (r: ScrollResult) => r.longTasks.filter((d) => d > 50).length;
    const scrolled = `${STEPS} steps of ${STEP_PX} px up, one per frame${CPU_THROTTLE === 1 ? '' : `, CPU throttled ${CPU_THROTTLE}×`}`;
    return [
      {
        name: `long tasks while scrolling (${MESSAGES.toLocaleString('en')} messages)`,
        folio: over50(app),
        baseline: over50(floor),
        unit: 'tasks > 50 ms',
        target: '0',
        note: `${scrolled}; longest ${max(app.longTasks).toFixed(0)} ms (baseline ${max(floor.longTasks).toFixed(0)} ms); ${app.pages} earlier pages fetched, ${app.rows} rows mounted at the end. Baseline: the same messages as plain DOM rows, all rendered, app CSS`,
      },
      {
        name: 'frame time while scrolling, p95',
        folio: p95(app.frames),
        baseline: p95(floor.frames),
        unit: 'ms',
        target: '≤ 16.7 ms (60 fps)',
        note: `median ${median(app.frames).toFixed(1)} ms (baseline ${median(floor.frames).toFixed(1)}), worst ${max(app.frames).toFixed(0)} ms (baseline ${max(floor.frames).toFixed(0)}), frames over 33 ms: ${app.frames.filter((f) => f > 33.4).length} (baseline ${floor.frames.filter((f) => f > 33.4).length}) of ${STEPS}; main thread busy ${busyNote(app.busy)}, baseline ${busyNote(floor.busy)}`,
      },
    ];
  } finally {
    await stopFolio();
    await browser.close();
    staticServer.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const bench: Bench = { name: 'scroll', run };
export default bench;
