// The sandbox bounds what one command may take (processes, memory, file size, /tmp), hides the host's
// sockets and root-only files, and says plainly to the model which limit stopped a program.
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { programReport } from '../tools/program-run';
import { runShell } from '../tools/shell/run';
import { removeTemp } from '../tools/testing';
import { cgroupSupport } from './cgroup';
import { programEnv } from './env';
import { limitNote, limitsFromOutput, resolveLimits } from './limits';
import { sandboxStatus } from './sandbox';

const status = sandboxStatus();
if (!status.active) console.warn(`sandbox limit tests skipped: bubblewrap (bwrap) is unavailable (${status.reason})`);
const hasBwrap = status.active;
const isRoot = process.getuid?.() === 0;
const cgroups = cgroupSupport();
const MiB = 1024 * 1024;

let data: string;
let root: string;

beforeAll(() => {
  data = fs.realpathSync(fs.mkdtempSync(path.join(fs.existsSync('/var/tmp') ? '/var/tmp' : os.tmpdir(), 'folio-limits-')));
  root = path.join(data, 'tasks', 'mine');
  fs.mkdirSync(root, { recursive: true });
});

afterAll(() => removeTemp(data));

function confined(limits: Parameters<typeof resolveLimits>[0] = {}) {
  return { cwd: root, env: programEnv(process.env, { sandboxed: hasBwrap, network: false }), writableRoot: root, hiddenPaths: [data], limits };
}

describe('limit notes', () => {
  it('tells the model which limit stopped the program, in its reading of the run', () => {
    const limits = resolveLimits({ fileSizeBytes: 8 * MiB });
    const report = programReport(
      { output: 'File size limit exceeded\n', exitCode: 153, signal: null, durationMs: 10, timedOut: false, aborted: false, truncated: false, limitNotes: [limitNote('file_size', limits)] },
      { isolated: true, network: false, timeoutS: 30, what: 'the command' },
    );
    expect(report.content).toContain('stopped by the sandbox: a file grew past the file size limit (8 MiB)');
    expect(report.content).toMatch(/\[exit code 153/u);
    // The person's screen names the stop, and shows what the program printed without Folio's lines.
    expect(report.failure).toEqual({ kind: 'killed' });
    expect(report.content.slice(0, report.program.output_chars)).toBe('File size limit exceeded\n');
  });

  it('reads the limits from a run that had no cgroup to ask', () => {
    expect(limitsFromOutput('sh: 0: Cannot fork\n', { exitCode: 2, signal: null })).toEqual(['processes']);
    expect(limitsFromOutput('', { exitCode: null, signal: 'SIGXFSZ' })).toEqual(['file_size']);
    expect(limitsFromOutput('MemoryError\n', { exitCode: 1, signal: null })).toEqual(['memory']);
    expect(limitsFromOutput("head: error writing 'standard output': No space left on device\n", { exitCode: 1, signal: null })).toEqual(['tmp']);
    expect(limitsFromOutput('all good\n', { exitCode: 0, signal: null })).toEqual([]);
  });
});

describe.skipIf(!hasBwrap)('sandbox limits (bubblewrap)', () => {
  it('stops a fork bomb at the process limit and the command ends', async () => {
    const result = await runShell({ command: 'g(){ h & h & }; h(){ g & g & }; g; sleep 1; echo after', ...confined({ processes: 48 }), timeoutMs: 30_000 });
    expect(result.timedOut).toBe(false);
    expect(result.limitNotes?.join('\n')).toMatch(/more than 48 processes/u);
  });

  it('holds xargs -P 0 to the process limit (it waits and retries rather than flooding the host)', async () => {
    const result = await runShell({ command: 'yes 9 | xargs -P 0 -n1 sleep', ...confined({ processes: 48 }), timeoutMs: 4000 });
    expect(result.limitNotes?.join('\n')).toMatch(/more than 48 processes/u);
  });

  it('stops a memory hog in one process (data rlimit)', async () => {
    const result = await runShell({ command: `python3 -c "x = b'x' * (900 * 1024 * 1024); print('allocated')"`, ...confined({ memoryBytes: 256 * MiB }), timeoutMs: 60_000 });
    expect(result.output).not.toContain('allocated');
    expect(result.limitNotes?.join('\n')).toMatch(/memory limit \(256 MiB\)/u);
  });

  it.skipIf(!cgroups.memory)('stops memory spread over processes, each under the per-process bound (cgroup)', async () => {
    // Each python holds 200 MB, under the 256 MiB each process may have; together 400 MB.
    const hog = `python3 -c "import time; x = b'x' * (200 * 1024 * 1024); time.sleep(2)"`;
    const result = await runShell({ command: `${hog} & ${hog} & wait; echo waited`, ...confined({ memoryBytes: 256 * MiB }), timeoutMs: 60_000 });
    expect(result.limitNotes?.join('\n')).toMatch(/memory limit \(256 MiB\)/u);
  });

  it('stops a file at the file size limit', async () => {
    const result = await runShell({ command: 'head -c 20971520 /dev/zero > big.bin; echo "rc=$?"', ...confined({ fileSizeBytes: 4 * MiB }), timeoutMs: 30_000 });
    expect(fs.statSync(path.join(root, 'big.bin')).size).toBeLessThanOrEqual(4 * MiB);
    expect(result.limitNotes?.join('\n')).toMatch(/file size limit \(4 MiB\)/u);
    fs.rmSync(path.join(root, 'big.bin'), { force: true });
  });

  it('bounds the private /tmp', async () => {
    const result = await runShell({ command: 'head -c 20971520 /dev/zero > /tmp/big.bin; ls -l /tmp/big.bin', ...confined({ tmpBytes: 4 * MiB }), timeoutMs: 30_000 });
    expect(result.output).toMatch(/No space left on device/u);
    expect(result.output).not.toMatch(/ 20971520 /u);
    expect(result.limitNotes?.join('\n')).toMatch(/\/tmp holds at most 4 MiB/u);
  });

  it('hides root-only files and runs as nobody when Folio is root', async () => {
    const result = await runShell({ command: 'id -u; cat /etc/shadow; for f in $(ls -A /root); do cat "/root/$f" 2>/dev/null; done | wc -c; echo end', ...confined() });
    expect(result.output).not.toMatch(/^root:/mu);
    if (isRoot) {
      expect(result.output.split('\n')[0]).toBe('65534');
      // Only the unreadable mount points of the home's hidden credential files remain.
      expect(result.output).toMatch(/^0$/mu);
    }
    expect(result.output).toContain('end');
  });

  it.skipIf(!isRoot)('reaches no host socket under /run (docker, D-Bus, podman live there)', async () => {
    const socket = path.join('/run', `folio-test-${crypto.randomBytes(4).toString('hex')}.sock`);
    const server = net.createServer((c) => c.end('host-socket-answered'));
    await new Promise<void>((resolve) => server.listen(socket, resolve));
    try {
      // The socket is reachable from the host, so a refusal inside is the sandbox's doing.
      const outside = await new Promise<string>((resolve) => {
        const c = net.connect(socket, () => undefined);
        c.on('data', (d: Buffer) => resolve(d.toString()));
        c.on('error', (e) => resolve(e.message));
      });
      expect(outside).toBe('host-socket-answered');
      const code = `import socket; s = socket.socket(socket.AF_UNIX); s.connect('${socket}'); print(s.recv(100))`;
      const result = await runShell({ command: `python3 -c "${code}"; ls -A /run /var/run | wc -l`, ...confined() });
      expect(result.output).not.toContain('host-socket-answered');
      expect(result.output).toMatch(/FileNotFoundError|No such file/u);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      fs.rmSync(socket, { force: true });
    }
  });

  it('leaves an ordinary command alone', async () => {
    const result = await runShell({ command: 'node -e "console.log(1 + 1)"; python3 -c "print(40 + 2)"', ...confined() });
    expect(result.output).toContain('2\n42');
    expect(result.limitNotes).toBeUndefined();
  });
});
