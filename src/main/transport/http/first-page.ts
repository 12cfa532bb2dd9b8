// The page `folio serve` answers when it is opened with its token in the address (the first open;
// the app then takes the token out, and a reload asks public/early-requests.js instead): index.html
// with the task list already in `#root` and the few rules that list uses inlined, so the browser
// paints the list as soon as the HTML is in, before any of the app's JavaScript or another request.
// The whole stylesheet follows the list as a link: it no longer holds up the first frame, and the
// app's modules (deferred) still run only after it has loaded. The page names no modulepreloads: the
// browser compiles a preloaded module on the main thread as it arrives, ahead of the first frame;
// the entry's own imports fetch the same files a moment later. React's first render replaces the list.
// Only the single-user server does this, and only for the right token: the page holds the task
// titles, so it is never cached.
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { TaskMode } from '../../../shared/contract/entities';
import { firstPaintTaskListHtml } from '../../../shared/first-paint/task-list-html';
import type { FolioCore } from '../../service/ports';
import { safeEqual } from '../../tenancy/constant-time';
import { cssForMarkup } from './first-paint-css';
import { resolveStaticFile } from './static';

const EMPTY_ROOT = '<div id="root"></div>';
/** The built page's one stylesheet link (Vite writes it so); its path is group 1. */
const STYLESHEET = /<link rel="stylesheet"(?: crossorigin)? href="\.?(\/[^"]+\.css)">/u;
const BODY_END = '</body>';
/** A modulepreload link with the white space before it. */
const MODULE_PRELOAD = /\s*<link rel="modulepreload"[^>]*>/gu;

/** index.html with the task list drawn into its empty root; the page unchanged if it has none. */
export function withTaskList(html: string, tasks: readonly { title: string; mode: string }[]): string {
  const at = html.indexOf(EMPTY_ROOT);
  if (at === -1) return html;
  return `${html.slice(0, at)}<div id="root">${firstPaintTaskListHtml(tasks)}</div>${html.slice(at + EMPTY_ROOT.length)}`;
}

/** A drawn list with a row of every mode: what any first page's list may use of the sheet. */
const EVERY_MODE = TaskMode.options.map((mode) => ({ title: mode, mode }));

/**
 * The page with the rules its drawn list uses inlined in place of the stylesheet link, and the link
 * moved to the end of the body (the CSP allows inline styles). Before the change the browser fetched
 * and parsed the whole sheet before it drew anything. The page is left as it is if its sheet cannot
 * be read or inlined as it is (a url() would resolve against the page, not the sheet).
 */
export async function withFirstPaintStylesheet(html: string, staticDir: string): Promise<string> {
  const link = STYLESHEET.exec(html);
  if (!link || !html.includes(BODY_END)) return html;
  const file = await resolveStaticFile(staticDir, link[1]);
  const css = file === null ? null : await readFile(file, 'utf8').catch(() => null);
  if (css === null) return html;
  const used = cssForMarkup(css, withTaskList(html, EVERY_MODE));
  if (/<\/style|url\(/iu.test(used)) return html;
  return html.replace(link[0], () => `<style>${used}</style>`).replace(BODY_END, () => `${link[0]}\n${BODY_END}`);
}

/** The page without its `<link rel="modulepreload">` links. */
export function withoutModulePreloads(html: string): string {
  return html.replace(MODULE_PRELOAD, '');
}

/**
 * The built page without modulepreloads and with its first-paint rules inlined, read from disk once
 * per file and kept: the build does not change while the server runs, and the sheet is ~50 kB to read
 * and sift on every first open.
 * A read that fails is not kept, so the next open tries again.
 */
export function createFirstPageCache(): (file: string, staticDir: string) => Promise<string> {
  const pages = new Map<string, Promise<string>>();
  return (file, staticDir) => {
    let page = pages.get(file);
    if (page === undefined) {
      page = readFile(file, 'utf8').then((html) => withFirstPaintStylesheet(withoutModulePreloads(html), staticDir));
      pages.set(file, page);
      page.catch(() => pages.delete(file));
    }
    return page;
  };
}

/**
 * Answers `GET /` (or `/index.html`) opened with the server's token in `?token=`; false for any
 * other request, which the static files answer as before. A failing task list leaves the page to
 * the app, which asks again and reports what went wrong.
 */
export async function serveFirstPage(
  req: IncomingMessage,
  res: ServerResponse,
  opts: {
    core: () => FolioCore | Promise<FolioCore>;
    staticDir: string;
    /** The server's `createFirstPageCache()`. */
    page: (file: string, staticDir: string) => Promise<string>;
    token: string;
    pathname: string;
    query: Record<string, string | string[]>;
  },
): Promise<boolean> {
  if (opts.pathname !== '/' && opts.pathname !== '/index.html') return false;
  const given = opts.query.token;
  if (typeof given !== 'string' || !safeEqual(given, opts.token)) return false;
  const file = await resolveStaticFile(opts.staticDir, opts.pathname);
  if (file === null) return false;
  const [html, tasks] = await Promise.all([opts.page(file, opts.staticDir), Promise.resolve(opts.core()).then((core) => core.handlers.listTasks({ status: 'active' })).then((r) => r.tasks, () => null)]);
  if (tasks === null) return false;
  const body = Buffer.from(withTaskList(html, tasks));
  res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Length': String(body.length), 'Cache-Control': 'no-store' });
  res.end(req.method === 'HEAD' ? undefined : body);
  return true;
}
