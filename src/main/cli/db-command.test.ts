// A damaged database, seen from the command line: `folio serve` says what happened and how to
// restore, with a non-zero exit; `folio db restore` brings the backup back.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findResourcesDir } from '../config/app-paths';
import { openStore } from '../store';

const root = findResourcesDir();
function folio(args: string[], dataDir: string) {
  return spawnSync(process.execPath, ['--import', 'tsx', join(root, 'src/main/cli/main.ts'), ...args], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, FOLIO_DATA_DIR: dataDir },
    timeout: 60_000,
  });
}

describe('folio with a damaged database', () => {
  it('serve refuses with the restore command; db restore brings the data back', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'folio-cli-db-'));
    const dbPath = join(dataDir, 'folio.db');
    const store = openStore(dbPath);
    store.tasks.create({ id: 't_saved', mode: 'general', title: 'Saved task', description: '', model: null });
    store.tasks.markMaterialized('t_saved');
    await store.backupIfDue();
    store.close();
    truncateSync(dbPath, 0);

    const serve = folio(['serve', '--port', '0'], dataDir);
    expect(serve.status, serve.stderr).toBe(4);
    expect(serve.stderr).toMatch(/is empty \(0 bytes\)/);
    expect(serve.stderr).toMatch(/To restore it: folio db restore/);

    const restore = folio(['db', 'restore'], dataDir);
    expect(restore.status, restore.stderr).toBe(0);
    expect(restore.stdout).toMatch(/Restored the backup from \d{4}-/);
    expect(readdirSync(dataDir).some((n) => n.startsWith('folio.db.corrupt-'))).toBe(true);

    const tasks = folio(['tasks'], dataDir);
    expect(tasks.status, tasks.stderr).toBe(0);
    expect(tasks.stdout).toMatch(/t_saved .*Saved task/);
    expect(existsSync(join(dataDir, 'folio.lock'))).toBe(false);
  });
});
