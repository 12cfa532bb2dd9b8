import { describe, expect, it } from 'vitest';
import { planHttpRequest } from '../../shared/http-client';
import earlyScript from '../public/early-requests.js?raw';
import { useTasks } from '../state/tasks-store';
import { createHttpApi } from './http-transport';
import type { EarlyRequests } from './early-requests';
import { fetchAdoptingEarly } from './early-requests';

interface FakePage {
  folio?: unknown;
  __folioEarlyRequests?: EarlyRequests;
}

/** Just enough of a DOM element for the script's drawing: what it builds is read back as a tree. */
class FakeElement {
  className = '';
  textContent = '';
  readonly children: FakeElement[] = [];
  readonly attributes: Record<string, string> = {};
  readonly styles: Record<string, string> = {};
  readonly style = { setProperty: (name: string, value: string) => void (this.styles[name] = value) };
  constructor(readonly tag: string) {}
  get firstChild(): FakeElement | null {
    return this.children[0] ?? null;
  }
  appendChild(child: FakeElement): FakeElement {
    this.children.push(child);
    return child;
  }
  setAttribute(name: string, value: string): void {
    this.attributes[name] = value;
  }
  all(className: string): FakeElement[] {
    const own = this.className.split(' ').includes(className) ? [this] : [];
    return [...own, ...this.children.flatMap((c) => c.all(className))];
  }
}

interface ScriptPage {
  root?: FakeElement | null;
  layout?: string | null;
  /** The task list's answer; the health check always answers 200. */
  tasks?: Response;
}

/** Runs public/early-requests.js against a fake page; returns what it fetched and what it left on the page. */
function runEarlyScript(page: FakePage, search: string, stored: string | null, scene: ScriptPage = {}) {
  const fetched: { url: string; init: RequestInit }[] = [];
  const fetch = (url: string, init: RequestInit) => {
    fetched.push({ url, init });
    if (url.startsWith('/v1/tasks') && scene.tasks) return Promise.resolve(scene.tasks);
    return Promise.resolve(new Response(JSON.stringify({ url }), { status: 200 }));
  };
  const sessionStorage = { getItem: (key: string) => (key === 'folio.token' ? stored : null) };
  const localStorage = { getItem: (key: string) => (key === 'folio.layout' ? (scene.layout ?? null) : null) };
  const document = { getElementById: (id: string) => (id === 'root' ? (scene.root ?? null) : null), createElement: (tag: string) => new FakeElement(tag) };
  // The shipped script's text, run against the fake page as the browser runs it (it is no module).
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the text is the repository's own file
  const script = new Function('window', 'location', 'sessionStorage', 'localStorage', 'document', 'fetch', 'URLSearchParams', earlyScript) as (...args: unknown[]) => void;
  script(page, { search }, sessionStorage, localStorage, document, fetch, URLSearchParams);
  return fetched;
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
const taskAnswer = (tasks: unknown[]) => new Response(JSON.stringify({ tasks }), { status: 200 });

describe('early requests (public/early-requests.js)', () => {
  it('asks for exactly what the first screen asks for: the health check and the first task list', () => {
    const fetched = runEarlyScript({}, '?token=tok-0123456789abcdef', null);
    // The task list's first request is the store's default scope.
    const { filter, query, project } = useTasks.getState();
    expect({ filter, query, project }).toEqual({ filter: 'active', query: '', project: 'all' });
    expect(fetched.map((f) => f.url)).toEqual([planHttpRequest('getHealth', {}).url, planHttpRequest('listTasks', { status: 'active' }).url]);
    for (const { init } of fetched) expect(init).toMatchObject({ method: 'GET', headers: { Authorization: 'Bearer tok-0123456789abcdef' } });
  });

  it('takes the token the page keeps after a reload, and sends nothing without one or in the desktop app', () => {
    expect(runEarlyScript({}, '', 'stored-token-0123456789')[0]?.init).toMatchObject({ headers: { Authorization: 'Bearer stored-token-0123456789' } });
    expect(runEarlyScript({}, '', null)).toEqual([]);
    expect(runEarlyScript({ folio: {} }, '?token=tok-0123456789abcdef', null)).toEqual([]);
  });

  it('the HTTP client adopts each early response once, with the same token, and asks the network after', async () => {
    const page: FakePage = {};
    runEarlyScript(page, '?token=tok-0123456789abcdef', null);
    const network: string[] = [];
    const fetch = fetchAdoptingEarly(page, async (url) => {
      network.push(url);
      return new Response(JSON.stringify({ tasks: [], from: 'network' }), { status: 200 });
    });
    const api = createHttpApi({ token: 'tok-0123456789abcdef', fetch });
    expect(await api.client.listTasks({ status: 'active' })).toEqual({ url: '/v1/tasks?status=active' });
    expect(network).toEqual([]);
    await api.client.listTasks({ status: 'active' });
    expect(network).toEqual(['/v1/tasks?status=active']);
    // Another token (another server's page) never takes them.
    const other = createHttpApi({ token: 'other-token-0123456789', fetch });
    await other.client.getHealth({});
    expect(network).toEqual(['/v1/tasks?status=active', '/v1/health']);
  });
});

describe('early requests that arrive after the app started', () => {
  it('are not sent: the app asks for itself', () => {
    const page: FakePage = {};
    fetchAdoptingEarly(page, () => Promise.reject(new Error('not used')));
    expect(runEarlyScript(page, '?token=tok-0123456789abcdef', null)).toEqual([]);
  });
});

describe('the task list drawn before the app (public/early-requests.js)', () => {
  const token = '?token=tok-0123456789abcdef';
  const tasks = [
    { id: 't1', title: 'Cooling <b>loop</b> deck', mode: 'ppt', status: 'active' },
    { id: 't2', title: '', mode: 'general', status: 'active' },
  ];

  it('draws one row per task from the early answer, titles as text, in the sidebar the app draws', async () => {
    const root = new FakeElement('div');
    runEarlyScript({}, token, null, { root, tasks: taskAnswer(tasks) });
    await settle();
    const rows = root.all('task-item');
    expect(rows.map((row) => row.all('task-title')[0]?.textContent)).toEqual(['Cooling <b>loop</b> deck', '\u00a0']);
    expect(rows.map((row) => row.all('mode-dot')[0]?.className)).toEqual(['mode-dot mode-ppt', 'mode-dot mode-general']);
    // Nothing in it pretends to be the app's: no test ids, no buttons, marked busy.
    expect(JSON.stringify(root)).not.toContain('testid');
    expect(root.all('app')[0]?.attributes['aria-busy']).toBe('true');
    expect(root.all('sidebar')[0]?.children.map((c) => c.className)).toEqual(['sidebar-header', 'sidebar-controls first-paint-controls', 'first-paint-projects', 'task-list']);
  });

  it('leaves the answer unread for the app, which adopts it', async () => {
    const page: FakePage = {};
    runEarlyScript(page, token, null, { root: new FakeElement('div'), tasks: taskAnswer(tasks) });
    await settle();
    const adopted = await page.__folioEarlyRequests?.responses['/v1/tasks?status=active'];
    expect(((await adopted?.json()) as { tasks: unknown[] }).tasks).toHaveLength(2);
  });

  it('keeps the width the person gave the sidebar, and draws nothing when it is collapsed', async () => {
    const root = new FakeElement('div');
    runEarlyScript({}, token, null, { root, tasks: taskAnswer(tasks), layout: JSON.stringify({ sidebarOpen: true, sidebarWidth: 310 }) });
    await settle();
    expect(root.all('app')[0]?.styles['--sidebar-w']).toBe('310px');
    const collapsed = new FakeElement('div');
    runEarlyScript({}, token, null, { root: collapsed, tasks: taskAnswer(tasks), layout: JSON.stringify({ sidebarOpen: false }) });
    await settle();
    expect(collapsed.children).toEqual([]);
  });

  it('draws nothing once the app has drawn, nor for a refused answer', async () => {
    const drawn = new FakeElement('div');
    drawn.appendChild(new FakeElement('div'));
    runEarlyScript({}, token, null, { root: drawn, tasks: taskAnswer(tasks) });
    const refused = new FakeElement('div');
    runEarlyScript({}, token, null, { root: refused, tasks: new Response(JSON.stringify({ error: { code: 'unauthorized' } }), { status: 401 }) });
    await settle();
    expect(drawn.children).toHaveLength(1);
    expect(refused.children).toEqual([]);
  });
});
