// The SSE client of the sse bench in a thread of its own, as Folio's real client (the renderer, a
// browser) is a process of its own: its parsing then does not take turns with the server's work on
// one event loop. Both SSE rows (Folio's stream and the provider's, read by the same code) use it.
import { parentPort } from 'node:worker_threads';
import { timeFolioSse, timeProviderSse, timeRunSse, type RunSseTarget } from './sse-client';

export type SseClientJob =
  | { kind: 'provider'; url: string; expected: number }
  | { kind: 'folio'; url: string; token: string; expected: number }
  | ({ kind: 'run' } & RunSseTarget);

parentPort?.on('message', (job: SseClientJob) => {
  const timing = job.kind === 'provider' ? timeProviderSse(job.url, job.expected) : job.kind === 'folio' ? timeFolioSse(job.url, job.token, job.expected) : timeRunSse(job);
  timing.then(
    (result) => parentPort?.postMessage({ result }),
    (err: unknown) => parentPort?.postMessage({ error: err instanceof Error ? err.message : String(err) }),
  );
});
