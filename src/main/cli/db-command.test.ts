// A damaged database, seen from the command line: `folio serve` says what happened and how to
// restore, with a non-zero exit; `folio db restore` brings the backup back.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { damagedDataFolder, folio, root } from './folio-process.test-support';

describe('folio with a damaged database', () => {
  it('serve --recover starts web mode in recovery, offering the restore in the browser', async () => {
    const dataDir = await damagedDataFolder();
    const token = 'cli-recover-token-0123456789';
    const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'src/main/cli/main.ts'), 'serve', '--port', '0', '--recover'], {
      cwd: root,
      env: { ...process.env, LC_ALL: 'en_US.UTF-8', FOLIO_DATA_DIR: dataDir, FOLIO_TOKEN: token },
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
    const serve = folio(['serve', '--port', '0'], { FOLIO_DATA_DIR: dataDir });
    expect(serve.status, serve.stderr).toBe(4);
    expect(serve.stderr).toMatch(/is empty \(0 bytes\)/);
    expect(serve.stderr).toMatch(/To restore it: folio db restore/);

    const restore = folio(['db', 'restore'], { FOLIO_DATA_DIR: dataDir });
    expect(restore.status, restore.stderr).toBe(0);
    expect(restore.stdout).toMatch(/Restored the backup from \d{4}-/);
    expect(readdirSync(dataDir).some((n) => n.startsWith('folio.db.corrupt-'))).toBe(true);

    const tasks = folio(['tasks'], { FOLIO_DATA_DIR: dataDir });
    expect(tasks.status, tasks.stderr).toBe(0);
    expect(tasks.stdout).toMatch(/t_saved .*Saved task/);
    expect(existsSync(join(dataDir, 'folio.lock'))).toBe(false);
  });
});
