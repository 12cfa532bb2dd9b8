// What the cold and the warm conversion (soffice.test.ts, soffice-warm.test.ts) both owe a caller
// who gives up while a conversion is starting: a typed cancellation, no scratch folder, no process.
import { chmodSync, existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, vi } from 'vitest';
import { processesRunning, uniqueSleep } from '../sandbox/processes.test-support';
import { writeFiles } from '../tools/testing';
import { scratchDir, useScratchRoot } from '../workspace/scratch';
import { SOFFICE_ENV } from './soffice';

/** -1: aborted before its turn in the queue came; then after that many milliseconds. */
const START_MOMENTS_MS = [-1, 0, 2, 5, 10, 15, 20, 30, 45, 70];

export interface AbortAtStartCase {
  /** A temporary folder for the fake soffice and the data folder whose scratch is checked. */
  root: string;
  /** Starts the conversion of a file labelled `deck.pptx` under this signal. */
  convert: (signal: AbortSignal) => Promise<unknown>;
  /** Checks of the converter's own state after each cancellation. */
  afterEach?: () => void;
}

/**
 * Aborts a conversion at each moment of its start (queued, spawning, sandboxing, waiting for
 * LibreOffice) with a fake soffice that sleeps a time no other process sleeps, and checks after
 * each abort the cancellation's message, an empty scratch folder and that the sleep has gone.
 */
export async function expectAbortAtStartLeavesNothing({ root, convert, afterEach }: AbortAtStartCase): Promise<void> {
  const data = join(root, 'data-abort-at-start');
  const fake = join(root, 'fake-soffice-start.sh');
  const release = useScratchRoot(data);
  process.env[SOFFICE_ENV] = fake;
  try {
    for (const delayMs of START_MOMENTS_MS) {
      const sleep = uniqueSleep();
      writeFiles(root, { 'fake-soffice-start.sh': `#!/bin/sh\nexec sleep ${sleep}\n` });
      chmodSync(fake, 0o755);
      const controller = new AbortController();
      const conversion = convert(controller.signal);
      if (delayMs >= 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
      controller.abort();
      await expect(conversion, `after ${delayMs} ms`).rejects.toMatchObject({ code: 'cancelled', message: 'The conversion of deck.pptx to PDF was cancelled.' });
      afterEach?.();
      const staged = existsSync(scratchDir(data)) ? readdirSync(scratchDir(data)) : [];
      expect(staged, `after ${delayMs} ms`).toEqual([]);
      // Killed processes leave /proc when the kernel has reaped them, a moment after the kill.
      await vi.waitFor(() => expect(processesRunning(`sleep ${sleep}`), `after ${delayMs} ms`).toEqual([]), { timeout: 3000, interval: 20 });
    }
  } finally {
    release();
  }
}
