// What the transports (IPC, HTTP) need from the core: the contract's handlers, run-event
// subscription with replay, and a way to hand over uploaded files.
import type { FileEntry, ServiceHandlers } from '../../shared/contract';
import type { TemplateSummary } from '../../shared/specs/templates';
import type { LibraryFile, LibraryId } from '../../shared/contract/projects';
import type { RunEventHub } from '../runs/event-hub';

export type { RunEventHub };

export interface FolioCore {
  handlers: ServiceHandlers;
  events: RunEventHub;
  /** Files received over HTTP multipart, already on disk at temp paths; copied into `source/`. */
  addUploadedFiles(taskId: string, files: { name: string; path: string }[]): Promise<FileEntry[]>;
  /** A template received over HTTP multipart, on disk at a temp path; imported into `<data>/templates`. */
  importUploadedTemplate(file: { name: string; path: string }): Promise<TemplateSummary>;
  /** Files received over HTTP multipart (`POST /v1/projects/:id/files`), at temp paths; copied into the library. */
  addUploadedLibraryFiles(library: LibraryId, files: { name: string; path: string }[]): Promise<LibraryFile[]>;
  /**
   * The team service's upload and storage quotas, so an upload stops being read at the tenant's
   * allowance instead of after up to the server's size limit: `allowance()` is the bytes left
   * (null: unlimited), `refuse(seen)` throws the quota's message for an upload of `seen` bytes.
   */
  uploadQuota?: { allowance(): Promise<number | null>; refuse(seen: number): Promise<never> };
  dataDir: string;
  /**
   * A new private folder for one multipart request's files, in the data folder's scratch folder
   * (the tenant's own in the team service), where the next start removes whatever a killed process
   * left. The transport removes it when the request is done.
   */
  makeUploadDir(): Promise<string>;
  close(): Promise<void>;
}
