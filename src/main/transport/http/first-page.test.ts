import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_TOKEN, startTestServer, type TestServer } from './http-test-kit.test-support';
import { withTaskList } from './first-page';

const PAGE = '<!doctype html><title>Folio</title><body><div id="root"></div><script type="module" src="./a.js"></script></body>';

describe("the first page holds the task list when it is opened with the server's token", () => {
  let site = '';
  let web: TestServer;

  beforeAll(async () => {
    site = await mkdtemp(join(tmpdir(), 'folio-first-page-'));
    await mkdir(site, { recursive: true });
    await writeFile(join(site, 'index.html'), PAGE);
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
  });

  it('serves the plain page without the token, with a wrong one, or at another path', async () => {
    for (const path of ['/', '/?token=wrong-token-0123456789', `/?token=${TEST_TOKEN}x`, `/?token=${TEST_TOKEN}&token=${TEST_TOKEN}`]) {
      const html = await (await fetch(`${web.url}${path}`)).text();
      expect(html, path).toBe(PAGE);
    }
  });

  it('leaves a page without an empty root as it is', () => {
    expect(withTaskList('<div id="root">x</div>', [{ title: 'A', mode: 'ppt' }])).toBe('<div id="root">x</div>');
  });
});
