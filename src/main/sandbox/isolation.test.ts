// A sandboxed command must not see Folio's processes (their environments hold
// the API token and keys), must not reach its data folder through /proc/<pid>/root, must have no
// network unless the task allows it, and must not outlive a cancel or a timeout, `setsid` or not.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeTemp } from '../tools/testing';
import { runShell } from '../tools/shell/run';
import { programEnv } from './env';
import { descendants, processTable, uniqueSleep } from './processes.test-support';
import { sandboxed, sandboxStatus } from './sandbox';

const status = sandboxStatus();
if (!status.active) console.warn(`sandbox isolation tests skipped: bubblewrap (bwrap) is unavailable (${status.reason})`);
const hasBwrap = status.active;

const TOKEN = 'folio-token-3f9a1c7e5b';
const KEY = 'sk-fake-api-key-8d2e6f0a';

let data: string;
let root: string;
/** Stands in for Folio itself: a process whose environment holds the token and a key. */
let folio: ChildProcess;
let server: http.Server;
let port: number;

beforeAll(async () => {
  // Outside /tmp, as a real data folder is: the sandbox's private /tmp would hide it regardless.
  data = fs.realpathSync(fs.mkdtempSync(path.join(fs.existsSync('/var/tmp') ? '/var/tmp' : os.tmpdir(), 'folio-iso-data-')));
  root = path.join(data, 'tasks', 'mine');
  fs.mkdirSync(root, { recursive: true });
  fs.writeFileSync(path.join(data, 'keys.json'), `{"openai":"${KEY}"}`);
  folio = spawn('sleep', ['60'], { env: { ...process.env, FOLIO_TOKEN: TOKEN, OPENAI_API_KEY: KEY }, stdio: 'ignore' });
  server = http.createServer((_req, res) => res.end('served-from-host'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  folio.kill('SIGKILL');
  await new Promise<void>((resolve) => server.close(() => resolve()));
  removeTemp(data);
});

const parentEnv = { ...process.env, FOLIO_TOKEN: TOKEN, OPENAI_API_KEY: KEY };
function confined(network = false) {
  return { cwd: root, env: programEnv(parentEnv, { sandboxed: hasBwrap, network }), writableRoot: root, hiddenPaths: [data], network };
}

async function settle(ms: number): Promise<void> {
  await new Promise((r) => setTimeout(r, ms));
}

describe.skipIf(!hasBwrap)('sandbox isolation (bubblewrap)', () => {
  it('shows no other process, so no environment holds the token or a key', async () => {
    const result = await runShell({ command: 'cat /proc/*/environ | tr "\\0" "\\n"; ls /proc | grep -c "^[0-9]"', ...confined() });
    expect(result.output).not.toContain(TOKEN);
    expect(result.output).not.toContain(KEY);
    expect(result.output).toContain('HOME=/tmp/home');
    expect(result.output).not.toContain(`${folio.pid ?? 'none'}\n`);
  });

  it('cannot reach the data folder through /proc/<pid>/root', async () => {
    const command = `cat /proc/${process.pid}/root${data}/keys.json; cat /proc/${folio.pid ?? 0}/root${data}/keys.json; cat /proc/1/root${data}/keys.json`;
    const result = await runShell({ command, ...confined() });
    expect(result.output).not.toContain(KEY);
  });

  it('keeps its capabilities dropped, so even root cannot unmount what hides the data folder', async () => {
    const result = await runShell({ command: `umount -l ${data} 2>&1; cat ${data}/keys.json 2>&1`, ...confined() });
    expect(result.output).not.toContain(KEY);
  });

  it('has no network unless allowed, then reaches a server on the host', async () => {
    const url = `http://127.0.0.1:${port}/`;
    const off = await runShell({ command: `curl -sS --max-time 5 ${url}`, ...confined(false) });
    expect(off.output).not.toContain('served-from-host');
    expect(off.exitCode).not.toBe(0);
    const on = await runShell({ command: `curl -sS --max-time 5 ${url}`, ...confined(true) });
    expect(on.output).toContain('served-from-host');

    const fetchCode = `fetch('${url}').then((r) => r.text()).then(console.log, (e) => console.log('failed', e.cause?.code ?? e.message))`;
    const nodeOff = await runShell({ command: `node -e "${fetchCode}"`, ...confined(false) });
    expect(nodeOff.output).toMatch(/failed/);
    const nodeOn = await runShell({ command: `node -e "${fetchCode}"`, ...confined(true) });
    expect(nodeOn.output).toContain('served-from-host');
  });

  it('kills a setsid child on cancel', async () => {
    const marker = path.join(root, 'survived-cancel');
    const controller = new AbortController();
    const pending = runShell({ command: `setsid sh -c 'sleep 1.5; touch ${marker}' & sleep 30`, ...confined(), signal: controller.signal });
    await settle(400);
    controller.abort();
    const result = await pending;
    expect(result.aborted).toBe(true);
    await settle(2500);
    expect(fs.existsSync(marker)).toBe(false);
  });

  it('kills a setsid child on timeout, and one left behind when the command ends', async () => {
    const timedMarker = path.join(root, 'survived-timeout');
    const timed = await runShell({ command: `setsid sh -c 'sleep 1.5; touch ${timedMarker}' & sleep 30`, ...confined(), timeoutMs: 400 });
    expect(timed.timedOut).toBe(true);
    const endMarker = path.join(root, 'survived-end');
    const ended = await runShell({ command: `setsid sh -c 'sleep 1.5; touch ${endMarker}' > /dev/null 2>&1 & echo started`, ...confined() });
    expect(ended.exitCode).toBe(0);
    await settle(2500);
    expect(fs.existsSync(timedMarker)).toBe(false);
    expect(fs.existsSync(endMarker)).toBe(false);
  });

  it('has no terminal to inject keystrokes into', async () => {
    const result = await runShell({ command: '(exec 3</dev/tty) 2>/dev/null && echo has-terminal || echo no-terminal', ...confined() });
    expect(result.output.trim()).toBe('no-terminal');
  });

  it('keeps every process of the sandbox in the process group its caller kills', async () => {
    // Callers stop a sandbox by killing bwrap's process group. A sandbox that leaves that group (bwrap's
    // --new-session does, before bwrap arms its parent-death signal) outlives a kill that lands while
    // it starts.
    const marker = uniqueSleep();
    const confinedSleep = sandboxed('/bin/sleep', [marker], { writableRoot: root, hiddenPaths: [data], network: false });
    if (!confinedSleep) throw new Error('no sandbox');
    const bwrap = spawn(confinedSleep.file, confinedSleep.args, { detached: true, stdio: 'ignore' });
    const exited = new Promise((resolve) => bwrap.once('exit', resolve));
    const group = bwrap.pid ?? 0;
    try {
      let inside: number[] = [];
      for (let tries = 0; tries < 500; tries++) {
        const table = processTable();
        inside = descendants(table, group);
        if (inside.some((pid) => table.get(pid)?.cmdline === `/bin/sleep ${marker}`)) break;
        await settle(10);
      }
      const table = processTable();
      expect(inside.map((pid) => table.get(pid)?.cmdline)).toContain(`/bin/sleep ${marker}`);
      expect(inside.map((pid) => ({ pid, pgrp: table.get(pid)?.pgrp ?? group }))).toEqual(inside.map((pid) => ({ pid, pgrp: group })));
    } finally {
      process.kill(-group, 'SIGKILL');
      await exited;
    }
  });
});
