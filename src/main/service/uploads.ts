// Files received over HTTP multipart, already on disk at temp paths: a task's sources and library
// files. In the team service they are checked against the upload and storage quotas and charged in
// the same step.
import { statSync } from 'node:fs';
import type { FileEntry } from '../../shared/contract';
import { FolioError } from '../../shared/errors';
import { storeIdOf } from '../library/files';
import { sha256File } from '../workspace/added-files';
import type { StorePort } from '../store/port';
import type { FolioCore } from './ports';
import { addFilesToLibrary, type ProjectDeps } from './projects-service';
import { addSourceFile } from './task-files';
import type { TeamCoreOptions } from './team-core';

export interface UploadDeps {
  store: StorePort;
  dataDir: string;
  library: Pick<ProjectDeps, 'indexer' | 'embedder'>;
  team?: TeamCoreOptions;
  /** Sources are extracted as soon as they arrive. */
  onSourcesAdded: (taskId: string, files: FileEntry[]) => void;
}

export function createUploads(deps: UploadDeps): Pick<FolioCore, 'addUploadedFiles' | 'addUploadedLibraryFiles' | 'uploadQuota'> {
  const { store, dataDir, team } = deps;
  const libraryDeps = { store, dataDir, ...deps.library };
  return {
    async addUploadedFiles(taskId, files) {
      if (!(await store.tasks.get(taskId))) throw new FolioError('not_found', `No task ${taskId}`);
      const bytes = files.reduce((sum, f) => sum + statSync(f.path).size, 0);
      // The bytes are charged before they are written, in one step with the quota check.
      const reservation = team ? await team.quotas.guard.reserveUpload(store.scope, bytes, taskId) : null;
      const out: FileEntry[] = [];
      try {
        for (const f of files) out.push(await addSourceFile(store, dataDir, taskId, f.path, f.name));
      } catch (err) {
        // The files copied before the failure stay (and stay counted); the rest is given back.
        await reservation?.settle(out.reduce((sum, f) => sum + f.size, 0));
        throw err;
      }
      if (team) await team.quotas.ledger.record(store.scope, { kind: 'upload', task_id: taskId, bytes });
      deps.onSourcesAdded(taskId, out);
      return out;
    },
    ...(team
      ? {
          uploadQuota: {
            allowance: () => team.quotas.guard.uploadAllowance(store.scope),
            async refuse(seen: number): Promise<never> {
              await team.quotas.guard.beforeUpload(store.scope, seen);
              // Unreachable while `seen` is past the allowance; a quota raised meanwhile still stops here.
              throw new FolioError('quota_exceeded', `This upload passed the tenant's allowance at ${seen} bytes.`);
            },
          },
        }
      : {}),
    async addUploadedLibraryFiles(library, files) {
      if (!team) return addFilesToLibrary(libraryDeps, library, files);
      // As a task's uploads: checked against the upload and storage quotas and charged in one step.
      // A file the library already has (the same bytes) is not stored again, so it counts for
      // nothing. Each file is hashed once here; the hash goes on to addLibraryFile.
      const hashed = [];
      let incoming = 0;
      for (const f of files) {
        const sha256 = await sha256File(f.path);
        if (!(await store.library.findBySha(storeIdOf(library), sha256))) incoming += statSync(f.path).size;
        hashed.push({ ...f, sha256 });
      }
      const reservation = await team.quotas.guard.reserveUpload(store.scope, incoming);
      // What was stored settles the reservation, also after a failure: a copy of bytes the library
      // got meanwhile (or twice in this upload) stores nothing, and gives its bytes back.
      let storedBytes = 0;
      let added;
      try {
        added = await addFilesToLibrary(libraryDeps, library, hashed, (bytes) => (storedBytes += bytes));
      } finally {
        await reservation.settle(storedBytes);
      }
      if (storedBytes > 0) await team.quotas.ledger.record(store.scope, { kind: 'upload', bytes: storedBytes });
      return added;
    },
  };
}
