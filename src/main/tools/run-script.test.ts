import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import JSZip from 'jszip';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRunScriptTool, findFolioRoot } from './run-script';
import { SCRIPTS_DIR } from './staged-program';
import { sandboxStatus } from '../sandbox/sandbox';
import { contextFor, makeTempRoot, removeTemp } from './testing';

let root: string;
beforeEach(() => {
  root = makeTempRoot('folio-script-');
});
afterEach(() => removeTemp(root));

const tool = createRunScriptTool({
  baseEnv: () => ({ ...process.env, OPENAI_API_KEY: 'sk-should-not-leak', DEEPSEEK_API_KEY: 'sk-nope', MY_STORED: 'stored-secret', HARMLESS: 'visible' }),
  secretNames: () => ['MY_STORED'],
});

describe('run_script', () => {
  it('stages the script through the resolver: a .scripts link out of the task writes nothing outside', async () => {
    const outside = makeTempRoot('folio-script-outside-');
    const otherTask = makeTempRoot('folio-script-other-');
    try {
      for (const target of [outside, path.join(otherTask, 'work')]) {
        fs.mkdirSync(target, { recursive: true });
        fs.rmSync(path.join(root, SCRIPTS_DIR), { recursive: true, force: true });
        fs.mkdirSync(path.dirname(path.join(root, SCRIPTS_DIR)), { recursive: true });
        fs.symlinkSync(target, path.join(root, SCRIPTS_DIR));
        await expect(tool.execute({ code: 'console.log(1)' }, contextFor(root))).rejects.toMatchObject({ code: 'path_escape' });
        expect(fs.readdirSync(target)).toEqual([]);
      }
    } finally {
      removeTemp(outside);
      removeTemp(otherTask);
    }
  });

  it('runs the code in the task folder and returns what it prints', async () => {
    const result = await tool.execute({ code: 'console.log("hello", 6 * 7);\nconsole.log(process.cwd());\nconsole.log("中文输出");' }, contextFor(root));
    expect(result.isError).toBe(false);
    expect(result.content).toContain('hello 42');
    expect(result.content).toContain(`${root}\n`);
    expect(result.content).toContain('中文输出');
    expect(result.content).toMatch(/\[exit code 0 · [\d.]+ s\]$/u);
    // The script file is removed afterwards and is not reported as a task file.
    expect(fs.readdirSync(path.join(root, SCRIPTS_DIR))).toEqual([]);
    expect(result.touched).toEqual([]);
  });

  it('can require pptxgenjs and write a .pptx into work/, reported as touched', async () => {
    const code = [
      "const PptxGenJS = require('pptxgenjs');",
      'const pptx = new PptxGenJS();',
      "pptx.addSlide().addText('来自脚本的幻灯片', { x: 1, y: 1, w: 8, h: 1 });",
      "await pptx.writeFile({ fileName: 'work/from-script.pptx' });",
      "console.log('written');",
    ].join('\n');
    const result = await tool.execute({ code }, contextFor(root));
    expect(result.content).toContain('written');
    expect(result.isError).toBe(false);
    expect(result.touched).toEqual(['work/from-script.pptx']);
    const zip = await JSZip.loadAsync(fs.readFileSync(path.join(root, 'work/from-script.pptx')));
    const slide = await zip.file('ppt/slides/slide1.xml')?.async('string');
    expect(slide).toContain('来自脚本的幻灯片');
  });

  it('resolves ESM imports of Folio libraries (docx) from a task folder without node_modules', async () => {
    const code = [
      "import { Document, Packer, Paragraph } from 'docx';",
      "import fs from 'node:fs';",
      "const doc = new Document({ sections: [{ children: [new Paragraph('段落')] }] });",
      "fs.writeFileSync('out.docx', await Packer.toBuffer(doc));",
    ].join('\n');
    const result = await tool.execute({ code }, contextFor(root));
    expect(result.isError).toBe(false);
    expect(result.touched).toEqual(['out.docx']);
    expect(fs.readFileSync(path.join(root, 'out.docx')).subarray(0, 2).toString()).toBe('PK');
  });

  it('still reports a missing package as not found', async () => {
    const result = await tool.execute({ code: "import 'definitely-not-a-package-folio';" }, contextFor(root));
    expect(result.isError).toBe(true);
    expect(result.content).toContain('ERR_MODULE_NOT_FOUND');
  });

  it('kills a script that runs past its time limit', async () => {
    const started = Date.now();
    const result = await tool.execute({ code: "console.log('start'); setInterval(() => {}, 1000);", timeout_s: 1 }, contextFor(root));
    expect(Date.now() - started).toBeLessThan(5000);
    expect(result.isError).toBe(true);
    expect(result.content).toContain('start');
    expect(result.content).toContain('[timed out after 1 s');
  });

  it('captures the stack trace of a script that throws and marks it as an error', async () => {
    const result = await tool.execute({ code: "console.log('before');\nthrow new Error('boom at line two');" }, contextFor(root));
    expect(result.isError).toBe(true);
    expect(result.content).toContain('before');
    expect(result.content).toContain('Error: boom at line two');
    // The file holds exactly the model's code, so the reported line is the model's line.
    expect(result.content).toMatch(/script-[^:]+\.mjs:2/u);
    expect(result.content).toContain('[exit code 1');
  });

  it('gives the script a minimal environment: no credentials, nothing of Folio’s own', async () => {
    const result = await tool.execute({ code: 'console.log(JSON.stringify(process.env));' }, contextFor(root));
    const env = JSON.parse(result.content.split('\n')[0] ?? '{}') as Record<string, string>;
    expect(Object.keys(env).filter((k) => k.endsWith('_API_KEY'))).toEqual([]);
    expect(env.MY_STORED).toBeUndefined();
    expect(env.NODE_OPTIONS).toBeUndefined();
    // An allowlist, not a blocklist: a variable nobody listed does not pass, whatever its name.
    expect(env.HARMLESS).toBeUndefined();
    expect(env.PATH).toBe(process.env.PATH);
    expect(env.HOME).toBeTruthy();
    expect(result.content).not.toContain('sk-');
  });

  it('stops the script when the run is cancelled', async () => {
    const controller = new AbortController();
    const pending = tool.execute({ code: 'setInterval(() => {}, 1000);' }, contextFor(root, controller.signal));
    setTimeout(() => controller.abort(), 300);
    const result = await pending;
    expect(result.isError).toBe(true);
    expect(result.content).toContain('[cancelled after');
  });

  it('shows the code to the person approving it', async () => {
    const risk = await tool.assess?.({ code: 'console.log(1)' }, { root, taskId: 't', runId: 'r', callId: 'c', outbound: null });
    expect(risk).toEqual({ risk: 'standard', detail: 'console.log(1)' });
    expect(tool.traits).toMatchObject({ kind: 'execute', runsCode: true });
  });

  it('finds Folio’s package folder from its own location', () => {
    const found = findFolioRoot();
    expect(JSON.parse(fs.readFileSync(path.join(found, 'package.json'), 'utf8'))).toMatchObject({ name: 'folio' });
  });
});

describe('run_script and the task network switch', () => {
  it.skipIf(!sandboxStatus().active)('has no network unless the task allows it (needs bubblewrap)', async () => {
    const server = http.createServer((_req, res) => res.end('hello-from-host'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
      const code = `const r = await fetch(${JSON.stringify(url)}); console.log(await r.text());`;
      let on = false;
      const network = { allowed: () => Promise.resolve(on), allow: () => Promise.resolve(void (on = true)) };
      const off = await tool.execute({ code }, { ...contextFor(root), network });
      expect(off.isError).toBe(true);
      expect(off.content).not.toContain('hello-from-host');
      expect(off.content).toContain('The network is off for commands in this task');
      on = true;
      const allowed = await tool.execute({ code }, { ...contextFor(root), network });
      expect(allowed.content).toContain('hello-from-host');
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
