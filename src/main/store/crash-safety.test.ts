import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore } from './index';
import { makeTempDir } from './test-helpers';

const projectRoot = path.resolve(import.meta.dirname, '../../..');
const childScript = path.join(import.meta.dirname, 'crash-child.fixture.ts');
const ACKS_BEFORE_KILL = 300;

/** Runs the child until it has acknowledged ACKS_BEFORE_KILL appends, SIGKILLs it, returns every ack seen. */
function appendUntilKilled(dbPath: string, taskId: string): Promise<number[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', childScript, dbPath, taskId], {
      cwd: projectRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const acks: number[] = [];
    let pending = '';
    let stderr = '';
    let killed = false;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`child did not reach ${ACKS_BEFORE_KILL} acks in time; stderr: ${stderr}`));
    }, 20_000);
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      pending += chunk;
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) acks.push(Number(line));
      if (!killed && acks.length >= ACKS_BEFORE_KILL) {
        killed = true;
        child.kill('SIGKILL');
      }
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (_code, signal) => {
      clearTimeout(timer);
      if (signal !== 'SIGKILL') reject(new Error(`child exited on its own (signal ${signal}); stderr: ${stderr}`));
      else resolve(acks);
    });
  });
}

describe('crash safety', () => {
  let temp: ReturnType<typeof makeTempDir>;
  beforeEach(() => {
    temp = makeTempDir();
  });
  afterEach(() => temp.cleanup());

  it('keeps every acknowledged message across SIGKILLs, with contiguous seqs and a sound file', async () => {
    const setup = openStore(temp.dbPath);
    setup.tasks.create({ id: 'crash', mode: 'general', title: 'crash', description: '', model: null });
    setup.close();

    let previousMax = 0;
    for (let round = 1; round <= 3; round++) {
      const acks = await appendUntilKilled(temp.dbPath, 'crash');
      expect(acks.length).toBeGreaterThanOrEqual(ACKS_BEFORE_KILL);
      // Acks continue where the previous round's data ended: the restarted writer saw everything.
      expect(acks[0]).toBe(previousMax + 1);

      const store = openStore(temp.dbPath);
      try {
        expect(store.integrityCheck()).toBe('ok');
        expect(store.db.pragma('integrity_check', { simple: true })).toBe('ok');
        const seqs = store.messages.all('crash').map((m) => m.seq);
        expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => i + 1));
        const present = new Set(seqs);
        expect(acks.filter((seq) => !present.has(seq))).toEqual([]);
        previousMax = seqs.length;
      } finally {
        store.close();
      }
    }
  });
});
