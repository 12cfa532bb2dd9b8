import fs from 'node:fs';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { hasPython3, holdCheckpointLock } from './checkpoint-lock.test-support';
import { CHECKPOINT_INTERVAL_MS, MAIN_THREAD_MAX_FRAMES, startCheckpoints } from './checkpoints';
import { openStore, type Store } from './index';
import { makeTempDir } from './test-helpers';
import { readWalBacklog } from './wal-index';

let temp: ReturnType<typeof makeTempDir>;
let store: Store | undefined;

beforeEach(() => {
  temp = makeTempDir();
});

afterEach(() => {
  store?.close();
  store = undefined;
  vi.useRealTimers();
  temp.cleanup();
});

/** Appends `count` tool results of ~4 kB each (1,500: ~6 MB, past SQLite's automatic checkpoint at 1,000 pages). */
function writeMuch(s: Store, count = 1_500, from = 0): void {
  if (from === 0) s.tasks.create({ id: 't1', mode: 'general', title: 'long', description: '', model: null });
  const result = '工具结果 tool result '.repeat(200);
  for (let i = from; i < from + count; i++) s.messages.append({ id: `m${i}`, task_id: 't1', run_id: null, role: 'tool', content: result });
}

describe('WAL checkpoints', () => {
  it('leave commits alone and copy the WAL into the database on the timer', async () => {
    vi.useFakeTimers();
    store = openStore(temp.dbPath);
    const sizeBefore = fs.statSync(temp.dbPath).size;
    writeMuch(store);
    // No commit checkpointed: the database file is as it was, everything is in the WAL ...
    expect(fs.statSync(temp.dbPath).size).toBe(sizeBefore);
    expect(fs.statSync(`${temp.dbPath}-wal`).size).toBeGreaterThan(4_000_000);

    vi.advanceTimersByTime(CHECKPOINT_INTERVAL_MS);
    vi.useRealTimers();
    // ... until the timer's tick (here, by a worker thread: the backlog is large) copied it over.
    await vi.waitFor(() => expect(readWalBacklog(temp.dbPath)?.frames).toBe(0), { timeout: 20_000 });
    expect(fs.statSync(temp.dbPath).size).toBeGreaterThan(4_000_000);
  });

  it('copy a small backlog on this thread and a large one in a worker, losing no row', async () => {
    // The store's own 1 s timer is parked on a fake clock: on a loaded machine writing 1,500 rows takes
    // longer than that, and its checkpoint would race this test's and leave the WAL half copied.
    vi.useFakeTimers();
    store = openStore(temp.dbPath);
    vi.useRealTimers();
    const checkpoints = startCheckpoints(store.db, 3_600_000);
    try {
      await checkpoints.tick(); // what the schema's creation left in the WAL
      expect(await checkpoints.tick()).toBe('none');
      writeMuch(store, 20);
      const small = readWalBacklog(temp.dbPath);
      expect(small?.frames).toBeGreaterThan(0);
      expect(small?.frames).toBeLessThanOrEqual(MAIN_THREAD_MAX_FRAMES);
      expect(await checkpoints.tick()).toBe('here');
      expect(readWalBacklog(temp.dbPath)?.frames).toBe(0);

      writeMuch(store, 1_500, 20);
      expect(readWalBacklog(temp.dbPath)?.frames).toBeGreaterThan(MAIN_THREAD_MAX_FRAMES);
      expect(await checkpoints.tick()).toBe('worker');
      expect(readWalBacklog(temp.dbPath)?.frames).toBe(0);
      expect(await checkpoints.tick()).toBe('none');
      expect(store.db.prepare('SELECT COUNT(*) AS n FROM messages').get()).toEqual({ n: 1_520 });
    } finally {
      checkpoints.stop();
    }
    // Another connection reads everything from the database file alone.
    store.close();
    store = undefined;
    const reader = new Database(temp.dbPath, { readonly: true });
    expect(reader.prepare('SELECT COUNT(*) AS n FROM messages').get()).toEqual({ n: 1_520 });
    reader.close();
  });

  it.skipIf(!hasPython3)('say busy, copying nothing, while another process checkpoints, and copy at the next tick (needs python3 to hold the lock)', async () => {
    vi.useFakeTimers();
    store = openStore(temp.dbPath);
    vi.useRealTimers();
    const checkpoints = startCheckpoints(store.db, 3_600_000);
    try {
      await checkpoints.tick();
      writeMuch(store, 20);
      const small = readWalBacklog(temp.dbPath)?.frames ?? 0;
      expect(small).toBeGreaterThan(0);
      let release = await holdCheckpointLock(temp.dbPath);
      expect(checkpoints.checkpoint()).toEqual({ status: 'busy' });
      expect(await checkpoints.tick()).toBe('busy');
      expect(readWalBacklog(temp.dbPath)?.frames).toBe(small);
      await release();
      expect(await checkpoints.tick()).toBe('here');
      expect(readWalBacklog(temp.dbPath)?.frames).toBe(0);

      writeMuch(store, 1_500, 20);
      const large = readWalBacklog(temp.dbPath)?.frames ?? 0;
      expect(large).toBeGreaterThan(MAIN_THREAD_MAX_FRAMES);
      release = await holdCheckpointLock(temp.dbPath);
      expect(await checkpoints.tick()).toBe('busy');
      expect(readWalBacklog(temp.dbPath)?.frames).toBe(large);
      await release();
      expect(await checkpoints.tick()).toBe('worker');
      expect(readWalBacklog(temp.dbPath)?.frames).toBe(0);
      expect(checkpoints.checkpoint()).toEqual({ status: 'copied', remainingFrames: 0 });
    } finally {
      checkpoints.stop();
    }
  });

  it('read the backlog SQLite itself reports', () => {
    store = openStore(temp.dbPath);
    writeMuch(store, 300);
    const backlog = readWalBacklog(temp.dbPath);
    const [result] = store.db.pragma('wal_checkpoint(PASSIVE)') as { log: number; checkpointed: number }[];
    expect(backlog).toEqual({ frames: result?.log, pageSize: store.db.pragma('page_size', { simple: true }) });
    expect(readWalBacklog(`${temp.dbPath}.absent`)).toBeNull();
  });

  it('lose nothing committed when the process dies before a checkpoint', () => {
    store = openStore(temp.dbPath);
    writeMuch(store);
    // Another connection (as after a crash and restart) reads every message from the WAL.
    const reader = new Database(temp.dbPath, { readonly: true });
    expect(reader.prepare('SELECT COUNT(*) AS n FROM messages').get()).toEqual({ n: 1_500 });
    reader.close();
  });

  it('stop when the store closes, which checkpoints the WAL itself', () => {
    vi.useFakeTimers();
    store = openStore(temp.dbPath);
    writeMuch(store);
    store.close();
    store = undefined;
    expect(vi.getTimerCount()).toBe(0);
    expect(fs.statSync(temp.dbPath).size).toBeGreaterThan(4_000_000);
  });
});
