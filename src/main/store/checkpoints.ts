// WAL checkpoints off the write path. SQLite's automatic checkpoint runs inside the commit that
// crosses 1,000 WAL pages, so with tool results of a few kB every ~100th message append paid a
// 10-20 ms copy of the WAL into the database. Here the commit only appends to the WAL, and a timer
// copies it back between writes. A PASSIVE checkpoint never waits for readers or writers, and one
// with nothing new to copy costs microseconds. A crash loses nothing: the WAL is replayed on open,
// and closing the last connection checkpoints it.
import type Database from 'better-sqlite3';

export const CHECKPOINT_INTERVAL_MS = 1_000;
/** The WAL file is truncated back to this size after a checkpoint (SQLite keeps it at its peak otherwise). */
const WAL_SIZE_LIMIT_BYTES = 16 * 1024 * 1024;

export interface Checkpointer {
  /** Copies the WAL into the database now (what the timer does). Returns the frames still in the WAL after it. */
  checkpoint(): number;
  stop(): void;
}

export function startCheckpoints(db: Database.Database, intervalMs = CHECKPOINT_INTERVAL_MS): Checkpointer {
  db.pragma('wal_autocheckpoint = 0');
  db.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT_BYTES}`);
  const checkpoint = (): number => {
    if (!db.open) return 0;
    const [result] = db.pragma('wal_checkpoint(PASSIVE)') as { busy: number; log: number; checkpointed: number }[];
    return result.log - result.checkpointed;
  };
  const timer = setInterval(() => {
    try {
      checkpoint();
    } catch {
      // A busy or closing database: the next tick (or closing) checkpoints instead.
    }
  }, intervalMs);
  timer.unref();
  return {
    checkpoint,
    stop: () => clearInterval(timer),
  };
}
