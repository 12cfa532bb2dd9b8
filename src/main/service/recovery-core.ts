// When folio.db is damaged the app still starts, in recovery: `getHealth` says what is wrong,
// `restoreBackup` puts the newest sound backup in place (the damaged file is kept beside it) and the
// real core takes over; until then every other method fails with the same `database_corrupt` error,
// so the UI can show one recovery screen instead of errors everywhere.
import { join } from 'node:path';
import { methodNames, type MethodName, type ServiceHandlers } from '../../shared/contract/methods';
import { NotFoundError } from '../../shared/errors';
import { DatabaseCorruptError, listBackups, restoreNewestBackup } from '../store';
import { createCore, type CoreOptions } from './create-core';
import type { FolioCore } from './ports';

export interface RecoverableCore extends FolioCore {
  /** The damage found at start, until a restore succeeds. */
  corruption(): DatabaseCorruptError | null;
}

type AnyHandler = (input: unknown) => Promise<unknown>;

export async function createRecoverableCore(opts: CoreOptions, build: (opts: CoreOptions) => Promise<FolioCore> = createCore): Promise<RecoverableCore> {
  const dbPath = join(opts.dataDir, 'folio.db');
  let current: FolioCore | null = null;
  let corrupt: DatabaseCorruptError | null = null;
  try {
    current = await build(opts);
  } catch (err) {
    if (!(err instanceof DatabaseCorruptError)) throw err;
    corrupt = err;
  }
  const live = (): FolioCore => {
    if (current) return current;
    throw corrupt ?? new Error('recovery core without a core or a cause');
  };

  const recovery: Partial<Record<MethodName, AnyHandler>> = {
    async getHealth() {
      if (current || !corrupt) return live().handlers.getHealth({});
      return { database: 'corrupt', message: corrupt.message, backup_at: listBackups(dbPath)[0]?.created_at ?? null };
    },
    async restoreBackup() {
      if (current) return live().handlers.restoreBackup({});
      const result = restoreNewestBackup(dbPath, Date.now());
      if (result === null) throw new NotFoundError('No sound backup of the database was found in the backups folder.');
      // Opened like at start; if the restored copy were somehow unusable, that error is reported and
      // the app stays in recovery.
      current = await build(opts);
      corrupt = null;
      return { restored_from: result.restored.created_at, corrupt_copy: result.corruptCopy };
    },
  };
  const handlers = Object.fromEntries(
    methodNames.map((name) => {
      const own = recovery[name];
      const handler: AnyHandler = async (input) => (own ? own(input) : (live().handlers[name] as AnyHandler)(input));
      return [name, handler];
    }),
  ) as unknown as ServiceHandlers;

  return {
    handlers,
    events: { subscribe: (...args) => live().events.subscribe(...args) },
    addUploadedFiles: (taskId, files) => live().addUploadedFiles(taskId, files),
    importUploadedTemplate: (file) => live().importUploadedTemplate(file),
    addUploadedLibraryFiles: (library, files) => live().addUploadedLibraryFiles(library, files),
    dataDir: opts.dataDir,
    makeUploadDir: () => live().makeUploadDir(),
    corruption: () => corrupt,
    close: () => current?.close() ?? Promise.resolve(),
  };
}
