// `folio serve --multi-tenant` as an operator runs it: a child process on the TypeScript entry,
// configured from the environment, logging JSON lines, drained by SIGTERM.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { SignJWT } from 'jose';
import { afterAll, describe, expect, it } from 'vitest';
import { findResourcesDir } from '../config/app-paths';
import { JWT_SECRET, PLATFORM_KEY } from './team-config.test-support';

const root = findResourcesDir();
const entry = join(root, 'src/main/cli/main.ts');
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('folio serve --multi-tenant', () => {
  it('refuses to start without a platform key, naming the setting', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', entry, 'serve', '--multi-tenant', '--jwt-secret', JWT_SECRET], {
      cwd: root, encoding: 'utf8', timeout: 60_000, env: { ...process.env, FOLIO_PLATFORM_KEY: '' },
    });
    expect(run.status).toBe(3);
    expect(run.stderr).toContain('platform key');
    expect(run.stdout + run.stderr).not.toContain(JWT_SECRET);
  });

  it('starts with a JSON line, serves a tenant, and drains on SIGTERM', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'folio-serve-team-'));
    dirs.push(dataDir);
    const child = spawn(process.execPath, ['--import', 'tsx', entry, 'serve', '--multi-tenant', '--host', '127.0.0.1', '--port', '0', '--storage-root', dataDir], {
      cwd: root,
      env: { ...process.env, FOLIO_DATA_DIR: dataDir, FOLIO_PLATFORM_KEY: PLATFORM_KEY, FOLIO_JWT_SECRET: JWT_SECRET, FOLIO_SHUTDOWN_GRACE_MS: '2000' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const lines: Record<string, unknown>[] = [];
    const raw: string[] = [];
    let onLine: (() => void) | null = null;
    createInterface({ input: child.stdout }).on('line', (line) => {
      raw.push(line);
      lines.push(JSON.parse(line) as Record<string, unknown>);
      onLine?.();
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const waitFor = async (pred: (l: Record<string, unknown>) => boolean) => {
      while (!lines.some(pred)) await new Promise<void>((resolve) => (onLine = resolve));
      return lines.find(pred)!;
    };
    try {
      const start = await waitFor((l) => l.msg === 'folio service listening');
      expect(start.level).toBe('info');
      const url = `http://127.0.0.1:${String(start.port)}`;
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
      expect((await fetch(`${url}/readyz`)).status).toBe(200);
      const jwt = await new SignJWT({ tenant_id: 'acme' }).setProtectedHeader({ alg: 'HS256' }).setSubject('alice').setExpirationTime('5m').sign(new TextEncoder().encode(JWT_SECRET));
      const res = await fetch(`${url}/v1/tasks`, { headers: { authorization: `Bearer ${PLATFORM_KEY}`, 'x-folio-user': jwt, 'x-request-id': 'cli-1' } });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ tasks: [] });
      expect(await waitFor((l) => l.request_id === 'cli-1')).toMatchObject({ tenant: 'acme', user: 'alice', route: '/v1/tasks', status: 200 });
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(lines.map((l) => l.msg)).toContain('stopped');
      const all = raw.join('\n');
      expect(all).not.toContain(PLATFORM_KEY);
      expect(all).not.toContain(JWT_SECRET);
      expect(all).not.toContain(jwt);
    } finally {
      child.kill('SIGKILL');
    }
  }, 60_000);
});
