// The one surface the UI talks to. Both adapters (IPC in the desktop window, HTTP in web mode)
// implement it, so no component knows which one it runs on.
import type { FileEntry, FolioClient, LibraryFile, RunEvent } from '../../shared/contract';
import type { FolioError } from '../../shared/errors';
import type { TemplateSummary } from '../../shared/specs/templates';

export type RunEventListener = (event: RunEvent) => void;

export interface FolioApi {
  kind: 'ipc' | 'http';
  client: FolioClient;
  /**
   * Delivers the run's events so far, then live ones, until `run_finished` or the returned function
   * is called. `onError` reports a subscription that can't continue (e.g. the run is unknown).
   */
  subscribeRun: (taskId: string, runId: string, listener: RunEventListener, onError?: (error: FolioError) => void) => () => void;
  /** Copies the user's files into the task's `source/` folder. */
  addFiles: (taskId: string, files: File[]) => Promise<FileEntry[]>;
  /** Copies the user's files into a library (a project's id or `personal`). */
  addLibraryFiles: (libraryId: string, files: File[]) => Promise<LibraryFile[]>;
  /** Imports a .pptx/.potx as a deck template (Settings → Templates). */
  importTemplate: (file: File) => Promise<TemplateSummary>;
  /** The raw bytes of a task file, for saving to disk. */
  downloadFile: (taskId: string, path: string) => Promise<Blob>;
  /** The raw bytes of a library file (its library: a project's id or `personal`), to show it. */
  downloadLibraryFile: (libraryId: string, path: string) => Promise<Blob>;
}
