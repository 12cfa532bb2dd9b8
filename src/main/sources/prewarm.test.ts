// The spare extraction worker: started ahead of the first file, taken by it (even mid-warm-up),
// and replaced when the pool empties; stopPrewarm ends it. useWorkerScript empties the pool.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractFile, idleWorkerCount, liveWorkerCount, prewarmExtraction, stopPrewarm, useWorkerScript, workersStartedCount } from './extract';
import { minimalPdf } from './testing';
import { warmSecondWorker, workerEntry } from './worker-pool';

let dir: string;
let pdf: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-prewarm-'));
  pdf = path.join(dir, 'one.pdf');
  fs.writeFileSync(pdf, minimalPdf([['A page read by the spare worker']]));
});
afterAll(() => {
  stopPrewarm();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('prewarmExtraction', () => {
  it('starts one worker with pdfjs loaded, which the first file then uses: no thread is started for it', async () => {
    const before = workersStartedCount();
    expect(await prewarmExtraction()).toBe(true);
    expect(workersStartedCount()).toBe(before + 1);
    expect(liveWorkerCount()).toBe(1);
    // Asking again while one is live starts nothing.
    expect(await prewarmExtraction()).toBe(true);
    expect(workersStartedCount()).toBe(before + 1);

    const result = await extractFile(pdf);
    expect(result.status).toBe('ok');
    expect(result.markdown).toContain('A page read by the spare worker');
    expect(workersStartedCount()).toBe(before + 1);
  }, 60_000);

  it('replaces the spare when the pool empties, and a file arriving during its warm-up takes it', async () => {
    // Retiring the idle workers empties the pool: a new spare is started at once.
    useWorkerScript(null);
    expect(liveWorkerCount()).toBe(0);
    const before = workersStartedCount();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(workersStartedCount()).toBe(before + 1);
    // Not awaited: the file comes while the spare still loads pdfjs.
    const result = await extractFile(pdf);
    expect(result.status).toBe('ok');
    expect(workersStartedCount()).toBe(before + 1);
  }, 60_000);

  it('stopPrewarm ends a spare that has read nothing yet, and no new one follows', async () => {
    useWorkerScript(null);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(await prewarmExtraction()).toBe(true);
    stopPrewarm();
    expect(liveWorkerCount()).toBe(0);
    const after = workersStartedCount();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(workersStartedCount()).toBe(after);
    expect(liveWorkerCount()).toBe(0);
  }, 60_000);

  it('useWorkerScript also ends a worker still loading pdfjs, so the spare asked for next is a new one, ready', async () => {
    stopPrewarm();
    useWorkerScript(null);
    const entry = workerEntry();
    if (!entry) throw new Error('no extraction worker entry');
    // A split's future helper, warming while no job waits for it (as after a first long file).
    warmSecondWorker(entry, 1024);
    expect(liveWorkerCount()).toBe(1);
    useWorkerScript(null);
    expect(liveWorkerCount()).toBe(0);
    const before = workersStartedCount();
    expect(await prewarmExtraction()).toBe(true);
    expect(workersStartedCount()).toBe(before + 1);
    expect(idleWorkerCount()).toBe(1);
  }, 60_000);
});
