// The data folder's scratch folder: where uploads and renders are staged before they land. It sits
// under the data folder (0700) rather than the shared OS temp folder, so other users cannot read
// partial uploads, and whatever a killed process left there is removed at the next start.
import { chmodSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

export function scratchDir(dataDir: string): string {
  return join(dataDir, 'tmp');
}

/**
 * Creates the scratch folder (0700) and removes everything in it. Only the process that owns the
 * data folder may call it: another's uploads may be in flight.
 */
export function sweepScratch(dataDir: string): void {
  const dir = scratchDir(dataDir);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  for (const name of readdirSync(dir)) rmSync(join(dir, name), { recursive: true, force: true, maxRetries: 3 });
}
