// Worker-thread entry: copies a large WAL back into the database on a connection of its own, so the
// main thread (the UI's IPC and every /v1 request) never waits on that I/O. See checkpoints.ts.
import Database from 'better-sqlite3';
import { parentPort } from 'node:worker_threads';
import { type CheckpointOutcome, passiveCheckpoint } from './wal-checkpoint';

export interface CheckpointJob {
  dbPath: string;
  walSizeLimitBytes: number;
}

/** What SQLite did, or why the thread could not ask it (the caller then checkpoints itself). */
export type CheckpointAnswer = CheckpointOutcome | { status: 'failed'; message: string };

parentPort?.on('message', (job: CheckpointJob) => {
  let answer: CheckpointAnswer;
  // A connection per job: nothing stays open for the store's close to wait on.
  let db: Database.Database | null = null;
  try {
    db = new Database(job.dbPath, { fileMustExist: true });
    // Per connection: the one that checkpoints is the one that truncates the WAL file afterwards.
    db.pragma(`journal_size_limit = ${job.walSizeLimitBytes}`);
    answer = passiveCheckpoint(db);
  } catch (err) {
    answer = { status: 'failed', message: err instanceof Error ? err.message : String(err) };
  } finally {
    db?.close();
  }
  parentPort?.postMessage(answer);
});
