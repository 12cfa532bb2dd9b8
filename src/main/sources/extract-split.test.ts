// The worker pool and split PDFs, in a file of their own so the pool starts empty.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractFile, idleWorkerCount, liveWorkerCount, useWorkerScript, workersStartedCount } from './extract';
import { SPLIT_MAX_PAGES } from './page-split';
import { minimalPdf } from './testing';

let dir: string;
beforeAll(() => {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'folio-split-')));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function file(name: string, bytes: Uint8Array): string {
  const abs = path.join(dir, name);
  fs.writeFileSync(abs, bytes);
  return abs;
}

/** Pages with enough lines that a page takes pdfjs real work, each naming its own number. */
function book(pages: number, lines = 30): Uint8Array {
  const content = Array.from({ length: pages }, (_, p) => Array.from({ length: lines }, (_, l) => `Page ${p + 1} line ${l + 1}: text extraction keeps pages apart.`));
  return minimalPdf(content, { title: 'Split Book', author: 'Ada', pageHeight: 72 * 2 + lines * 16 });
}

describe('extractFile: worker pool and split PDFs', () => {
  it('reuses a warm worker for the next file instead of starting a thread', async () => {
    const pdf = file('small.pdf', minimalPdf([['A small file with one page of text']]));
    const first = await extractFile(pdf);
    const started = workersStartedCount();
    const second = await extractFile(pdf);
    expect(second.status).toBe('ok');
    expect(workersStartedCount()).toBe(started);
    expect(second.worker?.threadId).toBe(first.worker?.threadId);
    expect(second.markdown).toBe(first.markdown);
  });

  it('hands small files to the idle worker that has read the most pages, not to each worker in turn', async () => {
    // Two files at once leave two idle workers, one of which has read many more pages.
    const [few, many] = await Promise.all([extractFile(file('few.pdf', book(1))), extractFile(file('many.pdf', book(30)))]);
    expect(few.worker?.threadId).not.toBe(many.worker?.threadId);
    expect(idleWorkerCount()).toBe(2);
    const small = file('next.pdf', minimalPdf([['The next small file']]));
    const next = [await extractFile(small), await extractFile(small), await extractFile(small)];
    expect(next.map((r) => r.worker?.threadId)).toEqual([many.worker?.threadId, many.worker?.threadId, many.worker?.threadId]);
  }, 60_000);

  it('gives the same markdown from two workers as from one, with progress counting every page once', async () => {
    const pdf = file('book.pdf', book(120));
    // Two files at once leave two warm workers behind, so the helper is ready as soon as it is asked.
    await Promise.all([extractFile(file('a.pdf', book(2))), extractFile(file('b.pdf', book(2)))]);
    const single = await extractFile(pdf, { maxWorkers: 1 });
    const progress: [number, number | null][] = [];
    const split = await extractFile(pdf, { onProgress: (done, total) => progress.push([done, total]) });
    expect(single.worker?.threads).toBe(1);
    expect(split.worker?.threads).toBe(2);
    expect(split.status).toBe('ok');
    expect(split.pages).toBe(120);
    expect(split.title).toBe('Split Book');
    expect(split.markdown).toBe(single.markdown);
    expect(split.markdown).toContain('<!-- page 61 -->\nPage 61 line 1: text extraction keeps pages apart.\nPage 61 line 2:');
    expect(progress).toEqual(Array.from({ length: 120 }, (_, i) => [i + 1, 120]));
  }, 60_000);

  it('reads a PDF longer than a split allows with one worker, though a second is idle', async () => {
    // Two files at once leave two warm workers behind, so only the length keeps the helper away.
    await Promise.all([extractFile(file('c.pdf', book(2))), extractFile(file('d.pdf', book(2)))]);
    expect(idleWorkerCount()).toBe(2);
    const long = await extractFile(file('manual.pdf', book(SPLIT_MAX_PAGES + 1, 1)));
    expect(long.status).toBe('ok');
    expect(long.pages).toBe(SPLIT_MAX_PAGES + 1);
    expect(long.worker?.threads).toBe(1);
  }, 60_000);

  it('cancelling a split extraction stops both of its workers and its progress', async () => {
    const pdf = file('long.pdf', book(400));
    const controller = new AbortController();
    let liveAtFirstPage = 0;
    let progressAfterAbort = 0;
    const pending = extractFile(pdf, {
      signal: controller.signal,
      onProgress: () => {
        if (controller.signal.aborted) {
          progressAfterAbort += 1;
          return;
        }
        liveAtFirstPage = liveWorkerCount();
        controller.abort();
      },
    });
    expect(await pending).toMatchObject({ status: 'error', message: 'extraction cancelled' });
    expect(liveAtFirstPage).toBe(2);
    expect(liveWorkerCount()).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(progressAfterAbort).toBe(0);
    // The pool recovers with new threads.
    expect((await extractFile(file('after.pdf', book(1)))).status).toBe('ok');
  }, 60_000);

  it('never runs more than two workers, however many files are extracted at once', async () => {
    let most = 0;
    const watch = () => {
      most = Math.max(most, liveWorkerCount());
    };
    const files = [book(60), book(3), book(50), book(2)].map((bytes, i) => file(`many-${i}.pdf`, bytes));
    const results = await Promise.all(files.map((f) => extractFile(f, { onProgress: watch })));
    expect(results.map((r) => r.pages)).toEqual([60, 3, 50, 2]);
    expect(results.every((r) => r.status === 'ok')).toBe(true);
    expect(most).toBeGreaterThan(0);
    expect(most).toBeLessThanOrEqual(2);
  }, 60_000);

  it('does not wait for a new thread to split a short PDF: it warms one meanwhile, which splits the next', async () => {
    useWorkerScript(null);
    expect(liveWorkerCount()).toBe(0);
    const pdf = file('short-book.pdf', book(60));
    const first = await extractFile(pdf);
    expect(first.status).toBe('ok');
    expect(first.worker?.threads).toBe(1);
    // The second worker starts after the file, without a job, and loads pdfjs.
    for (let i = 0; i < 600 && idleWorkerCount() < 2; i += 1) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(idleWorkerCount()).toBe(2);
    const started = workersStartedCount();
    const second = await extractFile(pdf);
    expect(second.worker?.threads).toBe(2);
    expect(workersStartedCount()).toBe(started);
    expect(second.markdown).toBe(first.markdown);
  }, 60_000);
});
