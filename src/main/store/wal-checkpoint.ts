// One PASSIVE checkpoint on a connection, read as what it did. SQLite answers a checkpoint it could
// not start, because another connection (a thread or process) holds the checkpoint lock, with
// busy = 1 and -1 for both counts; taken as counts that read "0 frames left", which is false.
import type Database from 'better-sqlite3';

export type CheckpointOutcome =
  /** Copied what no reader still needs: `remainingFrames` are the frames left in the WAL. */
  | { status: 'copied'; remainingFrames: number }
  /** Another connection was checkpointing: nothing was copied by this one; try again later. */
  | { status: 'busy' };

interface CheckpointRow {
  busy: number;
  log: number;
  checkpointed: number;
}

export function passiveCheckpoint(db: Database.Database): CheckpointOutcome {
  const [row] = db.pragma('wal_checkpoint(PASSIVE)') as CheckpointRow[];
  if (row === undefined || row.busy !== 0) return { status: 'busy' };
  return { status: 'copied', remainingFrames: Math.max(0, row.log - row.checkpointed) };
}
