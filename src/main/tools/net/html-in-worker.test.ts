import { monitorEventLoopDelay } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { ToolError } from '../types';
import { convertHtmlInWorker, HTML_LIMITS } from './html-in-worker';
import { linkPage, tablePage } from './testing-pages';

/** Runs `work` while sampling the main thread's event-loop delay; the worst delay in ms. */
async function worstDelayDuring<T>(work: () => Promise<T>): Promise<{ value: T; worstMs: number; ms: number }> {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  const started = performance.now();
  try {
    const value = await work();
    return { value, worstMs: histogram.max / 1e6, ms: performance.now() - started };
  } finally {
    histogram.disable();
  }
}

describe('convertHtmlInWorker', () => {
  for (const [name, page] of [
    ['a 1.16 MB table page (61 s on the main thread before)', tablePage()],
    ['a 760 KB page of links (71 s on the main thread before)', linkPage()],
  ] as const) {
    it(`converts ${name} within the timeout while the main thread stays responsive`, async () => {
      const { value, worstMs, ms } = await worstDelayDuring(() => convertHtmlInWorker(page, 'https://example.com/', { maxChars: 100_000 }));
      expect(ms).toBeLessThan(HTML_LIMITS.timeoutMs);
      // Without the worker the loop was blocked for the whole conversion (about a minute).
      expect(worstMs).toBeLessThan(500);
      expect(value.markdown.length).toBeGreaterThan(50_000);
      expect(value.complete).toBe(false);
    }, 60_000);
  }

  it('gives up past the timeout with a clear error, as data for the model', async () => {
    const err = await convertHtmlInWorker(tablePage(), 'https://example.com/', { maxChars: Number.POSITIVE_INFINITY, timeoutMs: 50 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ToolError);
    expect((err as Error).message).toMatch(/took more than 50 ms .* too large or too complex/u);
  });

  it('ends the conversion when the run is cancelled', async () => {
    const controller = new AbortController();
    const pending = convertHtmlInWorker(tablePage(), 'https://example.com/', { maxChars: Number.POSITIVE_INFINITY, signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    await expect(pending).rejects.toThrow(/Cancelled/u);
  });

  it('keeps a small page whole and makes its links absolute', async () => {
    const page = await convertHtmlInWorker('<html><head><title>T</title></head><body><p>See <a href="/a">this</a>.</p></body></html>', 'https://example.com/dir/', { maxChars: 1000 });
    expect(page).toEqual({ title: 'T', markdown: 'See [this](https://example.com/a).', complete: true });
  });
});
