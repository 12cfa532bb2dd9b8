// Desktop mode: the preload's `window.folio` bridge carries every call; results arrive in the
// {ok, value | error} envelope and errors are rebuilt as FolioError.
import type { MethodOutput } from '../../shared/contract';
import type { FolioBridge } from '../../shared/transport';
import { createClient, unwrapResult } from '../../shared/transport';
import { FolioError } from '../../shared/folio-error';
import type { FolioApi } from './folio-api';

function base64ToBytes(data: string): Uint8Array<ArrayBuffer> {
  const binary = atob(data);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

export function createIpcApi(bridge: FolioBridge): FolioApi {
  const client = createClient((method, input) => bridge.call(method, input).then(unwrapResult));
  return {
    kind: 'ipc',
    client,
    subscribeRun: (taskId, runId, listener, onError) => {
      try {
        return bridge.subscribeRun(taskId, runId, listener);
      } catch (err) {
        onError?.(err instanceof FolioError ? err : new FolioError('internal', 'Could not follow the run.', { cause: err }));
        return () => undefined;
      }
    },
    addFiles: async (taskId, files) => {
      // Main copies from local paths; a File without one (e.g. pasted data) can't be added this way.
      const paths = files.map((file) => bridge.getPathForFile(file)).filter((path) => path !== '');
      if (paths.length === 0) throw new FolioError('unsupported', 'These files have no location on disk and cannot be added.');
      const result = await client.addFiles({ task_id: taskId, paths });
      return result.files;
    },
    addLibraryFiles: async (libraryId, files) => {
      // As with task files: main copies them from their place on disk.
      const paths = files.map((file) => bridge.getPathForFile(file)).filter((path) => path !== '');
      if (paths.length === 0) throw new FolioError('unsupported', 'These files have no location on disk and cannot be added.');
      const result = await client.addLibraryFiles({ project_id: libraryId, paths });
      return result.files;
    },
    importTemplate: async (file) => {
      // As with task files: main reads the template from its place on disk.
      const path = bridge.getPathForFile(file);
      if (path === '') throw new FolioError('unsupported', 'This file has no location on disk and cannot be imported.');
      return client.importTemplate({ path });
    },
    downloadFile: async (taskId, path) => asBlob(await client.readFile({ task_id: taskId, path })),
    downloadLibraryFile: async (libraryId, path) => asBlob(await client.readLibraryFile({ project_id: libraryId, path })),
  };
}

function asBlob(file: MethodOutput<'readFile'>): Blob {
  const body = file.encoding === 'base64' ? base64ToBytes(file.data) : file.data;
  return new Blob([body], { type: file.mime });
}
