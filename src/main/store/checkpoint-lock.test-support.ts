// Holds SQLite's WAL checkpoint lock from another process, as a second Folio or a backup tool
// does while it checkpoints. SQLite's unix VFS takes that lock as an fcntl write lock on one byte of
// the `-shm` file (https://sqlite.org/walformat.html: byte 120 + 1); Node has no fcntl locks, and
// Python's standard library does, so the holder is a python3 process.
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';

const CHECKPOINT_LOCK_BYTE = 121;

export const hasPython3 = spawnSync('python3', ['-c', 'import fcntl'], { stdio: 'ignore' }).status === 0;

const HOLDER = [
  'import fcntl, sys',
  'f = open(sys.argv[1], "r+b")',
  `fcntl.lockf(f, fcntl.LOCK_EX | fcntl.LOCK_NB, 1, ${CHECKPOINT_LOCK_BYTE})`,
  'print("held", flush=True)',
  'sys.stdin.read()',
].join('\n');

/** Takes the lock of the database at dbPath (its `-shm` must exist); resolves to a release. */
export async function holdCheckpointLock(dbPath: string): Promise<() => Promise<void>> {
  const child = spawn('python3', ['-c', HOLDER, `${dbPath}-shm`], { stdio: ['pipe', 'pipe', 'inherit'] });
  const [chunk] = (await once(child.stdout, 'data')) as [Buffer];
  if (!chunk.toString().startsWith('held')) throw new Error(`the lock holder said: ${chunk.toString()}`);
  return async () => {
    const exited = once(child, 'exit');
    child.stdin.end();
    await exited;
  };
}
