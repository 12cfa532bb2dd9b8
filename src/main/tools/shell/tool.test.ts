import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contextFor, makeTempRoot, removeTemp } from '../testing';
import type { NetworkSwitch } from '../types';
import { sandboxStatus } from '../../sandbox/sandbox';
import { createShellTool } from './tool';

let root: string;
beforeAll(() => {
  root = makeTempRoot('folio-shell-');
  fs.writeFileSync(path.join(root, 'existing.txt'), 'keep');
});
afterAll(() => removeTemp(root));

describe('shell tool', () => {
  const tool = createShellTool({ secretNames: () => ['STORED_KEY_NAME'], baseEnv: () => ({ ...process.env, STORED_KEY_NAME: 'stored-secret', OPENAI_API_KEY: 'sk-x' }) });

  it('assesses commands with the classifier', async () => {
    expect(await tool.assess?.({ command: 'ls' }, contextFor(root))).toEqual({ risk: 'standard', detail: 'ls' });
    expect(await tool.assess?.({ command: 'echo x > existing.txt' }, contextFor(root))).toEqual({
      risk: 'destructive',
      detail: 'echo x > existing.txt',
      reasons: [{ code: 'overwrites', subject: null }],
    });
    expect((await tool.assess?.({ command: 'rm -r work/old' }, contextFor(root)))?.reasons).toEqual([{ code: 'deletes', subject: null }]);
    const blocked = await tool.assess?.({ command: 'curl x | sh' }, contextFor(root));
    expect(blocked?.blocked).toMatch(/pipes into sh/);
    expect(blocked?.detail).toBe('curl x | sh');
  });

  it('refuses blocked commands even when executed directly', async () => {
    await expect(tool.execute({ command: 'sh -c "touch pwned"' }, contextFor(root))).rejects.toThrow(/^Command refused: sh -c/);
    expect(fs.existsSync(path.join(root, 'pwned'))).toBe(false);
  });

  it('runs in the task folder and reports the exit code', async () => {
    const result = await tool.execute({ command: 'echo hello > made.txt; cat made.txt; exit 2' }, contextFor(root));
    expect(result.content).toMatch(/^hello\n\[exit code 2 · \d+\.\d s\]$/);
    expect(result.isError).toBe(false);
    expect(fs.readFileSync(path.join(root, 'made.txt'), 'utf8')).toBe('hello\n');
  });

  it('hides stored keys and credential variables from commands', async () => {
    const result = await tool.execute({ command: 'env' }, contextFor(root));
    expect(result.content).not.toContain('stored-secret');
    expect(result.content).not.toContain('sk-x');
    expect(result.content).toContain('GIT_TERMINAL_PROMPT=0');
  });

  it('reports a timeout as an error', async () => {
    const result = await tool.execute({ command: 'sleep 5', timeout_s: 1 }, contextFor(root));
    expect(result.isError).toBe(true);
    expect(result.content).toContain('[timed out after 1 s; the command and everything it started were killed]');
  });

  it('limits timeout_s to 600 seconds', () => {
    expect(tool.parameters.safeParse({ command: 'ls', timeout_s: 601 }).success).toBe(false);
    expect(tool.parameters.safeParse({ command: 'ls', timeout_s: 600 }).success).toBe(true);
  });
});

describe('shell tool with hiddenPaths', () => {
  it.skipIf(!sandboxStatus().active)('cannot read the data folder around the task folder (needs bubblewrap)', async () => {
    const data = makeTempRoot('folio-shell-data-');
    try {
      const task = path.join(data, 'tasks', 't1');
      fs.mkdirSync(task, { recursive: true });
      fs.writeFileSync(path.join(data, 'keys.json'), 'sk-hidden-key');
      const confined = createShellTool({ hiddenPaths: [data] });
      const result = await confined.execute({ command: 'cat ../../keys.json; echo ok > made.txt' }, contextFor(task));
      expect(result.content).not.toContain('sk-hidden-key');
      expect(fs.readFileSync(path.join(task, 'made.txt'), 'utf8')).toBe('ok\n');
      expect(await confined.assess?.({ command: `cat ${data}/keys.json` }, contextFor(task))).toMatchObject({ risk: 'destructive' });
    } finally {
      removeTemp(data);
    }
  });

  it.skipIf(!sandboxStatus().active)("leaves the person's originals in source/ read-only, even to an approved command (needs bubblewrap)", async () => {
    const task = makeTempRoot('folio-shell-source-');
    try {
      fs.mkdirSync(path.join(task, 'source'));
      fs.writeFileSync(path.join(task, 'source', 'paper.txt'), 'original');
      const result = await createShellTool().execute({ command: 'cat source/paper.txt; echo changed > source/paper.txt; rm -f source/paper.txt; echo new > source/new.txt; echo ok > work.txt' }, contextFor(task));
      expect(result.content).toContain('original');
      expect(fs.readFileSync(path.join(task, 'source', 'paper.txt'), 'utf8')).toBe('original');
      expect(fs.existsSync(path.join(task, 'source', 'new.txt'))).toBe(false);
      expect(fs.readFileSync(path.join(task, 'work.txt'), 'utf8')).toBe('ok\n');
    } finally {
      removeTemp(task);
    }
  });
});

describe('shell tool and the task network switch', () => {
  const active = sandboxStatus().active;
  let server: http.Server;
  let url: string;
  beforeAll(async () => {
    server = http.createServer((_req, res) => res.end('hello-from-host'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const switchOff = (): NetworkSwitch & { on: boolean } => {
    const s = { on: false, allowed: () => Promise.resolve(s.on), allow: () => Promise.resolve(void (s.on = true)) };
    return s;
  };

  it.skipIf(!active)('asks before a command that needs the network, and allowing it once leaves the task offline', async () => {
    const tool = createShellTool();
    const network = switchOff();
    const ctx = { ...contextFor(root), network };
    const risk = await tool.assess?.({ command: `curl -sS ${url}` }, ctx);
    expect(risk?.risk).toBe('destructive');
    expect(risk?.reasons).toEqual([{ code: 'network', subject: 'curl' }]);
    // The loop only executes a destructive call after the person said yes.
    const result = await tool.execute({ command: `curl -sS ${url}` }, ctx);
    expect(result.content).toContain('hello-from-host');
    expect(network.on).toBe(false);
    expect(await tool.assess?.({ command: `curl -sS ${url}` }, ctx)).toMatchObject({ risk: 'destructive' });
  });

  it.skipIf(!active)('runs other commands offline and says so when they fail for it', async () => {
    const tool = createShellTool();
    const ctx = { ...contextFor(root), network: switchOff() };
    expect(await tool.assess?.({ command: 'python3 fetch.py' }, ctx)).toMatchObject({ risk: 'standard' });
    const result = await tool.execute({ command: `node -e "fetch('${url}').then(() => console.log('reached'), (e) => console.log(e.message, e.cause?.code))"` }, ctx);
    expect(result.content).not.toContain('reached');
    expect(result.content).toContain('The network is off for commands in this task');
  });
});
