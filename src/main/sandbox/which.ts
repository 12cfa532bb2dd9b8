// Finding a program on PATH, for the sandbox's own helpers (bwrap, prlimit) and the executors.
import fs from 'node:fs';
import path from 'node:path';

/** The executable `name` on PATH (or `name` itself when it is a path that exists), else null. */
export function findOnPath(name: string): string | null {
  if (name.includes('/')) return fs.existsSync(name) ? name : null;
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return candidate;
    } catch {
      // Not here.
    }
  }
  return null;
}
