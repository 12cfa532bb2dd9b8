import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cacheFileFor, loadCachedModule, moduleAsScript } from './pdfjs-code-cache';

const dirs: string[] = [];
function newDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'folio-code-cache-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A module shaped like pdfjs's bundles: a built-in import, import.meta.url, a dynamic import, one export list. */
const MODULE = [
  'import folioPath from "node:path";',
  'const here = import.meta.url;',
  'function twice(n) { return n * 2; }',
  'async function later(specifier) { return import(specifier); }',
  'const base = folioPath.basename("/a/b.txt");',
  'export { twice, here, base, later };',
  '',
].join('\n');

let loads = 0;
/** Each load under a name of its own: V8 keeps compiled scripts per isolate by text and name, and would answer from there. */
function load(dir: string, source = MODULE) {
  loads += 1;
  const loaded = loadCachedModule(`/tmp/module-${loads}.mjs`, source, dir, 'test-module');
  if (loaded === null) throw new Error('not converted');
  return loaded;
}

describe('pdfjs code cache', () => {
  it('runs an ES module of pdfjs’s shape as a script with the same exports', async () => {
    const { exports } = load(newDir());
    const mod = exports as { twice: (n: number) => number; here: string; base: string; later: (s: string) => Promise<{ sep: string }> };
    expect(mod.twice(21)).toBe(42);
    expect(mod.here).toMatch(/^file:\/\/\/tmp\/module-\d+\.mjs$/u);
    expect(mod.base).toBe('b.txt');
    expect((await mod.later('node:path')).sep).toBe('/');
  });

  it('converts only what it can run the same: other imports or exports leave the module as a module', () => {
    expect(moduleAsScript('import { x } from "./x.js";\nexport { x };\n')).toBeNull();
    expect(moduleAsScript('export default 1;\n')).toBeNull();
    expect(moduleAsScript('export { a as b };\n')).toBeNull();
    expect(moduleAsScript('const a = 1;\nexport { a };\nexport { a as c };\n')).toBeNull();
    expect(moduleAsScript('const a = 1;\n')).toBeNull();
  });

  it('stores the cache when asked, then a new load takes it from the file', () => {
    const dir = newDir();
    const first = load(dir);
    expect(first.fromCache).toBe(false);
    expect(readdirSync(dir)).toEqual([]);
    first.save();
    const files = readdirSync(dir);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^test-module-[0-9a-f]{24}\.v8cache$/u);
    const second = load(dir);
    expect(second.fromCache).toBe(true);
    expect((second.exports as { twice: (n: number) => number }).twice(2)).toBe(4);
  });

  it('makes the cache again when its bytes are damaged or V8 rejects them, and leaves no temporary file', () => {
    const dir = newDir();
    load(dir).save();
    const [name] = readdirSync(dir);
    const file = join(dir, name);
    const bytes = readFileSync(file);
    bytes[bytes.length - 1] ^= 0xff;
    writeFileSync(file, bytes);
    const damaged = load(dir);
    expect(damaged.fromCache).toBe(false);
    damaged.save();
    expect(load(dir).fromCache).toBe(true);

    // Intact bytes that are not V8's cache of this script: the checksum passes, V8 refuses them.
    const foreign = Buffer.from('not a code cache at all, but long enough to look like one'.repeat(4));
    writeFileSync(file, Buffer.concat([createHash('sha256').update(foreign).digest(), foreign]));
    const rejected = load(dir);
    expect(rejected.fromCache).toBe(false);
    rejected.save();
    expect(load(dir).fromCache).toBe(true);
    expect(readdirSync(dir)).toEqual([name]);
  });

  it('keys the cache by the module text, and a new cache replaces the caches of other texts', () => {
    const dir = newDir();
    load(dir).save();
    const changed = MODULE.replace('n * 2', 'n + n');
    expect(cacheFileFor(dir, 'test-module', moduleAsScript(changed) ?? '')).not.toBe(cacheFileFor(dir, 'test-module', moduleAsScript(MODULE) ?? ''));
    const other = load(dir, changed);
    expect(other.fromCache).toBe(false);
    other.save();
    expect(readdirSync(dir)).toEqual([cacheFileFor(dir, 'test-module', moduleAsScript(changed) ?? '').split('/').at(-1)]);
  });
});
