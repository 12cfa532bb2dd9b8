// Runs one HTML → markdown conversion in its own worker thread, within limits: the input is cut at
// HTML_LIMITS.maxInputChars, conversion stops at the caller's output size, the worker's heap is
// capped, and past the timeout the worker is terminated. Every failure is a ToolError, so the model
// is told what happened and the run goes on.
import { Worker } from 'node:worker_threads';
import { moduleWorkerEntry } from '../../workers/entry';
import { ToolError } from '../types';
import { type PageMarkdown } from './html-to-markdown';
import { type HtmlAnswer, type HtmlJob } from './html-worker';

export const HTML_LIMITS = {
  /** Past this many characters the page is cut before converting (safe-fetch already caps bytes). */
  maxInputChars: 5_000_000,
  timeoutMs: 20_000,
  maxHeapMb: 256,
};

export interface ConvertOptions {
  /** Markdown characters wanted; conversion stops past them. */
  maxChars: number;
  signal?: AbortSignal;
  timeoutMs?: number;
  maxHeapMb?: number;
}

export function convertHtmlInWorker(html: string, baseUrl: string, opts: ConvertOptions): Promise<PageMarkdown> {
  const entry = moduleWorkerEntry('html-worker', import.meta.url);
  if (!entry) return Promise.reject(new ToolError('HTML conversion is unavailable: the html-worker script was not found.'));
  if (opts.signal?.aborted) return Promise.reject(new ToolError('Cancelled.'));
  const cut = html.length > HTML_LIMITS.maxInputChars;
  const timeoutMs = opts.timeoutMs ?? HTML_LIMITS.timeoutMs;
  const job: HtmlJob = { html: cut ? html.slice(0, HTML_LIMITS.maxInputChars) : html, baseUrl, maxChars: opts.maxChars };
  return new Promise<PageMarkdown>((resolve, reject) => {
    const worker = new Worker(entry.script, {
      eval: entry.eval ?? false,
      workerData: entry.workerData,
      execArgv: entry.execArgv,
      resourceLimits: { maxOldGenerationSizeMb: opts.maxHeapMb ?? HTML_LIMITS.maxHeapMb },
    });
    let settled = false;
    const finish = (outcome: { page: PageMarkdown } | { error: string }) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
      void worker.terminate();
      if ('page' in outcome) resolve(outcome.page);
      else reject(new ToolError(outcome.error));
    };
    const onAbort = () => finish({ error: 'Cancelled.' });
    const limit = timeoutMs < 1000 ? `${timeoutMs} ms` : `${Math.round(timeoutMs / 1000)} s`;
    const timer = setTimeout(() => finish({ error: `The page took more than ${limit} to convert to text and was given up: it is too large or too complex.` }), timeoutMs);
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    worker.on('message', (answer: HtmlAnswer) => {
      if (!answer.ok) finish({ error: `The page could not be converted to text: ${answer.message}` });
      else finish({ page: { title: answer.title, markdown: answer.markdown, complete: answer.complete && !cut } });
    });
    worker.on('error', (err: Error) => {
      const oom = 'code' in err && err.code === 'ERR_WORKER_OUT_OF_MEMORY';
      finish({ error: oom ? 'The page is too large to convert to text (out of memory).' : `The page could not be converted to text: ${err.message}` });
    });
    worker.on('exit', (code) => finish({ error: `The page could not be converted to text (the converter stopped, exit code ${code}).` }));
    worker.postMessage(job);
  });
}
