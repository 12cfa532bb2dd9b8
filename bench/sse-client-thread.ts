// The SSE client of the streaming benches in a thread of its own (see sse-client-worker.ts), so its
// parsing never takes turns with a server or the fake model on the bench's event loop.
import { Worker } from 'node:worker_threads';
import { moduleWorkerEntry } from '../src/main/workers/entry';
import type { StreamTiming } from './sse-client';
import type { SseClientJob } from './sse-client-worker';

/** The SSE client, in its own thread (see sse-client-worker.ts); one job at a time. */
export class SseClientThread {
  private readonly worker: Worker;
  constructor() {
    const entry = moduleWorkerEntry('sse-client-worker', import.meta.url);
    if (!entry) throw new Error('cannot start the SSE client worker (tsx not found)');
    this.worker = new Worker(entry.script, { eval: entry.eval ?? false, execArgv: entry.execArgv });
  }
  run(job: SseClientJob): Promise<StreamTiming> {
    return new Promise((resolve, reject) => {
      const onError = (err: Error) => reject(err);
      this.worker.once('error', onError);
      this.worker.once('message', (reply: { result?: StreamTiming; error?: string }) => {
        this.worker.off('error', onError);
        if (reply.result) resolve(reply.result);
        else reject(new Error(reply.error ?? 'the SSE client worker failed'));
      });
      this.worker.postMessage(job);
    });
  }
  close(): Promise<number> {
    return this.worker.terminate();
  }
}
