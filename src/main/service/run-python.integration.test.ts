// run_python end to end: the fake model calls it through the core (the real executor, the task's
// grants and network switch), as a person's task would. Needs Python 3 with pandas and matplotlib
// (CI installs python3-pandas and python3-matplotlib from Debian); isolation checks need bubblewrap.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import type { FakeOpenAI } from '../../../testing/fake-openai/server';
import { sandboxStatus } from '../sandbox/sandbox';
import { pythonRuntime } from '../tools/python-runtime';
import { taskDir } from '../workspace/layout';
import { collect, TEST_KEY } from './core-test-kit';
import type { Core } from './create-core';
import { useFakeModelCores } from './fake-model-cores.test-support';
import '../tools/catalog';

let fake: FakeOpenAI;
const { open } = useFakeModelCores((f) => (fake = f));

const python = pythonRuntime();
const has = (module: string) => python.available && python.packages.some((p) => p.module === module);
const noAnalysis = !has('pandas') || !has('matplotlib') ? 'Python 3 with pandas and matplotlib is not installed (python3-pandas python3-matplotlib)' : null;
const noSandbox = sandboxStatus().active ? null : `bubblewrap does not isolate here: ${sandboxStatus().reason}`;
if (noAnalysis) console.warn(`skipping the run_python analysis tests: ${noAnalysis}`);
if (noSandbox) console.warn(`skipping the run_python isolation tests: ${noSandbox}`);

/** A task whose run_python calls of exactly `programs` are granted, as "Allow for this task" does. */
async function taskAllowing(core: Core, ...programs: string[]) {
  const task = await core.handlers.createTask({ mode: 'general' });
  for (const code of programs) await core.ctx.store.grants.grant(task.id, 'run_python', `sha256:${createHash('sha256').update(code).digest('hex')}`);
  return task;
}

/** Runs one run_python call through the fake model and returns the tool message the model got back. */
async function runPython(core: Core, taskId: string, code: string, extra: { timeout?: number } = {}) {
  fake.script([{ toolCalls: [{ name: 'run_python', arguments: JSON.stringify({ code, ...extra }) }] }, { text: 'done' }]);
  const { run_id } = await core.handlers.sendMessage({ task_id: taskId, content: 'analyse' });
  const events = await collect(core, taskId, run_id);
  const result = events.find((e) => e.type === 'tool_result');
  if (result?.type !== 'tool_result') throw new Error(`no tool result: ${JSON.stringify(events.map((e) => e.type))}`);
  const messages = (await core.handlers.listMessages({ task_id: taskId })).messages.filter((m) => m.role === 'tool');
  return { content: messages.at(-1)?.content ?? '', isError: result.is_error };
}

describe.skipIf(noAnalysis)('run_python with pandas and matplotlib', () => {
  it('the model is told which packages it has, and computes a mean from a CSV with pandas', async () => {
    const core = await open();
    const code = "import pandas as pd\ndf = pd.read_csv('source/sales.csv')\nprint('mean', round(df['amount'].mean(), 3))\nprint(df.groupby('city')['amount'].sum().to_dict())";
    const task = await taskAllowing(core, code);
    const dir = taskDir(core.dataDir, task.id);
    mkdirSync(join(dir, 'source'), { recursive: true });
    writeFileSync(join(dir, 'source', 'sales.csv'), 'city,amount\n北京,10\n上海,20\n北京,33.5\n');
    const { content, isError } = await runPython(core, task.id, code);
    expect(isError).toBe(false);
    expect(content).toContain('mean 21.167');
    expect(content).toContain("{'上海': 20.0, '北京': 43.5}");
    const offered = (fake.requests.find((r) => r.path.endsWith('/chat/completions'))?.body as { tools: { function: { name: string; description: string } }[] }).tools;
    const tool = offered.find((t) => t.function.name === 'run_python');
    expect(tool?.function.description).toMatch(/with: .*numpy [\d.]+.*pandas [\d.]+.*matplotlib [\d.]+/);
  });

  it('draws a matplotlib figure under work/ that render_deck places on a slide', async () => {
    const core = await open();
    const code = [
      'import matplotlib.pyplot as plt',
      'fig, ax = plt.subplots(figsize=(6, 4))',
      "ax.bar(['北京', '上海'], [43.5, 20])",
      "ax.set_title('销售额 Sales')",
      "plt.savefig('work/sales.png', dpi=100)",
      "print('saved')",
    ].join('\n');
    const task = await taskAllowing(core, code);
    await core.handlers.updateTask({ task_id: task.id, approval_mode: 'auto-edit' });
    const { content, isError } = await runPython(core, task.id, code);
    expect(isError).toBe(false);
    expect(content).toContain('Files written: work/sales.png');
    // No glyph was missing: the Chinese labels found a font.
    expect(content).not.toMatch(/Glyph \d+ .* missing/);
    const png = readFileSync(join(taskDir(core.dataDir, task.id), 'work', 'sales.png'));
    expect(png.subarray(1, 4).toString()).toBe('PNG');

    const spec = { title: 'Sales', slides: [{ layout: 'title', title: 'Sales' }, { layout: 'image', title: '销售额', image: 'work/sales.png', caption: 'By city' }] };
    fake.script([{ toolCalls: [{ name: 'render_deck', arguments: JSON.stringify({ spec, name: 'sales' }) }] }, { text: 'Rendered.' }]);
    const { run_id } = await core.handlers.sendMessage({ task_id: task.id, content: 'make the deck' });
    const events = await collect(core, task.id, run_id);
    expect(events.find((e) => e.type === 'tool_result')).toMatchObject({ name: 'render_deck', is_error: false });
    const deck = join(taskDir(core.dataDir, task.id), 'artifacts', 'sales.pptx');
    expect(existsSync(deck)).toBe(true);
    const zip = await JSZip.loadAsync(readFileSync(deck));
    const media = Object.keys(zip.files).filter((f) => f.startsWith('ppt/media/') && !zip.files[f].dir);
    // The figure itself is in the deck (same bytes), referenced from the second slide.
    const sizes = await Promise.all(media.map(async (f) => (await zip.file(f)!.async('nodebuffer')).length));
    expect(sizes).toContain(png.length);
    const rels = await zip.file('ppt/slides/_rels/slide2.xml.rels')!.async('string');
    expect(rels).toMatch(/relationships\/image" Target="..\/media\/[^"]+\.png"/);
    // matplotlib builds its font cache once per task, and the render checks the slides with LibreOffice.
  }, 180_000);
});

describe.skipIf(!python.available)('run_python environment', () => {
  it('gets no API key, token, secret, password or private key, whatever they are called', async () => {
    const core = await open();
    const code = 'import os, json\nprint(json.dumps(sorted(os.environ)))\nprint(json.dumps(list(os.environ.values())))';
    const task = await taskAllowing(core, code);
    const planted = { FAKE_API_KEY: TEST_KEY, GITHUB_TOKEN: 'tok-planted', AWS_SECRET_ACCESS_KEY: 'sec-planted', DB_PASSWORD: 'pw-planted', SSH_PRIVATE_KEY: 'pk-planted' };
    Object.assign(process.env, planted);
    try {
      const { content, isError } = await runPython(core, task.id, code);
      expect(isError).toBe(false);
      expect(content).toContain('PATH');
      for (const [name, value] of Object.entries(planted)) {
        expect(content).not.toContain(name);
        expect(content).not.toContain(value);
      }
    } finally {
      for (const name of Object.keys(planted)) delete process.env[name];
    }
  });
});

describe.skipIf(!python.available || noSandbox !== null)('run_python in the sandbox', () => {
  it('is refused the network until the task allows it', async () => {
    const server = http.createServer((_req, res) => res.end('hello-from-host'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
      const core = await open();
      const code = `import urllib.request\nprint(urllib.request.urlopen(${JSON.stringify(url)}, timeout=5).read().decode())`;
      const task = await taskAllowing(core, code);
      const off = await runPython(core, task.id, code);
      expect(off.isError).toBe(true);
      expect(off.content).not.toContain('hello-from-host');
      expect(off.content).toContain('The network is off for commands in this task');
      await core.handlers.updateTask({ task_id: task.id, allow_network: true });
      const on = await runPython(core, task.id, code);
      expect(on.content).toContain('hello-from-host');
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('cannot see the data folder, and source/ is read-only', async () => {
    const core = await open();
    const code = [
      'import os',
      `print('data folder visible:', os.path.exists(${JSON.stringify(join(core.dataDir, 'models'))}))`,
      'try:',
      "    open('source/new.txt', 'w').write('x')",
      "    print('source writable')",
      'except OSError as e:',
      "    print('source read-only')",
    ].join('\n');
    const task = await taskAllowing(core, code);
    mkdirSync(join(taskDir(core.dataDir, task.id), 'source'), { recursive: true });
    const { content } = await runPython(core, task.id, code);
    expect(content).toContain('data folder visible: False');
    expect(content).toContain('source read-only');
  });

  it('a timeout ends the program and the processes it started', async () => {
    const core = await open();
    // A child in its own session keeps appending to a file: it must stop when the parent is killed.
    const code = [
      'import subprocess, sys, time',
      "child = \"import time\\nwhile True:\\n    open('work/tick.txt', 'a').write('x')\\n    time.sleep(0.05)\\n\"",
      'subprocess.Popen([sys.executable, "-c", child], start_new_session=True)',
      "print('started', flush=True)",
      'time.sleep(600)',
    ].join('\n');
    const task = await taskAllowing(core, code);
    mkdirSync(join(taskDir(core.dataDir, task.id), 'work'), { recursive: true });
    const started = Date.now();
    const { content, isError } = await runPython(core, task.id, code, { timeout: 2 });
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(isError).toBe(true);
    expect(content).toContain('started');
    expect(content).toContain('[timed out after 2 s');
    const tick = join(taskDir(core.dataDir, task.id), 'work', 'tick.txt');
    const size = readFileSync(tick).length;
    expect(size).toBeGreaterThan(0);
    await new Promise((r) => setTimeout(r, 600));
    expect(readFileSync(tick).length).toBe(size);
  });
});
