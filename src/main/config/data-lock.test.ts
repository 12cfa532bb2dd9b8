import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { acquireDataLock } from './data-lock';
import { createCore } from '../service/create-core';
import { findResourcesDir } from './app-paths';

describe('data folder lock', () => {
  it('is taken, released, and taken over from a process that is gone', () => {
    const dir = mkdtempSync(join(tmpdir(), 'folio-lock-'));
    const lock = acquireDataLock(dir);
    expect(lock.owned).toBe(true);
    expect(readFileSync(join(dir, 'folio.lock'), 'utf8')).toBe(String(process.pid));
    lock.release();
    expect(existsSync(join(dir, 'folio.lock'))).toBe(false);
    writeFileSync(join(dir, 'folio.lock'), '999999999');
    expect(acquireDataLock(dir).owned).toBe(true);
  });

  it('refuses a second owner while the first process lives; a non-exclusive core skips the start-up clean-up', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'folio-lock-'));
    const other = spawn('sleep', ['30']);
    try {
      writeFileSync(join(dir, 'folio.lock'), String(other.pid));
      expect(acquireDataLock(dir)).toMatchObject({ owned: false, holder: other.pid });
      await expect(createCore({ dataDir: dir, resourcesDir: findResourcesDir() })).rejects.toThrow(/already running/);
      const reader = await createCore({ dataDir: dir, resourcesDir: findResourcesDir(), exclusive: false });
      const created = await reader.handlers.createTask({ mode: 'general' });
      await reader.close();
      // The owner's lock is untouched, and (no clean-up ran) nothing else was changed.
      expect(readFileSync(join(dir, 'folio.lock'), 'utf8')).toBe(String(other.pid));
      const again = await createCore({ dataDir: dir, resourcesDir: findResourcesDir(), exclusive: false });
      expect((await again.handlers.listTasks({})).tasks.map((t) => t.id)).toContain(created.id);
      await again.close();
    } finally {
      other.kill();
    }
  });
});
