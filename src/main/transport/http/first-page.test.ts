import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_TOKEN, startTestServer, type TestServer } from './http-test-kit.test-support';
import { withFirstPaintStylesheet, withTaskList } from './first-page';

const PRELOAD = '<link rel="modulepreload" crossorigin href="./assets/b.js">';
const PAGE = `<!doctype html><title>Folio</title>\n    ${PRELOAD}\n    <link rel="stylesheet" crossorigin href="./assets/app.css"><body><div id="root"></div><script type="module" src="./a.js"></script></body>`;
// The list's row rule, and one for a screen the drawn list does not have.
const ROW_RULE = '.task-item{height:48px}';
const CSS = `${ROW_RULE}.approval-card{color:red}`;

describe("the first page holds the task list when it is opened with the server's token", () => {
  let site = '';
  let web: TestServer;

  beforeAll(async () => {
    site = await mkdtemp(join(tmpdir(), 'folio-first-page-'));
    await mkdir(site, { recursive: true });
    await mkdir(join(site, 'assets'));
    await writeFile(join(site, 'index.html'), PAGE);
    await writeFile(join(site, 'assets', 'app.css'), CSS);
    web = await startTestServer({ staticDir: site });
    await web.core.handlers.createTask({ mode: 'ppt', title: 'Cooling <loop> & "deck"' });
    const done = await web.core.handlers.createTask({ mode: 'general', title: 'Finished one' });
    await web.core.handlers.updateTask({ task_id: done.id, status: 'completed' });
  });
  afterAll(async () => {
    await web.close();
    await rm(site, { recursive: true, force: true });
  });

  it('draws the active tasks into #root, titles escaped, never cached, with the security headers', async () => {
    const res = await fetch(`${web.url}/?token=${TEST_TOKEN}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('cross-origin-opener-policy')).toBe('same-origin');
    expect(res.headers.get('content-security-policy')).toBeTruthy();
    const html = await res.text();
    expect(html).toContain('<div id="root"><div class="app first-paint"');
    expect(html).toContain('<span class="task-title">Cooling &lt;loop&gt; &amp; &quot;deck&quot;</span>');
    expect(html).not.toContain('Finished one');
    expect(html).toContain('<script type="module" src="./a.js"></script>');
    // The list's rules come with the page; the whole sheet follows the list, out of the head.
    expect(html).toContain(`<style>${ROW_RULE}</style>`);
    expect(html).not.toContain('approval-card');
    const head = html.slice(0, html.indexOf('<body>'));
    expect(head).not.toContain('app.css');
    // No module is fetched and compiled ahead of the first frame: the entry imports its own.
    expect(html).not.toContain('modulepreload');
    expect(head).toBe('<!doctype html><title>Folio</title>\n    <style>.task-item{height:48px}</style>');
    expect(html).toMatch(/<div id="root">.*<\/div><script type="module" src="\.\/a\.js"><\/script><link rel="stylesheet" crossorigin href="\.\/assets\/app\.css">\n<\/body>$/su);
  });

  it('serves the plain page without the token, with a wrong one, or at another path', async () => {
    for (const path of ['/', '/?token=wrong-token-0123456789', `/?token=${TEST_TOKEN}x`, `/?token=${TEST_TOKEN}&token=${TEST_TOKEN}`]) {
      const html = await (await fetch(`${web.url}${path}`)).text();
      expect(html, path).toBe(PAGE);
    }
  });

  it('reads the page and its sheet once, not on every first open', async () => {
    const open = async () => (await fetch(`${web.url}/?token=${TEST_TOKEN}`)).text();
    expect(await open()).toContain(`<style>${ROW_RULE}</style>`);
    // A changed sheet on disk is not read again: the build does not change while the server runs.
    await writeFile(join(site, 'assets', 'app.css'), '.task-item{height:50px}');
    try {
      expect(await open()).toContain(`<style>${ROW_RULE}</style>`);
    } finally {
      await writeFile(join(site, 'assets', 'app.css'), CSS);
    }
  });

  it('keeps the link when the sheet cannot be inlined as it is', async () => {
    await writeFile(join(site, 'assets', 'font.css'), '@font-face{src:url(./f.woff2)}.task-item{height:48px}');
    const page = '<link rel="stylesheet" href="./assets/font.css"><body><div id="root"></div></body>';
    expect(await withFirstPaintStylesheet(page, site)).toBe(page);
    const missing = '<link rel="stylesheet" href="./assets/none.css"><body></body>';
    expect(await withFirstPaintStylesheet(missing, site)).toBe(missing);
  });

  it('leaves a page without an empty root as it is', () => {
    expect(withTaskList('<div id="root">x</div>', [{ title: 'A', mode: 'ppt' }])).toBe('<div id="root">x</div>');
  });
});
