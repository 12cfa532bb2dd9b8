// Where Folio finds its read-only resources (prompts/, skills/, config/models/) and its data folder.
// Resources sit at the project root in development and in `app.getAppPath()` when packaged; the
// Electron root passes that in, plain Node finds the root by walking up from this module.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export function findResourcesDir(start: string = dirname(fileURLToPath(import.meta.url))): string {
  if (process.env.FOLIO_RESOURCES_DIR) return resolve(process.env.FOLIO_RESOURCES_DIR);
  let dir = start;
  for (;;) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg) && existsSync(join(dir, 'prompts'))) {
      try {
        if ((JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === 'folio') return dir;
      } catch {
        // not ours; keep walking
      }
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`Folio resources (prompts/, skills/, config/) not found above ${start}`);
    dir = parent;
  }
}

/** Data folder: FOLIO_DATA_DIR when set, otherwise the caller's default (userData or ./workspace). */
export function resolveDataDir(fallback: string): string {
  return resolve(process.env.FOLIO_DATA_DIR || fallback);
}

/** Compiled code kept between runs (V8's code cache of pdfjs): safe to delete, made again when missing. */
export function codeCacheDir(dataDir: string): string {
  return join(dataDir, 'cache', 'code');
}
