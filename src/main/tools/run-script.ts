// run_script: the code-execution half of the hybrid tool model (seed 002 §3.4). The model writes a
// JavaScript module; it runs in a child Node process in the task folder, with Folio's own document
// libraries (pptxgenjs, docx) importable, credentials stripped from its environment, and the shell
// runner's process-group kill, time limit and output cap.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { z } from 'zod';
import { type Executor } from '../sandbox/executor';
import { defaultExecutor } from '../sandbox/select-executor';
import { scriptRuntime } from './script-runtime';
import { NO_PATHS, sourceFolder, type Tool } from './types';
import { runStagedProgram, SCRIPT_DEFAULT_TIMEOUT_S, SCRIPT_MAX_TIMEOUT_S, SCRIPTS_DIR, type ProgramSetup } from './staged-program';
import { contentFingerprint, filesImportedByScript } from './ran-files';

const parameters = z.object({
  code: z.string().min(1).max(200_000).describe('A complete JavaScript ES module (top-level await allowed).'),
  timeout_s: z
    .number()
    .int()
    .min(1)
    .max(SCRIPT_MAX_TIMEOUT_S)
    .optional()
    .describe(`Seconds before the script is killed (default ${SCRIPT_DEFAULT_TIMEOUT_S}, at most ${SCRIPT_MAX_TIMEOUT_S}).`),
});

export interface RunScriptToolOptions extends ProgramSetup {
  /** The folder whose node_modules scripts import from (default: Folio's own package folder). */
  moduleRoot?: string;
  /** The Node binary (default: see script-runtime.ts). */
  nodePath?: string;
  /** What runs the scripts (default: the one FOLIO_EXECUTOR chooses, see sandbox/select-executor.ts). */
  executor?: Executor;
}

/** Folio's package folder: the nearest ancestor of this module with a package.json named "folio". */
export function findFolioRoot(start: string = path.dirname(fileURLToPath(import.meta.url))): string {
  for (let dir = start; ; dir = path.dirname(dir)) {
    const pkg = path.join(dir, 'package.json');
    try {
      const parsed: unknown = JSON.parse(fs.readFileSync(pkg, 'utf8'));
      if (typeof parsed === 'object' && parsed !== null && 'name' in parsed && parsed.name === 'folio') return dir;
    } catch {
      // No package.json here (or not JSON): keep walking up.
    }
    if (path.dirname(dir) === dir) return process.cwd();
  }
}

/**
 * The `--import` module run before the script. ESM ignores NODE_PATH and resolves bare imports from
 * the script's own folder (the task folder has no node_modules), so a resolve hook retries a bare
 * specifier that was not found as if it were imported from Folio's package.json; and a global
 * `require` (made with createRequire at the same place) serves CommonJS-style scripts. Passed as a
 * data: URL so the script file itself is exactly the model's code (line numbers in stack traces match).
 */
export function bootstrapUrl(moduleRoot: string): string {
  const parent = pathToFileURL(path.join(moduleRoot, 'package.json')).href;
  const hooks = `
const parent = ${JSON.stringify(parent)};
const relative = /^(?:\\.{1,2}\\/|\\/|[a-z][a-z0-9+.-]*:)/i;
export async function resolve(specifier, context, next) {
  try {
    return await next(specifier, context);
  } catch (err) {
    if (err && err.code === 'ERR_MODULE_NOT_FOUND' && !relative.test(specifier)) return next(specifier, { ...context, parentURL: parent });
    throw err;
  }
}`;
  const boot = `import { createRequire, register } from 'node:module';
register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(hooks)}));
globalThis.require = createRequire(${JSON.stringify(parent)});`;
  return `data:text/javascript,${encodeURIComponent(boot)}`;
}

export function createRunScriptTool(options: RunScriptToolOptions = {}): Tool<typeof parameters> {
  const moduleRoot = options.moduleRoot ?? findFolioRoot();
  const boot = bootstrapUrl(moduleRoot);
  // Read at each use, not at creation: the catalog is built before anything runs.
  const executor = (): Executor => options.executor ?? defaultExecutor();
  return {
    name: 'run_script',
    // A getter: the sandbox note probes bubblewrap once, which start-up should not wait for (see shell).
    get description() {
      return (
        'Run a JavaScript ES module with Node in the task folder (the working directory; use relative paths such as ' +
        '"work/…" or "output/…"). Use it for batch work, computing numbers, or building files with a library. ' +
        "pptxgenjs and docx are available: `import PptxGenJS from 'pptxgenjs'` / `import { Document, Packer } from 'docx'`, " +
        "or `require('pptxgenjs')` (a global `require` is provided). Top-level await works. Print results with console.log; " +
        `stdout and stderr come back (capped at 100 KB) with the exit code. No stdin. Killed after timeout_s (default ${SCRIPT_DEFAULT_TIMEOUT_S} s). ` +
        'Only a minimal process.env (PATH, HOME, LANG ...): no credentials. ' +
        executor().note()
      );
    },
    parameters,
    traits: { kind: 'execute', runsCode: true, network: true, paths: NO_PATHS, writesArtifacts: false, endsTurn: false },
    // A script is granted by its exact text and the contents of the task modules it imports: a
    // changed script, or a changed module it imports, asks again.
    grantScope(args, ctx) {
      const script = `sha256:${createHash('sha256').update(args.code).digest('hex')}`;
      const imported = ctx ? filesImportedByScript(ctx.root, SCRIPTS_DIR, args.code) : [];
      return ctx === undefined || imported.length === 0 ? script : `${script}\n${contentFingerprint(ctx.root, imported)}`;
    },
    assess(args, ctx) {
      const imported = filesImportedByScript(ctx.root, SCRIPTS_DIR, args.code);
      return imported.length === 0 ? { risk: 'standard', detail: args.code } : { risk: 'standard', detail: args.code, reasons: [{ code: 'runs_file', subject: imported.join(', ') }] };
    },
    async execute(args, ctx) {
      const timeoutS = args.timeout_s ?? SCRIPT_DEFAULT_TIMEOUT_S;
      const runner = executor();
      // A container has its image's Node, and sees Folio's package folder (for the imports) only when mounted.
      const node = runner.hostFilesystem ? scriptRuntime(options.nodePath) : 'node';
      const readOnlyPaths = runner.hostFilesystem ? [sourceFolder(ctx)] : [sourceFolder(ctx), moduleRoot];
      // The clean environment has no NODE_OPTIONS: flags meant for Folio's own process would change how the script runs.
      return runStagedProgram(runner, ctx, options, {
        code: args.code,
        extension: '.mjs',
        argv: (file) => [node, '--import', boot, file],
        extraEnv: () => ({ NO_COLOR: '1' }),
        readOnlyPaths,
        timeoutS,
        label: 'node',
        noun: 'script',
      });
    },
  };
}
