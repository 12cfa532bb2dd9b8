// How much a checkpoint would copy, read without taking any lock: SQLite keeps the WAL's index in
// the `-shm` file beside the database, and its header (https://sqlite.org/walformat.html, "The
// WAL-Index Header") holds the last valid frame (mxFrame) and how many frames were already copied
// back (nBackfill). Both are written in the machine's byte order. A torn read only misjudges one
// timer tick's choice of thread; the checkpoint itself is SQLite's.
import { closeSync, openSync, readSync } from 'node:fs';
import { endianness } from 'node:os';

const HEADER_BYTES = 136;
const MX_FRAME = 16;
const PAGE_SIZE = 14;
const N_BACKFILL = 96;

export interface WalBacklog {
  /** Frames in the WAL not yet copied into the database. */
  frames: number;
  /** Database page size: each frame holds one page. */
  pageSize: number;
}

/** The WAL's backlog, or null when the index cannot be read (no WAL yet, another journal mode). */
export function readWalBacklog(dbPath: string): WalBacklog | null {
  let fd: number;
  try {
    fd = openSync(`${dbPath}-shm`, 'r');
  } catch {
    return null;
  }
  try {
    const header = Buffer.alloc(HEADER_BYTES);
    if (readSync(fd, header, 0, HEADER_BYTES, 0) < HEADER_BYTES) return null;
    const little = endianness() === 'LE';
    const u32 = (at: number) => (little ? header.readUInt32LE(at) : header.readUInt32BE(at));
    const size = little ? header.readUInt16LE(PAGE_SIZE) : header.readUInt16BE(PAGE_SIZE);
    const mxFrame = u32(MX_FRAME);
    const backfilled = u32(N_BACKFILL);
    // After a checkpoint the WAL restarts from its first frame, so a backfill count past the end is an old one.
    return { frames: backfilled <= mxFrame ? mxFrame - backfilled : mxFrame, pageSize: size === 1 ? 65_536 : size };
  } finally {
    closeSync(fd);
  }
}
