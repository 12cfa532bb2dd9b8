// WAL checkpoints off the write path. SQLite's automatic checkpoint runs inside the commit that
// crosses 1,000 WAL pages, so with tool results of a few kB every ~100th message append paid a
// 10-20 ms copy of the WAL into the database. Here the commit only appends to the WAL, and a timer
// copies it back between writes. A PASSIVE checkpoint never waits for readers or writers. A crash
// loses nothing: the WAL is replayed on open, and closing the last connection checkpoints it.
//
// The copy costs ~13 µs a frame on this kind of machine, all of it on the calling thread. After a
// burst of writes (a library file indexed, thousands of messages imported) that was a 100-150 ms
// stall of the main thread, which serves the UI and every /v1 request. So each tick first reads
// the backlog from the WAL index (no lock, no SQL): nothing to copy costs nothing, a small backlog
// is copied here, and a large one by a worker thread with a connection of its own, started when
// first needed and ended after a quiet spell, so an idle app keeps no thread for it.
//
// Another connection checkpointing at the same moment (another Folio process on the same data
// folder, a backup tool) makes SQLite answer "busy" without copying anything. The tick says so
// and the next tick tries again, as after any busy or closing database; closing checkpoints too.
import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';
import { moduleWorkerEntry } from '../workers/entry';
import { type CheckpointAnswer, type CheckpointJob } from './checkpoint-worker';
import { type CheckpointOutcome, passiveCheckpoint } from './wal-checkpoint';
import { readWalBacklog } from './wal-index';

export const CHECKPOINT_INTERVAL_MS = 1_000;
/** The WAL file is truncated back to this size after a checkpoint (SQLite keeps it at its peak otherwise). */
const WAL_SIZE_LIMIT_BYTES = 16 * 1024 * 1024;
/** A backlog up to this many frames (~4 MB of 4 kB pages, ~15 ms) is copied on the calling thread. */
export const MAIN_THREAD_MAX_FRAMES = 1_000;
const WORKER_IDLE_MS = 15_000;

/** Where a tick's copy ran; `busy`: another connection was checkpointing, nothing was copied. */
export type CheckpointPlace = 'none' | 'here' | 'worker' | 'busy';

export interface Checkpointer {
  /** Copies the WAL into the database now, here (what closing needs). */
  checkpoint(): CheckpointOutcome;
  /** One timer tick: where its copy ran; a worker's copy resolves when it is done. */
  tick(): Promise<CheckpointPlace>;
  stop(): void;
}

export function startCheckpoints(db: Database.Database, intervalMs = CHECKPOINT_INTERVAL_MS): Checkpointer {
  db.pragma('wal_autocheckpoint = 0');
  db.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT_BYTES}`);
  const checkpoint = (): CheckpointOutcome => (db.open ? passiveCheckpoint(db) : { status: 'copied', remainingFrames: 0 });
  const helper = new CheckpointHelper({ dbPath: db.name, walSizeLimitBytes: WAL_SIZE_LIMIT_BYTES });

  const tick = async (): Promise<CheckpointPlace> => {
    if (!db.open || db.memory) return 'none';
    const backlog = readWalBacklog(db.name);
    if (backlog !== null && backlog.frames === 0) return 'none';
    if (backlog !== null && backlog.frames > MAIN_THREAD_MAX_FRAMES) {
      const answer = await helper.checkpoint();
      if (answer?.status === 'copied') return 'worker';
      // Here it would be busy too, or copy the large backlog on this thread when the other one ends.
      if (answer?.status === 'busy') return 'busy';
    }
    return checkpoint().status === 'busy' ? 'busy' : 'here';
  };
  let ticking = false;
  const timer = setInterval(() => {
    if (ticking) return;
    ticking = true;
    tick()
      .catch(() => {
        // A closing database or a failed read: the next tick (or closing) checkpoints instead.
      })
      .finally(() => (ticking = false));
  }, intervalMs);
  timer.unref();
  return {
    checkpoint,
    tick,
    stop: () => {
      clearInterval(timer);
      helper.stop();
    },
  };
}

/** The worker thread that copies large backlogs; null or `failed` from checkpoint() means "do it yourself". */
class CheckpointHelper {
  private worker: Worker | null = null;
  private idleTimer: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(private readonly job: CheckpointJob) {}

  async checkpoint(): Promise<CheckpointAnswer | null> {
    const worker = this.start();
    if (!worker) return null;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    const answer = await new Promise<CheckpointAnswer | null>((resolve) => {
      const onMessage = (message: CheckpointAnswer) => done(message);
      const onExit = () => done(null);
      const done = (message: CheckpointAnswer | null) => {
        worker.off('message', onMessage);
        worker.off('exit', onExit);
        resolve(message);
      };
      worker.on('message', onMessage);
      worker.on('exit', onExit);
      worker.postMessage(this.job);
    });
    if (this.worker === worker) {
      this.idleTimer = setTimeout(() => this.end(), WORKER_IDLE_MS);
      this.idleTimer.unref();
    }
    return answer;
  }

  stop(): void {
    this.stopped = true;
    this.end();
  }

  private start(): Worker | null {
    if (this.stopped) return null;
    if (this.worker) return this.worker;
    const entry = moduleWorkerEntry('checkpoint-worker', import.meta.url);
    if (!entry) return null;
    try {
      const worker = new Worker(entry.script, { eval: entry.eval ?? false, workerData: entry.workerData, execArgv: entry.execArgv, resourceLimits: { maxOldGenerationSizeMb: 32 } });
      worker.unref();
      // A failed thread is replaced at the next large backlog; meanwhile ticks copy here.
      worker.on('error', () => undefined);
      worker.on('exit', () => {
        if (this.worker === worker) this.worker = null;
      });
      this.worker = worker;
      return worker;
    } catch {
      return null;
    }
  }

  private end(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    const worker = this.worker;
    this.worker = null;
    void worker?.terminate();
  }
}
