// Shared set-up for the store's tests: a fresh temp folder per test, removed afterwards.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export function makeTempDir(): { dir: string; dbPath: string; cleanup: () => void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-store-'));
  return { dir, dbPath: path.join(dir, 'folio.db'), cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
}
