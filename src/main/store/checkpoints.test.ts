import fs from 'node:fs';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CHECKPOINT_INTERVAL_MS } from './checkpoints';
import { openStore, type Store } from './index';
import { makeTempDir } from './test-helpers';

let temp: ReturnType<typeof makeTempDir>;
let store: Store | undefined;

beforeEach(() => {
  temp = makeTempDir();
  vi.useFakeTimers();
});

afterEach(() => {
  store?.close();
  store = undefined;
  vi.useRealTimers();
  temp.cleanup();
});

/** Appends ~6 MB of tool results: past SQLite's automatic checkpoint threshold (1,000 pages). */
function writeMuch(s: Store): void {
  s.tasks.create({ id: 't1', mode: 'general', title: 'long', description: '', model: null });
  const result = '工具结果 tool result '.repeat(200);
  for (let i = 0; i < 1_500; i++) s.messages.append({ id: `m${i}`, task_id: 't1', run_id: null, role: 'tool', content: result });
}

describe('WAL checkpoints', () => {
  it('leave commits alone and copy the WAL into the database on the timer', () => {
    store = openStore(temp.dbPath);
    const sizeBefore = fs.statSync(temp.dbPath).size;
    writeMuch(store);
    // No commit checkpointed: the database file is as it was, everything is in the WAL ...
    expect(fs.statSync(temp.dbPath).size).toBe(sizeBefore);
    expect(fs.statSync(`${temp.dbPath}-wal`).size).toBeGreaterThan(4_000_000);

    vi.advanceTimersByTime(CHECKPOINT_INTERVAL_MS);
    // ... until the timer copied it over.
    expect(fs.statSync(temp.dbPath).size).toBeGreaterThan(4_000_000);
    expect(store.db.pragma('wal_checkpoint(PASSIVE)')).toEqual([expect.objectContaining({ busy: 0 })]);
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
    store = openStore(temp.dbPath);
    writeMuch(store);
    store.close();
    store = undefined;
    expect(vi.getTimerCount()).toBe(0);
    expect(fs.statSync(temp.dbPath).size).toBeGreaterThan(4_000_000);
  });
});
