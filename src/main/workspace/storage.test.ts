import { mkdtempSync, rmSync, symlinkSync, writeFileSync, existsSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { taskDir as layoutTaskDir } from './layout';
import { createDesktopStorage, createLocalDiskStorage } from './storage';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'folio-storage-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const acme = { tenant_id: 'acme', user_id: 'alice' };
const globex = { tenant_id: 'globex', user_id: 'carol' };

describe('local disk storage', () => {
  it('puts each tenant’s tasks under <root>/tenants/<tenant>/tasks/<task>/ with the usual subfolders', async () => {
    const storage = createLocalDiskStorage(root);
    expect(storage.taskDir(acme, 't1')).toBe(join(root, 'tenants', 'acme', 'tasks', 't1'));
    const dir = await storage.ensureTaskDir(acme, 't1');
    expect(readdirSync(dir).sort()).toEqual(['artifacts', 'source', 'work']);
    await storage.removeTaskDir(acme, 't1');
    expect(existsSync(dir)).toBe(false);
    await storage.removeTaskDir(acme, 't1');
  });

  it('refuses ids that could leave their folder', () => {
    const storage = createLocalDiskStorage(root);
    for (const bad of ['..', '.', '../globex', 'a/b', 'a\\b', '', 'x'.repeat(65), 'a\0b']) {
      expect(() => storage.taskDir(acme, bad), bad).toThrow(expect.objectContaining({ code: 'path_escape' }));
      expect(() => storage.taskDir({ tenant_id: bad }, 't1'), bad).toThrow(expect.objectContaining({ code: 'path_escape' }));
    }
    expect(() => createLocalDiskStorage('relative/root')).toThrow('absolute');
  });

  it('counts each tenant’s bytes separately, links as links', async () => {
    const storage = createLocalDiskStorage(root);
    expect(await storage.usedBytes(acme)).toBe(0);
    const a = await storage.ensureTaskDir(acme, 't1');
    const b = await storage.ensureTaskDir(globex, 't2');
    writeFileSync(join(a, 'source', 'x.txt'), Buffer.alloc(1000));
    writeFileSync(join(a, 'work', 'y.txt'), Buffer.alloc(24));
    writeFileSync(join(b, 'work', 'big.bin'), Buffer.alloc(50_000));
    symlinkSync(join(b, 'work', 'big.bin'), join(a, 'work', 'link'));
    const acmeBytes = await storage.usedBytes(acme);
    expect(acmeBytes).toBeGreaterThanOrEqual(1024);
    expect(acmeBytes).toBeLessThan(1024 + 1000);
    expect(await storage.usedBytes(globex)).toBe(50_000);
  });
});

describe('desktop storage', () => {
  it('maps the local tenant to today’s layout and refuses any other tenant', async () => {
    const storage = createDesktopStorage(root);
    const local = { tenant_id: 'local', user_id: 'local' };
    expect(storage.taskDir(local, 't1')).toBe(layoutTaskDir(root, 't1'));
    const dir = await storage.ensureTaskDir(local, 't1');
    writeFileSync(join(dir, 'work', 'n.txt'), 'hello');
    expect(await storage.usedBytes(local)).toBe(5);
    expect(() => storage.taskDir(acme, 't1')).toThrow(expect.objectContaining({ code: 'path_escape' }));
    expect(() => storage.taskDir(local, '../x')).toThrow(expect.objectContaining({ code: 'path_escape' }));
  });
});
