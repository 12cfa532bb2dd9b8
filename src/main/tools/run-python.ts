// run_python: zcbot's code-execution tool (seed 002 §3.4) beside run_script. The model's code is
// written to a temporary .py in the task folder and run by the system's Python 3 through the same
// executor as shell commands (bubblewrap here: the task folder writable, the data folder hidden, no
// network unless the task allows it; a container per task in the team service), with the allowlisted
// environment (no credentials under any name) and the shell runner's process-group kill and limits.
import { createHash, randomBytes } from 'node:crypto';
import path from 'node:path';
import { z } from 'zod';
import { programEnv } from '../sandbox/env';
import { type Executor } from '../sandbox/executor';
import { defaultExecutor } from '../sandbox/select-executor';
import { programReport, runProgram } from './program-run';
import { describePackages, pythonFor, type PythonRuntime } from './python-runtime';
import { changedFiles, SCRIPT_DEFAULT_TIMEOUT_S, SCRIPT_MAX_TIMEOUT_S, SCRIPTS_DIR, snapshotFiles } from './run-script';
import type { RunResult } from './shell/run';
import { NO_PATHS, sourceFolder, type Tool, ToolError } from './types';
import { PathEscapeError } from '../../shared/errors';
import { removeInside, resolveInside, SpecialFileError, writeInside } from '../workspace/task-paths';

const parameters = z.object({
  code: z.string().min(1).max(200_000).describe('A complete Python 3 program.'),
  timeout: z
    .number()
    .int()
    .min(1)
    .max(SCRIPT_MAX_TIMEOUT_S)
    .optional()
    .describe(`Seconds before the program and everything it started are killed (default ${SCRIPT_DEFAULT_TIMEOUT_S}, at most ${SCRIPT_MAX_TIMEOUT_S}).`),
});

/**
 * Fonts for figures: matplotlib's default has no Chinese, so CJK faces follow it as fallbacks (per
 * glyph, matplotlib 3.6+). Named per platform so a run does not warn about fonts that cannot be there.
 */
function figureFonts(platform: NodeJS.Platform): string[] {
  if (platform === 'darwin') return ['DejaVu Sans', 'PingFang SC', 'Hiragino Sans GB', 'Arial Unicode MS'];
  if (platform === 'win32') return ['DejaVu Sans', 'Microsoft YaHei', 'SimHei'];
  return ['DejaVu Sans', 'Noto Sans CJK JP', 'Noto Sans CJK SC'];
}

/** Figures are files (no display), CJK labels render, and a minus sign survives any font. */
export function matplotlibRc(platform: NodeJS.Platform = process.platform): string {
  return ['backend: Agg', `font.family: ${figureFonts(platform).join(', ')}`, 'axes.unicode_minus: False', 'savefig.bbox: tight', ''].join('\n');
}

export interface RunPythonToolOptions {
  /** Names of stored keys that must never reach the program's environment. */
  secretNames?: () => readonly string[];
  /** The environment the program's allowlisted one is made from (default: this process's). */
  baseEnv?: () => NodeJS.ProcessEnv;
  /** Folders the program must not see (Folio's data folder), where the sandbox works. */
  hiddenPaths?: readonly string[];
  /** What runs the program (default: the one FOLIO_EXECUTOR chooses). */
  executor?: Executor;
  /** The interpreter on this machine (default: probed once, see python-runtime.ts). */
  python?: () => PythonRuntime;
}

export function createRunPythonTool(options: RunPythonToolOptions = {}): Tool<typeof parameters> {
  const executor = (): Executor => options.executor ?? defaultExecutor();
  const python = () => pythonFor(executor(), options.python);
  return {
    name: 'run_python',
    // A getter: the probe (and the sandbox's) run once, at the first run that lists the tools.
    get description() {
      const found = python();
      const packages = !found.available
        ? ''
        : found.packages === null
          ? "The packages are the container image's: check an import before relying on it. "
          : found.packages.length > 0
            ? `Python ${found.version} with: ${describePackages(found.packages)}; nothing else can be installed. `
            : `Python ${found.version} with the standard library only (no numpy, pandas or matplotlib); nothing else can be installed. `;
      return (
        'Run a Python 3 program in the task folder (the working directory; use relative paths such as "source/…", "work/…"). ' +
        'Use it to compute statistics, clean or reshape tables (CSV, .xlsx), and draw figures. ' +
        packages +
        "Print results with print(); stdout and stderr come back (capped at 100 KB) with the exit code. No stdin, no display: save figures with " +
        "plt.savefig('work/<name>.png', dpi=200) (Chinese labels render); a PNG under work/ can be used directly as a slide image in render_deck " +
        'and as a figure in a proposal. Write outputs under work/ (source/ is read-only). ' +
        `Killed with everything it started after timeout seconds (default ${SCRIPT_DEFAULT_TIMEOUT_S}). Only a minimal environment (PATH, HOME, LANG ...): no credentials. ` +
        executor().note()
      );
    },
    parameters,
    traits: { kind: 'execute', runsCode: true, network: true, paths: NO_PATHS, writesArtifacts: false, endsTurn: false },
    // Granted by its exact text, like run_script: a changed program asks again.
    grantScope(args) {
      return `sha256:${createHash('sha256').update(args.code).digest('hex')}`;
    },
    assess(args) {
      return { risk: 'standard', detail: args.code };
    },
    async execute(args, ctx) {
      const runner = executor();
      const found = python();
      if (!found.available) throw new ToolError(`run_python needs Python 3, and none was found (${found.reason}). Use run_script (JavaScript) instead.`);
      const timeoutS = args.timeout ?? SCRIPT_DEFAULT_TIMEOUT_S;
      // Staged through the resolver: a `work/.scripts` link planted by a command (to another task,
      // out of the data folder) is refused, and no file is written through a link.
      const fileRel = `${SCRIPTS_DIR}/script-${Date.now()}-${randomBytes(4).toString('hex')}.py`;
      const rcRel = `${SCRIPTS_DIR}/matplotlibrc`;
      let file: string;
      let rc: string;
      try {
        await writeInside(ctx.root, fileRel, args.code, { exclusive: true });
        await writeInside(ctx.root, rcRel, matplotlibRc());
        file = resolveInside(ctx.root, fileRel);
        rc = resolveInside(ctx.root, rcRel);
      } catch (err) {
        await removeInside(ctx.root, fileRel);
        if (err instanceof PathEscapeError || err instanceof SpecialFileError) throw err;
        throw new ToolError(`Could not write the program to ${SCRIPTS_DIR}: ${err instanceof Error ? err.message : String(err)}`);
      }
      const dir = path.dirname(rc);
      // The program's code is not classified, so it gets the network only when the task allows it.
      const network = (await ctx.network?.allowed()) === true;
      const sandbox = runner.status().active;
      const env = {
        ...programEnv(options.baseEnv?.() ?? process.env, { sandboxed: sandbox, network, secretNames: options.secretNames?.() ?? [] }),
        MPLBACKEND: 'Agg',
        MATPLOTLIBRC: rc,
        // matplotlib's font cache, built once per task (the sandbox's home and /tmp do not last).
        MPLCONFIGDIR: path.join(dir, '.matplotlib'),
      };
      const before = snapshotFiles(ctx.root);
      let result: RunResult;
      try {
        // -I: isolated (no PYTHON* variable, no user site folder changes what runs); -u: output
        // arrives as printed, even from a program killed at its time limit; -B: no .pyc files;
        // -X utf8: Chinese text in and out whatever the locale.
        result = await runProgram(runner, ctx, {
          argv: [found.executable, '-I', '-u', '-B', '-X', 'utf8', file],
          env,
          network,
          timeoutS,
          hiddenPaths: options.hiddenPaths ?? [],
          readOnlyPaths: [sourceFolder(ctx)],
          label: 'python3',
        });
      } finally {
        await removeInside(ctx.root, fileRel);
      }
      const touched = changedFiles(before, snapshotFiles(ctx.root));
      const wrote = touched.length > 0 ? `Files written: ${touched.join(', ')}\n` : '';
      return {
        content: programReport(result, { isolated: sandbox, network, timeoutS, what: 'the program', extra: wrote }),
        isError: result.timedOut || result.aborted || result.exitCode !== 0,
        touched,
      };
    },
  };
}
