// public/early-requests.js draws the task list before React runs, with a hand copy of the sidebar
// row's markup, and React's first render replaces it at the same pixels. This holds the copy to the
// row React draws: the same classes nested the same way, down to what the copy draws (the meta line
// is a blank there, so what is inside it is the app's alone).
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { Task } from '../../shared/contract';
import { firstPaintTaskListHtml } from '../../shared/first-paint/task-list-html';
import earlyScript from '../public/early-requests.js?raw';
import { useUiLanguage } from '../i18n/ui-language.test-support';
import { TaskItem } from './TaskItem';

/** An element reduced to its classes and its children's. */
interface ClassTree {
  cls: string;
  children: ClassTree[];
}

const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr']);

/** Static markup (React's, well-formed) read as a class tree; the first element is the root. */
function markupTree(html: string): ClassTree {
  const root: ClassTree = { cls: '', children: [] };
  const stack = [root];
  for (const [, closing, tag, attrs] of html.matchAll(/<(\/?)([a-zA-Z][\w-]*)([^>]*)>/gu)) {
    if (closing) {
      stack.pop();
      continue;
    }
    const node: ClassTree = { cls: /\bclass="([^"]*)"/u.exec(attrs)?.[1] ?? '', children: [] };
    stack.at(-1)!.children.push(node);
    if (!VOID.has(tag.toLowerCase()) && !attrs.endsWith('/')) stack.push(node);
  }
  return root.children[0];
}

/** The row as far as the early copy draws it: the row, its main part, and nothing inside the meta line. */
function rowShape(tree: ClassTree): unknown {
  const shape = (node: ClassTree): unknown => ({
    cls: node.cls,
    children: node.cls.split(' ').includes('task-meta') ? [] : node.children.map(shape),
  });
  const main = tree.children.find((c) => c.cls.split(' ').includes('task-main'));
  return { cls: tree.cls, children: main ? [shape(main)] : [] };
}

/** Just enough DOM for the script: what it draws, as a class tree. */
class Drawn {
  className = '';
  textContent = '';
  readonly children: Drawn[] = [];
  readonly style = { setProperty: () => undefined };
  get firstChild(): Drawn | null {
    return this.children[0] ?? null;
  }
  appendChild(child: Drawn): Drawn {
    this.children.push(child);
    return child;
  }
  setAttribute(): void {}
  tree(): ClassTree {
    return { cls: this.className, children: this.children.map((c) => c.tree()) };
  }
  find(cls: string): Drawn[] {
    const own = this.className.split(' ').includes(cls) ? [this] : [];
    return [...own, ...this.children.flatMap((c) => c.find(cls))];
  }
}

/** The rows public/early-requests.js draws for these tasks. */
async function earlyRows(tasks: Task[]): Promise<ClassTree[]> {
  const root = new Drawn();
  const fetch = (url: string) => Promise.resolve(new Response(JSON.stringify(url.startsWith('/v1/tasks') ? { tasks } : {}), { status: 200 }));
  const document = { getElementById: (id: string) => (id === 'root' ? root : null), createElement: () => new Drawn() };
  const storage = { getItem: (key: string) => (key === 'folio.token' ? 'tok-0123456789abcdef' : null) };
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the text is the repository's own file
  const script = new Function('window', 'location', 'sessionStorage', 'localStorage', 'document', 'fetch', 'URLSearchParams', earlyScript) as (...args: unknown[]) => void;
  script({}, { search: '' }, storage, { getItem: () => null }, document, fetch, URLSearchParams);
  await new Promise((resolve) => setTimeout(resolve, 0));
  return root.find('task-item').map((row) => row.tree());
}

function task(patch: Partial<Task>): Task {
  return {
    id: 't1',
    title: 'Cooling loop deck',
    description: '',
    mode: 'ppt',
    status: 'active',
    model: null,
    approval_mode: 'ask',
    workspace_path: null,
    allow_network: false,
    prompt_tokens: 1200,
    completion_tokens: 300,
    cost: 0,
    created_at: 1,
    updated_at: 1,
    last_run: null,
    reasoning: null,
    mcp_servers: null,
    project_id: null,
    ...patch,
  };
}

/** Every node of a tree with this class, depth first. */
function nodesWithClass(tree: ClassTree, cls: string): ClassTree[] {
  const own = tree.cls.split(' ').includes(cls) ? [tree] : [];
  return [...own, ...tree.children.flatMap((c) => nodesWithClass(c, cls))];
}

describe('the task row drawn before the app (public/early-requests.js, and the server\'s first page)', () => {
  useUiLanguage();

  it('the server draws the same rows as early-requests.js, in the same frame, titles as text', async () => {
    const tasks = [task({}), task({ id: 't2', title: '', mode: 'general' }), task({ id: 't3', title: '<b>A & "B"</b>', mode: 'proposal' })];
    const served = markupTree(firstPaintTaskListHtml(tasks));
    const rows = nodesWithClass(served, 'task-item');
    expect(rows).toHaveLength(tasks.length);
    expect(rows.map(rowShape)).toEqual((await earlyRows(tasks)).map(rowShape));
    tasks.forEach((t, i) => {
      const react = markupTree(renderToStaticMarkup(<TaskItem task={t} selected={false} />));
      expect(rowShape(rows[i]), `row of task ${t.id}`).toEqual(rowShape(react));
    });
    expect(firstPaintTaskListHtml(tasks)).toContain('&lt;b&gt;A &amp; &quot;B&quot;&lt;/b&gt;');
  });

  it('has the classes, nested the same way, of the row React draws for the same task', async () => {
    const tasks = [task({}), task({ id: 't2', title: '', mode: 'general' }), task({ id: 't3', mode: 'proposal', status: 'completed' })];
    const drawn = await earlyRows(tasks);
    expect(drawn).toHaveLength(tasks.length);
    tasks.forEach((t, i) => {
      const react = markupTree(renderToStaticMarkup(<TaskItem task={t} selected={false} />));
      expect(rowShape(drawn[i]), `row of task ${t.id}`).toEqual(rowShape(react));
    });
  });
});
