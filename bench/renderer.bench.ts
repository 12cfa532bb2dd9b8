// Renderer start-up: the JavaScript a page load fetches before the task list can paint (gzip), and
// the task list's first paint in Debian's Chromium against a built `folio serve` (web mode, as the
// e2e tests run it). Needs `npm run build` first; without out/ the bench fails with that message.
//
// Baselines, so a busy machine colours both sides alike:
// - bytes: React + react-dom's production builds alone, gzipped the same way: the floor for any
//   React page; the ratio says how much Folio adds on top of the framework.
// - paint: the same number of task rows as static HTML with the app's CSS, from a plain Node server,
//   timed the same way: the browser's own floor for that page on this machine.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium, type Browser } from '@playwright/test';
import { folioApi, startFolio, stopFolio } from '../e2e/support/folio-server';
import { repoRoot } from '../e2e/support/processes';
import { CONTENT_SECURITY_POLICY } from '../src/main/transport/http/respond';
import { median } from './stats';
import { type Bench, type BenchRow } from './types';

// Where `folio serve` takes the renderer from (FOLIO_RESOURCES_DIR may name another build to compare with).
const RENDERER_DIR = join(process.env.FOLIO_RESOURCES_DIR ?? repoRoot, 'out/renderer');
const LOADS = 5;
const TASKS = 20;
const CHROMIUM = process.env.FOLIO_E2E_CHROMIUM ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];
// A task row's title in the sidebar's list, whoever drew it: the server draws the list into the first
// open's HTML (transport/http/first-page.ts), public/early-requests.js on a reload; its first frame on
// screen is "the task list painted". The app's own rows (React mounted, clickable) carry the test id.
const TASK_TITLE = '.task-list .task-item .task-title';
const APP_TASK_TITLE = '[data-testid="task-item"] .task-title';
const PAINT_TIMEOUT_MS = 10_000;

const gzipKb = (bytes: Buffer): number => gzipSync(bytes).length / 1000;

/** Files a page load fetches before any dynamic import: the entry script, its modulepreloads, and their static imports. */
export function firstLoadScripts(html: string, readAsset: (path: string) => string): string[] {
  const attr = (tag: string, name: string) => tag.match(new RegExp(`\\b${name}="([^"]+)"`))?.[1];
  const start: string[] = [];
  for (const tag of html.match(/<(script|link)\b[^>]*>/g) ?? []) {
    if (tag.startsWith('<script') && /type="module"/.test(tag)) start.push(attr(tag, 'src') ?? '');
    if (tag.startsWith('<link') && /rel="modulepreload"/.test(tag)) start.push(attr(tag, 'href') ?? '');
  }
  const seen = new Set<string>();
  const queue = start.filter(Boolean).map((p) => p.replace(/^\.\//, ''));
  while (queue.length > 0) {
    const path = queue.shift() as string;
    if (seen.has(path)) continue;
    seen.add(path);
    // Static imports only (`from"./x.js"`, `import"./x.js"`); `import("./x.js")` is a lazy chunk.
    for (const m of readAsset(path).matchAll(/(?:\bfrom|\bimport)\s*["']\.\/([^"']+\.js)["']/g)) queue.push(join(dirname(path), m[1]));
  }
  return [...seen];
}

function reactFloorKb(): number {
  const require = createRequire(join(repoRoot, 'package.json'));
  // The packages' exports hide cjs/, so the files are found from each package.json.
  const file = (pkg: string, name: string) => join(dirname(require.resolve(`${pkg}/package.json`)), 'cjs', name);
  const files = [file('react', 'react.production.js'), file('react-dom', 'react-dom.production.js'), file('react-dom', 'react-dom-client.production.js'), file('scheduler', 'scheduler.production.js')];
  return gzipKb(Buffer.concat(files.map((f) => readFileSync(f))));
}

// Resolves window.__taskListPaint (any task row) and window.__appListPaint (the app's rows) with the
// time the first frame showing such a row's title was presented (ms since navigation start): the
// Element Timing API's renderTime, for an elementtiming attribute the probe puts on the title as it is
// inserted. The main thread's part of that frame (rAF, then a task) ends 20-35 ms earlier on this
// machine, before the pixels are on screen (bench/README.md, renderer notes).
const PAINT_PROBE = `
const painted = {};
const waiting = {};
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    painted[entry.identifier] ??= entry.renderTime;
    for (const resolve of waiting[entry.identifier] ?? []) resolve(entry.renderTime);
  }
}).observe({ type: 'element', buffered: true });
const paintOf = (selector, id) => new Promise((resolve) => {
  const observer = new MutationObserver(() => {
    const title = document.querySelector(selector);
    if (!title) return;
    observer.disconnect();
    // A row both probes find (the static page's rows carry the app's test id) keeps the first name.
    if (!title.hasAttribute('elementtiming')) title.setAttribute('elementtiming', id);
    const name = title.getAttribute('elementtiming');
    if (name in painted) resolve(painted[name]);
    else (waiting[name] ??= []).push(resolve);
  });
  observer.observe(document, { childList: true, subtree: true });
});
window.__taskListPaint = paintOf('${TASK_TITLE}', 'task-list');
window.__appListPaint = paintOf('${APP_TASK_TITLE}', 'app-list');`;

/** The probe's promise, or an error naming it if it does not settle. */
const probed = (name: string) =>
  `Promise.race([window.${name}, new Promise((_, reject) => setTimeout(() => reject(new Error('${name}: no frame showed the row within ${PAINT_TIMEOUT_MS} ms')), ${PAINT_TIMEOUT_MS}))])`;

interface PaintSample {
  paint: number;
  /** The app's own rows (React mounted). */
  app: number;
  fcp: number | null;
  /** When the HTML had arrived (navigation timing's responseEnd). */
  html: number;
}

async function measureLoads(browser: Browser, url: string): Promise<PaintSample[]> {
  const samples: PaintSample[] = [];
  // One discarded load first: the server's and the browser's first-request warm-up is not the page's.
  for (let i = 0; i <= LOADS; i += 1) {
    // A fresh context per load: no HTTP cache, no storage from the previous load.
    const context = await browser.newContext({ locale: 'en-US' });
    const page = await context.newPage();
    await page.addInitScript(PAINT_PROBE);
    await page.goto(url);
    const paint = await page.evaluate<number>(probed('__taskListPaint'));
    const app = await page.evaluate<number>(probed('__appListPaint'));
    // Paint timing entries are queued after the frame: wait (briefly) for the buffered one.
    const fcp = await page.evaluate<number | null>(
      "new Promise((resolve) => { new PerformanceObserver((list) => { const e = list.getEntriesByName('first-contentful-paint')[0]; if (e) resolve(e.startTime); }).observe({ type: 'paint', buffered: true }); setTimeout(() => resolve(null), 1000); })",
    );
    const html = await page.evaluate<number>("performance.getEntriesByType('navigation')[0].responseEnd");
    await context.close();
    if (i > 0) samples.push({ paint, app, fcp, html });
  }
  return samples;
}

function staticListServer(css: string, titles: readonly string[], headers: Record<string, string> = {}): Promise<Server> {
  const rows = titles.map((t) => `<li class="task-item" data-testid="task-item"><button class="task-main"><span class="task-title">${t}</span></button></li>`).join('');
  const html = `<!doctype html><html lang="en"><head><meta charset="UTF-8"><title>Folio</title><link rel="stylesheet" href="/app.css"></head><body><div id="root"><div class="app"><aside class="sidebar"><ul class="task-list" data-testid="task-list">${rows}</ul></aside></div></div></body></html>`;
  const server = createServer((req, res) => {
    if (req.url === '/app.css') res.writeHead(200, { 'Content-Type': 'text/css' }).end(css);
    else res.writeHead(200, { ...headers, 'Content-Type': 'text/html; charset=utf-8' }).end(html);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

async function run(): Promise<BenchRow[]> {
  const htmlPath = join(RENDERER_DIR, 'index.html');
  if (!existsSync(htmlPath)) throw new Error(`${htmlPath} is missing: run \`npm run build\` first`);
  const html = readFileSync(htmlPath, 'utf8');
  const readAsset = (p: string) => readFileSync(join(RENDERER_DIR, p), 'utf8');
  const scripts = firstLoadScripts(html, readAsset);
  const jsKb = scripts.reduce((sum, p) => sum + gzipKb(readFileSync(join(RENDERER_DIR, p))), 0);
  const rawKb = scripts.reduce((sum, p) => sum + readFileSync(join(RENDERER_DIR, p)).length / 1000, 0);
  const cssPath = html.match(/<link rel="stylesheet"[^>]*href="\.\/([^"]+)"/)?.[1];
  const css = cssPath ? readAsset(cssPath) : '';
  const rows: BenchRow[] = [
    {
      name: 'first-load JS (gzip)',
      folio: jsKb,
      baseline: reactFloorKb(),
      unit: 'kB',
      target: '< 300 kB',
      note: `${scripts.length} files, ${rawKb.toFixed(0)} kB raw, gzip level 6; CSS ${gzipKb(Buffer.from(css)).toFixed(1)} kB more. Baseline: react + react-dom + scheduler production builds`,
    },
  ];

  const dataDir = mkdtempSync(join(tmpdir(), 'folio-bench-renderer-'));
  const titles = Array.from({ length: TASKS }, (_, i) => `Bench task ${i + 1}`);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  const staticServer = await staticListServer(css, titles);
  // The same page sent with Folio's security headers: Cross-Origin-Opener-Policy makes Chromium swap
  // to a new renderer process on navigation, a cost the plain page does not pay.
  const headedServer = await staticListServer(css, titles, { 'Cross-Origin-Opener-Policy': 'same-origin', 'Content-Security-Policy': CONTENT_SECURITY_POLICY, 'X-Frame-Options': 'DENY' });
  try {
    const server = await startFolio(dataDir);
    for (const title of titles) await folioApi(server, 'POST', '/v1/tasks', { mode: 'general', title });
    const folio = await measureLoads(browser, server.appUrl);
    const floor = await measureLoads(browser, `http://127.0.0.1:${(staticServer.address() as AddressInfo).port}/`);
    const headedFloor = await measureLoads(browser, `http://127.0.0.1:${(headedServer.address() as AddressInfo).port}/`);
    const fcps = folio.map((s) => s.fcp).filter((v): v is number => v !== null);
    rows.push({
      name: `task list first paint (${TASKS} tasks)`,
      folio: median(folio.map((s) => s.paint)),
      baseline: median(floor.map((s) => s.paint)),
      unit: 'ms',
      target: '< 300 ms',
      note: `median of ${LOADS} loads from navigation start to the first frame showing a row's title on screen (Element Timing), fresh context each; Folio's HTML in at ${median(folio.map((s) => s.html)).toFixed(0)} ms (baseline's ${median(floor.map((s) => s.html)).toFixed(0)}), first contentful paint ${fcps.length ? median(fcps).toFixed(0) : '?'} ms. Baseline: the same rows as static HTML + the app's CSS; with Folio's security headers (COOP) it paints at ${median(headedFloor.map((s) => s.paint)).toFixed(0)} ms`,
    });
    rows.push({
      name: `task list interactive (app's rows)`,
      folio: median(folio.map((s) => s.app)),
      baseline: median(floor.map((s) => s.paint)),
      unit: 'ms',
      target: '—',
      note: 'the first frame showing a row React drew (clickable); the row above is the first frame showing any task row',
    });
  } finally {
    await stopFolio();
    await browser.close();
    staticServer.close();
    headedServer.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return rows;
}

const bench: Bench = { name: 'renderer', run };
export default bench;
