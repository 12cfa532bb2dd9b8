// The soffice runner's own contract, through small fake soffice scripts (the real conversion is
// exercised by pdf-export.test.ts and deck/verify/verify.test.ts).
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { chmodSync, existsSync, readdirSync } from 'node:fs';
import { processesRunning, uniqueSleep } from '../sandbox/processes.test-support';
import { resetSandboxStatus } from '../sandbox/sandbox';
import { scratchDir, useScratchRoot } from '../workspace/scratch';
import { join } from 'node:path';
import { makeTempRoot, removeTemp, writeFiles } from '../tools/testing';
import { convertToPdf, SOFFICE_ENV, SofficeMissingError } from './soffice';
import { expectAbortAtStartLeavesNothing } from './soffice.test-support';

const posix = process.platform !== 'win32';
const saved = process.env[SOFFICE_ENV];

describe('convertToPdf', () => {
  let root: string;
  let input: string;

  beforeAll(() => {
    root = makeTempRoot('folio-soffice-test-');
    input = join(root, 'deck.pptx');
    writeFiles(root, { 'deck.pptx': 'not really a deck' });
  });
  afterEach(() => {
    if (saved === undefined) delete process.env[SOFFICE_ENV];
    else process.env[SOFFICE_ENV] = saved;
  });
  afterAll(() => removeTemp(root));

  function fake(name: string, script: string): void {
    const path = join(root, name);
    writeFiles(root, { [name]: script });
    chmodSync(path, 0o755);
    process.env[SOFFICE_ENV] = path;
  }

  it('rejects with SofficeMissingError when LibreOffice is not installed', async () => {
    process.env[SOFFICE_ENV] = join(root, 'no-such-soffice');
    await expect(convertToPdf(input, { timeoutMs: 1000 })).rejects.toBeInstanceOf(SofficeMissingError);
  });

  it.skipIf(!posix)('returns the bytes of the PDF the converter wrote into --outdir', async () => {
    // Arguments end with: --outdir <dir> <input>.
    fake('fake-soffice-ok.sh', '#!/bin/sh\nfor a; do last2="$prev"; prev="$a"; done\nmkdir -p "$last2" && printf "%%PDF-1.4 fake" > "$last2/deck.pdf"\n');
    const bytes = await convertToPdf(input, { timeoutMs: 5000 });
    expect(Buffer.from(bytes).toString()).toBe('%PDF-1.4 fake');
  });

  it.skipIf(!posix)('names the input by its label when no PDF comes out', async () => {
    fake('fake-soffice-silent.sh', '#!/bin/sh\nexit 0\n');
    await expect(convertToPdf(input, { timeoutMs: 5000, label: 'artifacts/deck.pptx' })).rejects.toMatchObject({
      code: 'tool_error',
      message: 'LibreOffice could not convert artifacts/deck.pptx (no PDF was produced).',
    });
  });

  it.skipIf(!posix)('stops a running conversion when the signal aborts, children included', async () => {
    const marker = join(root, 'child-survived');
    fake('fake-soffice-hang.sh', `#!/bin/sh\n(sleep 2; touch '${marker}') &\nsleep 30\n`);
    const controller = new AbortController();
    const started = Date.now();
    const conversion = convertToPdf(input, { timeoutMs: 60_000, signal: controller.signal });
    setTimeout(() => controller.abort(), 300);
    await expect(conversion).rejects.toMatchObject({ code: 'cancelled' });
    expect(Date.now() - started).toBeLessThan(10_000);
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(existsSync(marker)).toBe(false);
  }, 20_000);

  it.skipIf(!posix)("converts in the data folder's scratch, and removes the folder after an abort", async () => {
    const data = join(root, 'data');
    const release = useScratchRoot(data);
    const staged = () => (existsSync(scratchDir(data)) ? readdirSync(scratchDir(data)) : []);
    try {
      fake('fake-soffice-wait.sh', '#!/bin/sh\nsleep 30\n');
      const controller = new AbortController();
      const conversion = convertToPdf(input, { timeoutMs: 60_000, signal: controller.signal });
      while (staged().length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(staged()).toEqual([expect.stringMatching(/^folio-pdf-/u)]);
      controller.abort();
      await expect(conversion).rejects.toMatchObject({ code: 'cancelled' });
      expect(readdirSync(scratchDir(data))).toEqual([]);
    } finally {
      release();
    }
  }, 20_000);

  it.skipIf(!posix)('an abort at any moment of the start (queued, spawning, sandboxing) is cancelled and leaves no process or folder', async () => {
    await expectAbortAtStartLeavesNothing({ root, convert: (signal) => convertToPdf(input, { timeoutMs: 60_000, signal, label: 'deck.pptx' }) });
  }, 60_000);

  it.skipIf(!posix)('a queued conversion whose signal aborts is cancelled at once, not after the one before it', async () => {
    const sleep = uniqueSleep();
    fake('fake-soffice-busy.sh', `#!/bin/sh\nexec sleep ${sleep}\n`);
    const first = new AbortController();
    const running = convertToPdf(input, { timeoutMs: 60_000, signal: first.signal });
    const second = new AbortController();
    const queued = convertToPdf(input, { timeoutMs: 60_000, signal: second.signal, label: 'queued.pptx' });
    second.abort();
    await expect(queued).rejects.toMatchObject({ code: 'cancelled', message: 'The conversion of queued.pptx to PDF was cancelled.' });
    await vi.waitFor(() => expect(processesRunning(`sleep ${sleep}`)).toHaveLength(1), { timeout: 10_000, interval: 20 });
    first.abort();
    await expect(running).rejects.toMatchObject({ code: 'cancelled' });
  }, 20_000);

  it.skipIf(!posix)('a stopped conversion settles when soffice has gone, though a process it left holds stderr open', async () => {
    // Unsandboxed (as on macOS), a child that called setsid is out of the group that is killed.
    const saved = process.env.FOLIO_BWRAP;
    process.env.FOLIO_BWRAP = '0';
    resetSandboxStatus();
    const left = uniqueSleep();
    try {
      fake('fake-soffice-leaves.sh', `#!/bin/sh\nsetsid sleep ${left} &\nexec sleep ${uniqueSleep()}\n`);
      const controller = new AbortController();
      const conversion = convertToPdf(input, { timeoutMs: 60_000, signal: controller.signal });
      await vi.waitFor(() => expect(processesRunning(`sleep ${left}`)).toHaveLength(1), { timeout: 10_000, interval: 20 });
      controller.abort();
      await expect(conversion).rejects.toMatchObject({ code: 'cancelled' });
    } finally {
      for (const pid of processesRunning(`sleep ${left}`)) process.kill(pid, 'SIGKILL');
      if (saved === undefined) delete process.env.FOLIO_BWRAP;
      else process.env.FOLIO_BWRAP = saved;
      resetSandboxStatus();
    }
  }, 20_000);

  it.skipIf(!posix)('does not start a queued conversion whose signal already aborted', async () => {
    const log = join(root, 'started.log');
    fake('fake-soffice-log.sh', `#!/bin/sh\necho start >> '${log}'\n`);
    const controller = new AbortController();
    controller.abort();
    await expect(convertToPdf(input, { timeoutMs: 5000, signal: controller.signal })).rejects.toMatchObject({ code: 'cancelled' });
    expect(existsSync(log)).toBe(false);
  });
});
