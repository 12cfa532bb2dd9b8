// What every executor must do, as one suite each implementation runs (bubblewrap-executor.test.ts,
// container-executor.test.ts). Isolation (the file system, the network) is asserted only where the
// subject claims it; where it cannot (no bwrap, no container engine, a fake runtime), those tests
// skip with the subject's reason, so a green run never hides what was not checked.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { programEnv } from './env';
import type { Executor, ExecOptions } from './executor';
import { MAX_OUTPUT_BYTES } from './process';

export interface ContractSubject {
  /** Names the implementation in the suite's title. */
  name: string;
  /** Why the whole suite cannot run here (names the missing tool), or null. */
  skip: string | null;
  /** Why file-system and network isolation cannot be checked here, or null when the subject isolates. */
  isolationSkip: string | null;
  make: () => Executor;
  /** The Node binary as the program sees it: this machine's, or the image's `node`. */
  node: string;
  /** Where the task folder is as the program sees it (a container's /workspace); default: where it is. */
  workspace?: string;
  /** Checks only this subject can pass, run on the suite's executor and task folder (one container for all). */
  more?: (suite: ContractSuite) => void;
}

export interface ContractSuite {
  executor: () => Executor;
  /** The task folder on this machine. */
  root: () => string;
  options: (extra?: Partial<ExecOptions>) => ExecOptions;
}

const SECRET = 'contract-secret-5e1d9a';

async function settle(ms: number): Promise<void> {
  await new Promise((r) => setTimeout(r, ms));
}

export function executorContract(subject: ContractSubject): void {
  if (subject.skip !== null) console.warn(`${subject.name} executor contract skipped: ${subject.skip}`);
  else if (subject.isolationSkip !== null) console.warn(`${subject.name} executor isolation checks skipped: ${subject.isolationSkip}`);

  describe.skipIf(subject.skip !== null)(`executor contract: ${subject.name}`, () => {
    let executor: Executor;
    let data: string;
    let root: string;
    let server: http.Server;
    let port: number;

    beforeAll(async () => {
      executor = subject.make();
      // Outside /tmp, as a real data folder is: bubblewrap's private /tmp would hide it regardless.
      const base = fs.existsSync('/var/tmp') ? '/var/tmp' : os.tmpdir();
      data = fs.realpathSync(fs.mkdtempSync(path.join(base, 'folio-contract-')));
      root = path.join(data, 'tasks', 'task-a');
      fs.mkdirSync(path.join(root, 'work'), { recursive: true });
      fs.writeFileSync(path.join(data, 'keys.json'), `{"openai":"${SECRET}"}`);
      server = http.createServer((_req, res) => res.end('served-from-host'));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      port = (server.address() as AddressInfo).port;
    });

    afterAll(async () => {
      await executor.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      fs.rmSync(data, { recursive: true, force: true });
    });

    function options(extra: Partial<ExecOptions> = {}): ExecOptions {
      const env = programEnv({ ...process.env, FOLIO_TOKEN: SECRET, OPENAI_API_KEY: SECRET }, { sandboxed: executor.status().active, network: false });
      return { taskId: 'task-a', root, cwd: root, env, network: 'none', hiddenPaths: [data], ...extra };
    }
    const sh = (script: string): string[] => ['/bin/sh', '-c', script];

    it('returns the output of both streams and the exit code', async () => {
      const result = await executor.run(sh('echo hello; echo oops 1>&2; exit 3'), options());
      expect(result.output).toContain('hello');
      expect(result.output).toContain('oops');
      expect(result.exitCode).toBe(3);
      expect(result.timedOut).toBe(false);
      expect(result.aborted).toBe(false);
      expect(result.truncated).toBe(false);
    });

    it('starts in the given folder, and what it writes there is in the task folder', async () => {
      const cwd = path.join(root, 'work');
      const result = await executor.run(sh('pwd; echo made > made.txt'), options({ cwd }));
      expect(result.output.trim()).toBe(subject.workspace === undefined ? cwd : `${subject.workspace}/work`);
      expect(fs.readFileSync(path.join(cwd, 'made.txt'), 'utf8')).toBe('made\n');
    });

    it('passes the allowlisted environment only: no secret of the parent, nor of Folio itself', async () => {
      process.env.FOLIO_CONTRACT_SECRET_TOKEN = SECRET;
      try {
        const result = await executor.run(['env'], options());
        expect(result.output).toMatch(/^PATH=/mu);
        expect(result.output).not.toContain(SECRET);
        expect(result.output).not.toContain('FOLIO_CONTRACT_SECRET_TOKEN');
      } finally {
        delete process.env.FOLIO_CONTRACT_SECRET_TOKEN;
      }
    });

    it('kills the program and what it started when the timeout fires', async () => {
      const marker = path.join(root, 'survived-timeout');
      const result = await executor.run(sh(`(sleep 1.5; touch ${marker}) & sleep 30`), options({ timeoutMs: 400 }));
      expect(result.timedOut).toBe(true);
      expect(result.exitCode).not.toBe(0);
      await settle(2500);
      expect(fs.existsSync(marker)).toBe(false);
    });

    it('kills the program when the signal fires', async () => {
      const controller = new AbortController();
      const pending = executor.run(sh('sleep 30'), options({ signal: controller.signal }));
      await settle(400);
      controller.abort();
      const result = await pending;
      expect(result.aborted).toBe(true);
      expect(result.exitCode).not.toBe(0);
    });

    it('caps the output, keeping the head and the tail', async () => {
      const result = await executor.run(sh("echo START; head -c 300000 /dev/zero | tr '\\0' a; echo; echo END"), options());
      expect(result.truncated).toBe(true);
      expect(result.output.startsWith('START')).toBe(true);
      expect(result.output.trimEnd().endsWith('END')).toBe(true);
      expect(Buffer.byteLength(result.output)).toBeLessThan(MAX_OUTPUT_BYTES + 200);
    });

    describe.skipIf(subject.isolationSkip !== null)('isolation', () => {
      it('cannot read outside the task folder (Folio\'s data folder)', async () => {
        const result = await executor.run(sh(`cat ${path.join(data, 'keys.json')} 2>&1; ls ${data} 2>&1`), options());
        expect(result.output).not.toContain(SECRET);
      });

      it('cannot write outside the task folder', async () => {
        const escape = path.join(data, 'escaped.txt');
        const result = await executor.run(sh(`echo x > ${escape}; echo x > /usr/escaped.txt; echo done`), options());
        expect(result.output).toContain('done');
        expect(fs.existsSync(escape)).toBe(false);
        expect(fs.existsSync('/usr/escaped.txt')).toBe(false);
      });

      it('keeps read-only folders inside the task folder read-only', async () => {
        const source = path.join(root, 'source');
        fs.mkdirSync(source, { recursive: true });
        fs.writeFileSync(path.join(source, 'original.txt'), 'original');
        await executor.run(sh(`echo changed > ${path.join(source, 'original.txt')}`), options({ readOnlyPaths: [source] }));
        expect(fs.readFileSync(path.join(source, 'original.txt'), 'utf8')).toBe('original');
      });

      it('has no network when the policy is none', async () => {
        const code = `fetch('http://127.0.0.1:${port}/').then((r) => r.text()).then(console.log, (e) => console.log('failed', e.cause?.code ?? e.message))`;
        const result = await executor.run([subject.node, '-e', code], options({ network: 'none' }));
        expect(result.output).not.toContain('served-from-host');
        expect(result.output).toContain('failed');
      });
    });

    // After the isolation checks: the subject's own may end by releasing the container.
    subject.more?.({ executor: () => executor, root: () => root, options });
  });
}
