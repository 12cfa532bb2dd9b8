// Web mode: every contract method becomes a fetch to the route named in the contract's `http`
// metadata, so adding a method to the contract needs no change here. The transport-neutral part
// (request plans, errors, SSE) is in src/shared/http-client.ts, shared with the terminal chat.
// Values from the zod contract are imported lazily (importTemplate, SSE): this module is in the
// first chunk, which must not wait for zod and the contract's schemas to load and build.
import type { FileEntry, LibraryFile } from '../../shared/contract';
import { createClient } from '../../shared/transport';
import { createHttpCall, runEventsUrl, subscribeRunOverSse, type FetchLike } from '../../shared/http-client';
import { fetchAdoptingEarly } from './early-requests';
import type { FolioApi } from './folio-api';

export { createHttpCall, errorFromResponse, planHttpRequest, subscribeRunOverSse, type FetchLike, type HttpRequestPlan, type SseSubscription } from '../../shared/http-client';

export interface HttpApiOptions {
  token: string;
  /** Origin of the Folio server; '' means the page's own origin. */
  baseUrl?: string;
  fetch?: FetchLike;
  /** Waits between SSE reconnect attempts, in order; the last one repeats. */
  reconnectDelaysMs?: number[];
}

export function createHttpApi(options: HttpApiOptions): FolioApi {
  const baseUrl = options.baseUrl ?? '';
  const network: FetchLike = (input, init) => fetch(input, init);
  // On the page's own origin, the first screen's requests may already be on their way (public/early-requests.js).
  const doFetch: FetchLike = options.fetch ?? (baseUrl === '' && typeof window !== 'undefined' ? fetchAdoptingEarly(window, network) : network);
  const { auth, send, call } = createHttpCall({ token: options.token, baseUrl, fetch: doFetch });
  const client = createClient(call);

  return {
    kind: 'http',
    client,
    subscribeRun: (taskId, runId, listener, onError) =>
      subscribeRunOverSse({
        fetch: doFetch,
        url: runEventsUrl(baseUrl, taskId, runId),
        token: options.token,
        listener,
        onError,
        reconnectDelaysMs: options.reconnectDelaysMs,
      }),
    addFiles: async (taskId, files) => uploadFiles(send, auth, taskId, files),
    addLibraryFiles: async (libraryId, files) => {
      const form = new FormData();
      for (const file of files) form.append('files', file, file.name);
      // Multipart on the library's files route, as task files; no Content-Type: the browser writes the boundary.
      const response = await send(`/v1/projects/${encodeURIComponent(libraryId)}/files`, { method: 'POST', headers: auth, body: form });
      const body: unknown = await response.json();
      return typeof body === 'object' && body !== null && 'files' in body && Array.isArray(body.files) ? (body.files as LibraryFile[]) : [];
    },
    importTemplate: async (file) => {
      const form = new FormData();
      form.append('file', file, file.name);
      // No Content-Type header: the browser writes the multipart boundary itself.
      const response = await send('/v1/templates', { method: 'POST', headers: auth, body: form });
      const { contract } = await import('../../shared/contract/methods');
      return contract.importTemplate.output.parse(await response.json());
    },
    downloadFile: async (taskId, path) => {
      const url = `/v1/tasks/${encodeURIComponent(taskId)}/files/${path.split('/').map(encodeURIComponent).join('/')}`;
      const response = await send(url, { method: 'GET', headers: auth });
      return response.blob();
    },
    downloadLibraryFile: async (libraryId, path) => {
      const url = `/v1/projects/${encodeURIComponent(libraryId)}/files/${path.split('/').map(encodeURIComponent).join('/')}`;
      const response = await send(url, { method: 'GET', headers: auth });
      return response.blob();
    },
  };
}

async function uploadFiles(
  send: (url: string, init: RequestInit) => Promise<Response>,
  auth: Record<string, string>,
  taskId: string,
  files: File[],
): Promise<FileEntry[]> {
  const form = new FormData();
  for (const file of files) form.append('files', file, file.name);
  // No Content-Type header: the browser must write the multipart boundary itself.
  const response = await send(`/v1/tasks/${encodeURIComponent(taskId)}/files`, { method: 'POST', headers: auth, body: form });
  const body: unknown = await response.json();
  return typeof body === 'object' && body !== null && 'files' in body && Array.isArray(body.files) ? (body.files as FileEntry[]) : [];
}
