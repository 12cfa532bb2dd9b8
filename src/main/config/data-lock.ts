// One Folio process owns a data folder at a time. The owner marks interrupted runs and purges
// unused tasks at start; a second process doing the same would mark the owner's live runs as
// interrupted (and Continue would run them twice). The lock is a file holding the owner's pid;
// a lock left by a process that no longer exists (killed) is taken over.
import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';

export interface DataLock {
  owned: boolean;
  /** The pid of the process holding the lock when it is not ours. */
  holder: number | null;
  release(): void;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function acquireDataLock(dataDir: string): DataLock {
  const file = join(dataDir, 'folio.lock');
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(file, 'wx', 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      let released = false;
      return {
        owned: true,
        holder: null,
        release() {
          if (released) return;
          released = true;
          try {
            if (readFileSync(file, 'utf8').trim() === String(process.pid)) unlinkSync(file);
          } catch {
            // already gone
          }
        },
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const holder = Number.parseInt(readFileSync(file, 'utf8').trim(), 10);
    if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && alive(holder)) {
      return { owned: false, holder, release() {} };
    }
    try {
      unlinkSync(file); // stale: its process is gone
    } catch {
      // someone else took it over first; try again
    }
  }
  return { owned: false, holder: null, release() {} };
}
