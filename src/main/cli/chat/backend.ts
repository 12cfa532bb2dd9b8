// Where `folio chat` gets its core: in this process (composed as `folio serve` does, owning the
// data folder's lock), or a running `folio serve` over HTTP /v1 + SSE (the client the web renderer
// uses, from src/shared). The chat talks to either through the contract's typed client.
import type { FolioClient, RunEvent } from '../../../shared/contract';
import { FolioError } from '../../../shared/errors';
import { createHttpCall, runEventsUrl, subscribeRunOverSse } from '../../../shared/http-client';
import { createClient, unwrapResult } from '../../../shared/transport';
import { createCore } from '../../service/create-core';
import { dispatchCall } from '../../transport/dispatch';

export interface ChatBackend {
  client: FolioClient;
  /** Replays the run's events so far, then live ones, until `run_finished` or unsubscribed. */
  subscribeRun(taskId: string, runId: string, listener: (event: RunEvent) => void, onError: (error: FolioError) => void): () => void;
  /** Stops the core (runs cancelled, database closed, lock released) or, over HTTP, nothing. */
  close(): Promise<void>;
  /** What the header says: the data folder or the server's address. */
  where: string;
}

export async function inProcessBackend(paths: { dataDir: string; resourcesDir: string }): Promise<ChatBackend> {
  // The same rules as `folio serve`: one process owns a data folder, so this refuses to start beside
  // a running app (the error names the holder and FOLIO_DATA_DIR).
  // A chat lives as long as the app's window does: warmed as the app and `folio serve` are (a spare
  // extraction worker 1.5 s after start, the sandbox and Python probes in the background).
  const core = await createCore({ ...paths, prewarmExtraction: true, warmMachineProbes: true });
  // Calls go through the transports' dispatch, so input and output are validated exactly as over IPC.
  const client = createClient(async (method, input) => unwrapResult(await dispatchCall(core, method, input, { transport: 'ipc' })));
  return {
    client,
    subscribeRun: (taskId, runId, listener, onError) => {
      // Subscribing may ask the store; an unsubscribe that comes first still ends the subscription.
      let unsubscribe: (() => void) | null = null;
      let stopped = false;
      core.events.subscribe(taskId, runId, listener).then(
        (stop) => {
          if (stopped) stop();
          else unsubscribe = stop;
        },
        (err: unknown) => onError(err instanceof FolioError ? err : new FolioError('internal', err instanceof Error ? err.message : String(err))),
      );
      return () => {
        stopped = true;
        unsubscribe?.();
      };
    },
    close: () => core.close(),
    where: paths.dataDir,
  };
}

export function httpBackend(options: { url: string; token: string }): ChatBackend {
  const baseUrl = options.url.replace(/\/+$/, '');
  const doFetch = (input: string, init?: RequestInit) => fetch(input, init);
  const { call } = createHttpCall({ token: options.token, baseUrl, fetch: doFetch });
  return {
    client: createClient(call),
    subscribeRun: (taskId, runId, listener, onError) =>
      subscribeRunOverSse({
        fetch: doFetch,
        url: runEventsUrl(baseUrl, taskId, runId),
        token: options.token,
        listener,
        onError,
      }),
    close: async () => undefined,
    where: baseUrl,
  };
}
