// The data folder's owner keeps it to the person alone: keys, the database and every task live there.
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openCoreStore } from './core-store';
import { scratchDir } from '../workspace/scratch';
import { leftoverOfKilledProcess } from '../workspace/scratch.test-support';

describe.skipIf(process.platform === 'win32')('the data folder', () => {
  it('is 0700 once a process owns it, and folio.db is 0600', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'folio-core-store-'));
    chmodSync(dataDir, 0o755);
    try {
      const core = await openCoreStore({ dataDir, shared: false });
      try {
        expect(statSync(dataDir).mode & 0o777).toBe(0o700);
        expect(statSync(join(dataDir, 'folio.db')).mode & 0o777).toBe(0o600);
      } finally {
        await core.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe.skipIf(process.platform === 'win32')('temporary folders', () => {
  it('a partial upload left by a killed process is removed at the next start', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'folio-core-store-'));
    try {
      const leftover = await leftoverOfKilledProcess(dataDir);
      expect(existsSync(join(leftover, '0'))).toBe(true);
      const core = await openCoreStore({ dataDir, shared: false });
      try {
        expect(existsSync(leftover)).toBe(false);
        expect(readdirSync(scratchDir(dataDir))).toEqual([]);
      } finally {
        await core.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 20_000);
});
