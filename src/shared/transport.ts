// What both transports share: the IPC channel names, the result envelope, the bridge the preload
// exposes, and a typed client built from any `call` function (so the renderer's two adapters are
// derived from the contract, not written per method).
import { type ErrorShapeData as ErrorShape, FolioError, fromErrorShape } from './folio-error';
import type { FolioClient, MethodName } from './contract/methods';
import { methodTable } from './contract/method-table';
import type { RunEvent } from './contract/events';

export { IPC } from './ipc-channels';

export type CallResult = { ok: true; value: unknown } | { ok: false; error: ErrorShape };

/** The narrow object the preload exposes as `window.folio`. */
export interface FolioBridge {
  call(method: string, input: unknown): Promise<CallResult>;
  /** Replays the run's events so far, then live ones; returns an unsubscribe function. */
  subscribeRun(taskId: string, runId: string, listener: (event: RunEvent) => void): () => void;
  /** Path of a dropped File (Electron `webUtils.getPathForFile`); '' when unknown. */
  getPathForFile(file: unknown): string;
}

export type RunSubscriber = (taskId: string, runId: string, listener: (event: RunEvent) => void) => () => void;

export interface FolioTransport {
  kind: 'ipc' | 'http';
  client: FolioClient;
  subscribeRun: RunSubscriber;
}

export function unwrapResult(result: CallResult): unknown {
  if (result.ok) return result.value;
  throw fromErrorShape(result.error);
}

export function createClient(call: (method: MethodName, input: unknown) => Promise<unknown>): FolioClient {
  const client: Record<string, (input: unknown) => Promise<unknown>> = {};
  for (const name of methodTable.names) client[name] = (input: unknown) => call(name, input ?? {});
  return client as unknown as FolioClient;
}

export { FolioError };
