// Renderer start-up: the JavaScript a page load fetches before the task list can paint (gzip), and
// the task list's first paint in Debian's Chromium against a built `folio serve` (web mode, as the
// e2e tests run it). Needs `npm run build` first; without out/ the bench fails with that message.
//
// Baselines, so a busy machine colours both sides alike:
// - bytes: React + react-dom's production builds alone, gzipped the same way: the floor for any
//   React page; the ratio says how much Folio adds on top of the framework.
// - paint: the same number of task rows as static HTML with the app's CSS, from a plain Node server,
//   timed the same way: the browser's own floor for that page on this machine.
// FOLIO_RENDERER_OLD=<checkout> (another commit's tree, built, with node_modules) also starts that
// tree's own `folio serve` and loads it in the same rounds, so old and new meet the same load.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium, type Browser } from '@playwright/test';
import { E2E_TOKEN, folioApi, type FolioServer, startFolio, stopFolio } from '../e2e/support/folio-server';
import { freePort, repoRoot, sleep, type Started, startProcess, stopProcess } from '../e2e/support/processes';
import { setSecurityHeaders } from '../src/main/transport/http/respond';
import { firstPaintTaskListHtml } from '../src/shared/first-paint/task-list-html';
import { TIMING_CHROMIUM_ARGS, CHROMIUM_EXECUTABLE } from '../e2e/support/chromium-args';
import { median, quantile } from './stats';
import { type Bench, type BenchRow } from './types';

// Where `folio serve` takes the renderer from (FOLIO_RESOURCES_DIR may name another build to compare with).
const RENDERER_DIR = join(process.env.FOLIO_RESOURCES_DIR ?? repoRoot, 'out/renderer');
// Loads per page: a load's time moves by ±50 ms on this shared machine, so 5 could not show a 30 ms gain.
const LOADS = Number(process.env.FOLIO_RENDERER_LOADS ?? 15);
const OLD_TREE = process.env.FOLIO_RENDERER_OLD ? resolve(process.env.FOLIO_RENDERER_OLD) : null;
const TASKS = 20;
// A task row's title in the sidebar's list, whoever drew it: the server draws the list into the first
// open's HTML (transport/http/first-page.ts), public/early-requests.js on a reload; its first frame on
// screen is "the task list painted". The app's own rows (React mounted, clickable) carry the test id.
const TASK_TITLE = '.task-list .task-item .task-title';
const APP_TASK_TITLE = '[data-testid="task-item"] .task-title';
const PAINT_TIMEOUT_MS = 10_000;
const OTHER_SITE_IDLE_MS = 300;

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
// Element Timing API's renderTime, for an elementtiming attribute the probe puts on the first title of
// each list drawn (Chromium times text by its block: the title is a flex item, so a block of its own).
// A list replaced before any frame showed it (React's, on a busy machine) is never painted: the
// list's time is then that of the rows that replaced it. The main thread's part of that frame (rAF,
// then a task) ends 20-35 ms before it is on screen on this machine (bench/README.md, renderer notes).
const PAINT_PROBE = `
const settle = {};
const paintOf = (id) => new Promise((resolve) => { settle[id] = resolve; });
window.__taskListPaint = paintOf('task-list');
window.__appListPaint = paintOf('app-list');
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    settle['task-list'](entry.renderTime);
    if (entry.identifier === 'app-list') settle['app-list'](entry.renderTime);
  }
}).observe({ type: 'element', buffered: true });
new MutationObserver(() => {
  const title = document.querySelector('${TASK_TITLE}');
  if (!title || title.hasAttribute('elementtiming')) return;
  title.setAttribute('elementtiming', title.matches('${APP_TASK_TITLE}') ? 'app-list' : 'task-list');
}).observe(document, { childList: true, subtree: true });`;

/** The probe's promise, or an error naming it if it does not settle. */
const probed = (name: string) =>
  `Promise.race([window.${name}, new Promise((_, reject) => setTimeout(() => reject(new Error('${name}: no frame showed the row within ${PAINT_TIMEOUT_MS} ms')), ${PAINT_TIMEOUT_MS}))])`;

interface PaintSample {
  paint: number;
  /** The app's own rows (React mounted); null on the static pages, which have no app. */
  app: number | null;
  fcp: number | null;
  /** When the HTML had arrived (navigation timing's responseEnd). */
  html: number;
}

/**
 * Where a load starts. `otherSite`: the tab shows a page of another site and the address is typed
 * into it, as a person opens Folio (a new tab's page is never Folio's process either), so the
 * browser starts a renderer for Folio's site with every header set alike. `blank`: a new tab's
 * about:blank, whose process the page may take over, unless its headers ask for a process of its
 * own (Cross-Origin-Opener-Policy): that swap waits for the response, the favourable start a page
 * without COOP gets only here.
 */
type LoadStart = { kind: 'otherSite'; url: string } | { kind: 'blank' };

async function measureLoad(browser: Browser, url: string, withApp: boolean, start: LoadStart): Promise<PaintSample> {
  // A fresh context per load: no HTTP cache, no storage from the previous load.
  const context = await browser.newContext({ locale: 'en-US' });
  try {
    const page = await context.newPage();
    await page.addInitScript(PAINT_PROBE);
    if (start.kind === 'otherSite') {
      await page.goto(start.url);
      // A person's tab is idle when they type the address.
      await page.waitForTimeout(OTHER_SITE_IDLE_MS);
    }
    await page.goto(url);
    const paint = await page.evaluate<number>(probed('__taskListPaint'));
    const app = withApp ? await page.evaluate<number>(probed('__appListPaint')) : null;
    // Paint timing entries are queued after the frame: wait (briefly) for the buffered one.
    const fcp = await page.evaluate<number | null>(
      "new Promise((resolve) => { new PerformanceObserver((list) => { const e = list.getEntriesByName('first-contentful-paint')[0]; if (e) resolve(e.startTime); }).observe({ type: 'paint', buffered: true }); setTimeout(() => resolve(null), 1000); })",
    );
    const html = await page.evaluate<number>("performance.getEntriesByType('navigation')[0].responseEnd");
    return { paint, app, fcp, html };
  } finally {
    await context.close();
  }
}

/** Loads of each page, alternating between the pages so a busy spell colours them alike. */
async function measurePages<K extends string>(browser: Browser, pages: Record<K, { url: string; withApp: boolean; start: LoadStart }>): Promise<Record<K, PaintSample[]>> {
  const names = Object.keys(pages) as K[];
  const samples = Object.fromEntries(names.map((name) => [name, []])) as unknown as Record<K, PaintSample[]>;
  // One discarded round first: the servers' and the browser's first-request warm-up is not the page's.
  for (let i = 0; i <= LOADS; i += 1) {
    // Each round starts at the next page, so no page always follows the same one: with the order
    // fixed, two servers of one build read 52 ms apart (15 loads, load 8-12), order and noise mixed.
    const start = i % names.length;
    for (const name of [...names.slice(start), ...names.slice(0, start)]) {
      const { url, withApp, start } = pages[name];
      const sample = await measureLoad(browser, url, withApp, start);
      if (i > 0) samples[name].push(sample);
    }
  }
  return samples;
}

function staticListServer(css: string, titles: readonly string[], folioHeaders: boolean): Promise<Server> {
  // The rows Folio's first page draws, so both pages paint the same markup (and Element Timing reports
  // no text drawn inside a <button>, as the rows here once were).
  const list = firstPaintTaskListHtml(titles.map((title) => ({ title, mode: 'general' })));
  const html = `<!doctype html><html lang="en"><head><meta charset="UTF-8"><title>Folio</title><link rel="stylesheet" href="/app.css"></head><body><div id="root">${list}</div></body></html>`;
  const server = createServer((req, res) => {
    if (req.url === '/app.css') res.writeHead(200, { 'Content-Type': 'text/css' }).end(css);
    else {
      if (folioHeaders) setSecurityHeaders(res);
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(html);
    }
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** The page of another site that a load may start from (LoadStart). */
function otherSiteServer(): Promise<Server> {
  const server = createServer((_req, res) => res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end('<!doctype html><title>Another site</title><p>Another site</p>'));
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** Median with the middle half of the loads: `median (p25-p75)`. */
function spread(values: readonly number[]): string {
  return `${median(values).toFixed(0)} (${quantile(values, 0.25).toFixed(0)}-${quantile(values, 0.75).toFixed(0)})`;
}

/**
 * Another tree's built `folio serve` (its own server code and renderer: the first page is drawn by
 * the server), on a data folder of its own; stopped by the returned function.
 */
async function startOtherFolio(tree: string, dataDir: string): Promise<{ server: FolioServer; stop: () => Promise<void> }> {
  const cli = join(tree, 'out/main/cli.js');
  if (!existsSync(cli)) throw new Error(`${cli} is missing: build the old tree first`);
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const server: FolioServer = { port, origin, appUrl: `${origin}/?token=${E2E_TOKEN}`, dataDir, token: E2E_TOKEN };
  const env: NodeJS.ProcessEnv = { ...process.env, FOLIO_DATA_DIR: dataDir, FOLIO_TOKEN: E2E_TOKEN, FAKE_API_KEY: 'x' };
  // The old tree finds its own resources and renderer from its CLI's place.
  delete env.FOLIO_RESOURCES_DIR;
  const started: Started = startProcess(process.execPath, [cli, 'serve', '--port', String(port)], env);
  const stop = () => stopProcess(started.child);
  for (const deadline = Date.now() + 30_000; ; await sleep(150)) {
    const ok = await fetch(`${origin}/v1/settings`, { headers: { Authorization: `Bearer ${E2E_TOKEN}` } }).then((r) => r.ok, () => false);
    if (ok) return { server, stop };
    if (started.child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`the old tree's folio serve did not start. Output:\n${started.output()}`);
    }
  }
}

/** The old build against this one: medians, spreads, and each round's difference (the two loads of a round met the same load). */
function oldAgainstNew(folio: readonly PaintSample[], old: readonly PaintSample[], tree: string): BenchRow[] {
  const differences = folio.map((s, i) => s.paint - old[i].paint);
  const faster = differences.filter((d) => d < 0).length;
  const appDifferences = folio.map((s, i) => (s.app ?? Number.NaN) - (old[i].app ?? Number.NaN));
  return [
    {
      name: 'first paint, this build against the old',
      folio: median(folio.map((s) => s.paint)),
      baseline: median(old.map((s) => s.paint)),
      unit: 'ms',
      target: '< 300 ms',
      note: `old build: ${tree}, its own folio serve, loaded in the same rounds. Median (p25-p75) this ${spread(folio.map((s) => s.paint))} ms, old ${spread(old.map((s) => s.paint))} ms; each round's difference (this - old): median ${median(differences).toFixed(0)} ms (p25-p75 ${quantile(differences, 0.25).toFixed(0)} to ${quantile(differences, 0.75).toFixed(0)}), this build faster in ${faster} of ${differences.length} rounds`,
    },
    {
      name: "app's rows, this build against the old",
      folio: median(folio.map((s) => s.app ?? Number.NaN)),
      baseline: median(old.map((s) => s.app ?? Number.NaN)),
      unit: 'ms',
      target: '—',
      note: `median (p25-p75) this ${spread(folio.map((s) => s.app ?? Number.NaN))} ms, old ${spread(old.map((s) => s.app ?? Number.NaN))} ms; each round's difference: median ${median(appDifferences).toFixed(0)} ms`,
    },
  ];
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
  const browser = await chromium.launch({ executablePath: CHROMIUM_EXECUTABLE, args: TIMING_CHROMIUM_ARGS });
  const staticServer = await staticListServer(css, titles, false);
  const headedServer = await staticListServer(css, titles, true);
  const otherSite = await otherSiteServer();
  const oldDataDir = OLD_TREE ? mkdtempSync(join(tmpdir(), 'folio-bench-renderer-old-')) : null;
  let oldFolio: { server: FolioServer; stop: () => Promise<void> } | null = null;
  const address = (server: Server, host = '127.0.0.1') => `http://${host}:${(server.address() as AddressInfo).port}/`;
  // Another site than Folio's (a host name against its IP address), so the tab's page is in another process.
  const fromOtherSite: LoadStart = { kind: 'otherSite', url: address(otherSite, 'localhost') };
  try {
    const server = await startFolio(dataDir);
    for (const title of titles) await folioApi(server, 'POST', '/v1/tasks', { mode: 'general', title });
    if (OLD_TREE && oldDataDir) {
      oldFolio = await startOtherFolio(OLD_TREE, oldDataDir);
      for (const title of titles) await folioApi(oldFolio.server, 'POST', '/v1/tasks', { mode: 'general', title });
    }
    const pages: Record<string, { url: string; withApp: boolean; start: LoadStart }> = {
      folio: { url: server.appUrl, withApp: true, start: fromOtherSite },
      floor: { url: address(staticServer), withApp: false, start: fromOtherSite },
      headedFloor: { url: address(headedServer), withApp: false, start: fromOtherSite },
      folioFromBlank: { url: server.appUrl, withApp: true, start: { kind: 'blank' } },
    };
    if (oldFolio) pages.old = { url: oldFolio.server.appUrl, withApp: true, start: fromOtherSite };
    const loads = await measurePages(browser, pages);
    const { folio, floor, headedFloor, folioFromBlank } = loads;
    const fcps = folio.map((s) => s.fcp).filter((v): v is number => v !== null);
    rows.push({
      name: `task list first paint (${TASKS} tasks)`,
      folio: median(folio.map((s) => s.paint)),
      baseline: median(floor.map((s) => s.paint)),
      unit: 'ms',
      target: '< 300 ms',
      note: `median of ${LOADS} loads (p25-p75: Folio ${spread(folio.map((s) => s.paint))} ms, baseline ${spread(floor.map((s) => s.paint))} ms), the address typed into a tab showing another site (fresh context each, pages alternating), from navigation start to the first frame showing a row's title on screen (Element Timing renderTime); Folio's HTML in at ${median(folio.map((s) => s.html)).toFixed(0)} ms (baseline's ${median(floor.map((s) => s.html)).toFixed(0)}), first contentful paint ${fcps.length ? median(fcps).toFixed(0) : '?'} ms. Baseline: the same rows as static HTML + the app's CSS; sent with Folio's security headers it paints at ${median(headedFloor.map((s) => s.paint)).toFixed(0)} ms. Folio from a new tab's about:blank (the COOP process swap after the response): ${median(folioFromBlank.map((s) => s.paint)).toFixed(0)} ms`,
    });
    rows.push({
      name: `task list interactive (app's rows)`,
      folio: median(folio.map((s) => s.app ?? Number.NaN)),
      baseline: median(floor.map((s) => s.paint)),
      unit: 'ms',
      target: '—',
      note: `the first frame showing a row React drew (clickable), median (p25-p75) ${spread(folio.map((s) => s.app ?? Number.NaN))} ms; the row above is the first frame showing any task row`,
    });
    if (OLD_TREE && loads.old) rows.push(...oldAgainstNew(folio, loads.old, OLD_TREE));
  } finally {
    await stopFolio();
    await oldFolio?.stop();
    await browser.close();
    staticServer.close();
    headedServer.close();
    otherSite.close();
    rmSync(dataDir, { recursive: true, force: true });
    if (oldDataDir) rmSync(oldDataDir, { recursive: true, force: true });
  }
  return rows;
}

const bench: Bench = { name: 'renderer', run };
export default bench;
