// What the transports (IPC, HTTP) need from the core: the contract's handlers, run-event
// subscription with replay, and a way to hand over uploaded files.
import type { FileEntry, RunEvent, ServiceHandlers } from '../../shared/contract';

export interface RunEventHub {
  /**
   * Delivers every event of the run with seq > afterSeq (default: all so far), synchronously,
   * then live ones until the run ends or the returned function is called.
   * Throws NotFoundError for an unknown run.
   */
  subscribe(taskId: string, runId: string, listener: (event: RunEvent) => void, afterSeq?: number): () => void;
}

export interface FolioCore {
  handlers: ServiceHandlers;
  events: RunEventHub;
  /** Files received over HTTP multipart, already on disk at temp paths; copied into `source/`. */
  addUploadedFiles(taskId: string, files: { name: string; path: string }[]): Promise<FileEntry[]>;
  dataDir: string;
  close(): Promise<void>;
}
