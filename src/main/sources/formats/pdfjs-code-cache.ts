// Loads pdfjs-dist's two ES modules as classic scripts with a V8 code cache, so a new extraction
// thread does not parse and compile 3.4 MB of JavaScript again, nor compile lazily the functions
// its first document runs. Node 20 has no compile cache for ES modules, but vm.Script takes and
// produces V8's cached data. The cache is made once a thread has read the warm-up PDF
// (pdf-warm-up.ts), so the functions that document ran are in it, compiled; it lives in the app's
// cache folder, one file per module, named by a hash of the module's text, Node's and V8's
// versions and the architecture, with a checksum of its bytes, and is written atomically. A cache
// that V8 rejects (other flags) or whose checksum fails is made again.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import vm from 'node:vm';

const DIGEST_BYTES = 32;

/**
 * An ES module's text as a script whose value is a function of (require, import.meta.url,
 * import) returning the module's exports. Only the shapes pdfjs's bundles have are converted:
 * default imports of Node built-ins, `import.meta.url`, `import(` and one export list at the end.
 * Null when anything else remains.
 */
export function moduleAsScript(source: string): string | null {
  const exportList = /^export \{([\w\s,$]+)\};\s*$/mu.exec(source);
  if (!exportList || source.indexOf('\nexport ', exportList.index + 1) >= 0) return null;
  if (!exportList[1].split(',').every((name) => /^[\w$]+$/u.test(name.trim()))) return null;
  const body = (source.slice(0, exportList.index) + source.slice(exportList.index + exportList[0].length))
    .replace(/^import (\w+) from "(node:[\w/]+)";$/gmu, 'const $1 = folioRequire("$2");')
    .replaceAll('import.meta.url', 'folioImportMetaUrl')
    .replace(/\bimport\(/gu, 'folioImport(');
  if (/^\s*(import|export)\b/mu.test(body) || /\bimport\.meta\b/u.test(body)) return null;
  return `(function (folioRequire, folioImportMetaUrl, folioImport) {"use strict";\n${body}\nreturn {${exportList[1]}};\n})`;
}

function digest(bytes: Uint8Array | string): Buffer {
  return createHash('sha256').update(bytes).digest();
}

/** The cache file of one module's script text on this Node, V8 and architecture. */
export function cacheFileFor(dir: string, name: string, script: string): string {
  const key = digest(`${script}\0${process.version}\0${process.versions.v8}\0${process.arch}`).toString('hex').slice(0, 24);
  return path.join(dir, `${name}-${key}.v8cache`);
}

/** The cached data in a file written by writeCodeCache, or null when absent or not intact. */
function readCodeCache(file: string): Buffer | null {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch {
    return null;
  }
  const data = bytes.subarray(DIGEST_BYTES);
  return bytes.length > DIGEST_BYTES && digest(data).equals(bytes.subarray(0, DIGEST_BYTES)) ? data : null;
}

/** Writes the cache next to its final name, then renames it: a reader never sees half a file. */
function writeCodeCache(file: string, data: Buffer): void {
  const dir = path.dirname(file);
  mkdirSync(dir, { recursive: true });
  const temp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  try {
    writeFileSync(temp, Buffer.concat([digest(data), data]));
    renameSync(temp, file);
  } catch {
    rmSync(temp, { force: true });
    return;
  }
  // Caches of other pdfjs versions, patches or runtimes are never read again.
  const [prefix] = path.basename(file).split(/-[0-9a-f]{24}\./u);
  for (const other of readdirSync(dir)) {
    if (other !== path.basename(file) && other.startsWith(`${prefix}-`) && other.endsWith('.v8cache')) rmSync(path.join(dir, other), { force: true });
  }
}

export interface CachedModule {
  exports: unknown;
  /** Whether V8 took the cached data (false when there was none, or it was rejected). */
  fromCache: boolean;
  /** Makes and stores the cache if it was not used; call after the code has run what it should hold. */
  save(): void;
}

/**
 * Runs an ES module's text (from `file`) as a script with its code cache in `dir`. Null when the
 * text is not one moduleAsScript converts; the caller then imports it as a module.
 */
export function loadCachedModule(file: string, source: string, dir: string, name: string): CachedModule | null {
  const script = moduleAsScript(source);
  if (script === null) return null;
  const cacheFile = cacheFileFor(dir, name, script);
  const cachedData = readCodeCache(cacheFile) ?? undefined;
  const compiled = new vm.Script(script, { filename: pathToFileURL(file).href, ...(cachedData ? { cachedData } : {}) });
  const fromCache = cachedData !== undefined && !compiled.cachedDataRejected;
  const factory = compiled.runInThisContext() as (require: NodeJS.Require, url: string, load: (specifier: string) => Promise<unknown>) => unknown;
  const exports = factory(createRequire(file), pathToFileURL(file).href, (specifier) => import(specifier));
  let saved = fromCache;
  return {
    exports,
    fromCache,
    save() {
      if (saved) return;
      saved = true;
      writeCodeCache(cacheFile, compiled.createCachedData());
    },
  };
}
