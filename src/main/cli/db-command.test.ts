// A damaged database, seen from the command line: `folio serve` says what happened and how to
// restore, with a non-zero exit; `folio db restore` brings the backup back.
import { spawn, spawnSync } from 'node:child_process';
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

async function damagedDataFolder(): Promise<string> {
  const dataDir = mkdtempSync(join(tmpdir(), 'folio-cli-db-'));
  const dbPath = join(dataDir, 'folio.db');
  const store = openStore(dbPath);
  store.tasks.create({ id: 't_saved', mode: 'general', title: 'Saved task', description: '', model: null });
  store.tasks.markMaterialized('t_saved');
  await store.backupIfDue();
  store.close();
  truncateSync(dbPath, 0);
  return dataDir;
}

describe('folio with a damaged database', () => {
  it('serve --recover starts web mode in recovery, offering the restore in the browser', async () => {
    const dataDir = await damagedDataFolder();
    const token = 'cli-recover-token-0123456789';
    const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'src/main/cli/main.ts'), 'serve', '--port', '0', '--recover'], {
      cwd: root,
      env: { ...process.env, FOLIO_DATA_DIR: dataDir, FOLIO_TOKEN: token },
    });
    try {
      let out = '';
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
          out += chunk;
          const match = /Folio web mode: (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
          if (match) resolve(match[1]);
        });
        child.once('exit', (code) => reject(new Error(`serve exited ${code}`)));
      });
      const health = (await (await fetch(`${url}/v1/health`, { headers: { authorization: `Bearer ${token}` } })).json()) as { database: string };
      expect(health.database).toBe('corrupt');
      const restored = await fetch(`${url}/v1/health/restore`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
      expect(restored.status).toBe(200);
      const task = (await (await fetch(`${url}/v1/tasks/t_saved`, { headers: { authorization: `Bearer ${token}` } })).json()) as { title: string };
      expect(task.title).toBe('Saved task');
    } finally {
      child.kill('SIGTERM');
    }
  });

  it('serve refuses with the restore command; db restore brings the data back', async () => {
    const dataDir = await damagedDataFolder();
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
