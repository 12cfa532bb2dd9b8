// Runs a model-written regular expression in a worker thread. A pattern like `(a+)+$` backtracks
// exponentially and JavaScript cannot interrupt a running RegExp, so matching on the main thread
// would freeze Folio; a worker can be terminated. The worker is an eval'd self-contained script,
// so it runs the same under vitest/tsx and in the bundled app (no file to locate).
import { Worker } from 'node:worker_threads';
import { ToolError } from './types';

export const MATCH_TIME_LIMIT_MS = 10_000;

const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const regex = new RegExp(workerData.pattern, workerData.flags);
parentPort.on('message', (lines) => {
  const hits = [];
  for (let i = 0; i < lines.length; i += 1) if (regex.test(lines[i])) hits.push(i);
  parentPort.postMessage(hits);
});
`;

export interface LineMatcherOptions {
  signal?: AbortSignal;
  /** How long one batch of lines may take before the pattern is given up on. */
  timeLimitMs?: number;
}

export class LineMatcher {
  private worker: Worker | null = null;
  private readonly timeLimitMs: number;

  constructor(
    private readonly pattern: string,
    private readonly flags: string,
    private readonly options: LineMatcherOptions = {},
  ) {
    this.timeLimitMs = options.timeLimitMs ?? MATCH_TIME_LIMIT_MS;
  }

  /** Indices of the lines the pattern matches. */
  match(lines: readonly string[]): Promise<number[]> {
    if (lines.length === 0) return Promise.resolve([]);
    const worker = (this.worker ??= new Worker(WORKER_SOURCE, { eval: true, workerData: { pattern: this.pattern, flags: this.flags } }));
    const signal = this.options.signal;
    return new Promise<number[]>((resolve, reject) => {
      const done = (): void => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        worker.off('message', onMessage);
        worker.off('error', onError);
      };
      const fail = (message: string): void => {
        done();
        this.close();
        reject(new ToolError(message));
      };
      const onMessage = (hits: number[]): void => {
        done();
        resolve(hits);
      };
      const onError = (err: Error): void => fail(`The pattern could not be run: ${err.message}`);
      const onAbort = (): void => fail('grep was cancelled.');
      const timer = setTimeout(
        () => fail(`The pattern ${JSON.stringify(this.pattern)} took too long (over ${this.timeLimitMs / 1000} s); simplify it (avoid nested quantifiers such as (a+)+).`),
        this.timeLimitMs,
      );
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.postMessage(lines);
    });
  }

  close(): void {
    const worker = this.worker;
    this.worker = null;
    if (worker) void worker.terminate();
  }
}
