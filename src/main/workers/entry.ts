// Where a worker thread's code is, from source (vitest, tsx) and in the built app alike. Built,
// each worker is its own electron-vite entry (`out/main/<name>.js`), found next to the bundle that
// asks for it or one folder above (when the asking code landed in a chunk); from source it is the
// .ts file, loaded through tsx, which the worker registers itself (Node 20 does not carry
// `--import` hooks into workers).
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export interface WorkerEntry {
  /** A module URL, or (from source) bootstrap code to run with `eval`. */
  script: URL | string;
  eval?: boolean;
  workerData?: unknown;
  execArgv?: string[];
}

const LOADER_FLAGS = new Set(['--import', '--require', '-r', '--loader', '--experimental-loader']);

/**
 * A built worker needs no module hooks. Workers inherit the process's flags, so one started under
 * `node --import tsx` (the CLI in development, the benchmark) would load its code through tsx: slow.
 */
export function withoutLoaders(execArgv: readonly string[]): string[] {
  const kept: string[] = [];
  for (let i = 0; i < execArgv.length; i += 1) {
    const arg = execArgv[i] ?? '';
    if (LOADER_FLAGS.has(arg)) i += 1;
    else if (![...LOADER_FLAGS].some((flag) => arg.startsWith(`${flag}=`))) kept.push(arg);
  }
  return kept;
}

/** tsx's ESM API (its CommonJS twin resolves its loader from the wrong folder). */
export function tsxEsmApiUrl(): string | null {
  try {
    const require = createRequire(import.meta.url);
    const pkgPath = require.resolve('tsx/package.json');
    const pkg = JSON.parse(readFileSync(pkgPath, 'utf8')) as { exports?: Record<string, { import?: { default?: string } } | string> };
    const api = pkg.exports?.['./esm/api'];
    const rel = typeof api === 'object' ? api.import?.default : undefined;
    return rel ? pathToFileURL(path.join(path.dirname(pkgPath), rel)).href : null;
  } catch {
    return null;
  }
}

/**
 * The entry of worker `name` (e.g. `html-worker`), whose source is `<name>.ts` beside `callerUrl`
 * (the asking module's `import.meta.url`); null when it cannot be found.
 */
export function moduleWorkerEntry(name: string, callerUrl: string): WorkerEntry | null {
  if (callerUrl.endsWith('.ts')) {
    const tsxApi = tsxEsmApiUrl();
    if (!tsxApi) return null;
    const worker = new URL(`./${name}.ts`, callerUrl).href;
    const bootstrap = `import(${JSON.stringify(tsxApi)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(worker)}); });`;
    return { script: bootstrap, eval: true };
  }
  for (const candidate of [`./${name}.js`, `./${name}.mjs`, `../${name}.js`, `../${name}.mjs`]) {
    const url = new URL(candidate, callerUrl);
    if (existsSync(fileURLToPath(url))) return { script: url, execArgv: withoutLoaders(process.execArgv) };
  }
  return null;
}
